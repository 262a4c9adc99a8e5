"""The MJ's commands about seats, their slots found in a clause: a player removed (REMOVE) or replaced (REPLACE),
a newcomer registered (REGISTER), the game ended (FINISH)."""

from __future__ import annotations

from pbem.engine.desk import lexicon as L
from pbem.engine.desk.clause import (
    Clause,
    Fill,
    either,
    players,
    pronoun_of,
    take_player,
)
from pbem.engine.desk.fill_orders import correct
from pbem.engine.desk.readings import Intent, Reading
from pbem.engine.desk.slots import (
    addresses,
    has,
    has_any,
    step_of,
    text_between,
)


def remove(c: Clause) -> list[Reading]:
    v = c.view
    f = Fill(c, "REMOVE")
    ws = c.ws
    when_ = "now"
    if has_any(ws, L.END_OF_STEP):
        when_ = "end_of_step"
    elif has(ws, "des ce soir") >= 0 or has(ws, "ce soir") >= 0:
        f.guess("when")
    hits = players(c, f)
    names = [h for h in hits if h.name is not None]
    if len({h.name for h in names}) > 1:
        between = ws[names[0].j:names[1].i]
        if any(w in ("ou", "or") for w in between):
            listed = tuple(h.name for h in names if h.name)
            f.refuse(f"lequel : {either(listed, 'ou')} ?", f"which one: {either(listed, 'or')}?", candidates=listed)
            return [f.reading()]
    readings = []
    if any(w in ("et", "and") for w in ws) and len(hits) > 1:
        for h in hits:
            g = Fill(c, "REMOVE")
            take_player(c, g, "player", [h])
            g.slots["when"] = when_
            readings.append(g.reading())
        return readings
    take_player(c, f, "player", hits)
    f.slots["when"] = when_
    if c.head.trigger.guess:
        f.guess("intent", "when")
        if "player" in f.slots:
            f.alternatives.append(Intent("REMOVE", {"player": f.slots["player"], "when": "end_of_step"}))
    _ = v
    return [f.reading()]


def replace(c: Clause) -> Reading:
    v = c.view
    f = Fill(c, "REPLACE")
    ws = c.ws
    words = c.words
    thread = v.thread
    stranger = thread.stranger if thread is not None and thread.kind == "stranger" else None
    addrs = addresses(words)
    by = next((k for k, w in enumerate(ws) if w in ("par", "with", "by") and k > c.head.i), None)
    verb_first = all(w in L.FILLER or w in ("tu", "peux", "pourrais", "please", "stp", "svp", "bon", "alors")
                     for w in ws[c.own:c.head.i])
    passive = by is not None and c.head.i > c.own and ws[c.head.i - 1] in ("est", "sera", "is")
    if by is not None and by + 1 < len(ws) and ws[by + 1] in v.order_words:
        return correct(c)  # « remplace par PASSER »: an order replaced, not a player
    hits = players(c, f)
    # the seat: after the verb (« remplace X par »), after « la place de », or the subject of « est remplacé »
    if verb_first and not passive:
        seat_hits = [h for h in hits if by is None or h.j <= by]
    elif passive:
        seat_hits = [h for h in hits if h.j <= c.head.i]
    else:
        seat_hits = [h for h in hits if h.i > c.head.i]
    take_player(c, f, "player", seat_hits or hits)
    # the newcomer
    name = ""
    if by is not None:
        end = addrs[0].start if addrs and addrs[0].start > words[by].end else words[-1].end
        stop = next((t for t in words[by + 1:] if t.addr or t.w in ("a", "des", "from", "au", "starting") and
                     t.start > words[by].end), None)
        end = min(end, stop.start) if stop is not None else end
        name = text_between(c.line, words[by].end, end)
    elif not verb_first:
        first = c.own
        name = text_between(c.line, words[first].start, min(addrs[0].start if addrs else len(c.line),
                                                              words[c.head.i].start))
    name = " ".join(w for w in name.replace(",", " ").split() if "@" not in w and w not in ("<", ">"))
    name = name.strip(" ,;:()<>\"'«»")
    pron = ws[c.own] if ws and ws[c.own] in ("elle", "il", "she", "he") else None
    if pron is not None and name.lower() == pron:
        name = ""
    if addrs:
        f.slots["new_address"] = addrs[0].w
        k = words.index(addrs[0])
        f.use(k, k + 1)
    elif stranger is not None and (pron or (name and name.split()[0].lower() in stranger[0].lower())):
        f.slots["new_address"] = stranger[1]
        if pron:
            f.guess("new_address")
    if pron and stranger is not None and not name:
        f.slots["new_name"] = stranger[0]
        f.guess("new_name")
    elif name and name.lower() not in ("sa soeur", "son frere", "sa sœur") and not has_any(
            [x.lower() for x in name.split()], ("meme", "même")):
        if stranger is not None and name.lower() in stranger[0].lower():
            name = stranger[0]
        f.slots["new_name"] = name
    step = step_of(words, v.open_turn, v.last_turn)
    number = v.open_turn or 0
    if step is not None:
        number = step.number
        f.use(step.i, step.j)
    elif has_any(ws, ("des maintenant", "des ce tour", "now")):
        number = v.open_turn or 0
    f.slots["from_step"] = number
    if "new_address" not in f.slots or "new_name" not in f.slots:
        missing = tuple(s for s in ("new_name", "new_address") if s not in f.slots)
        f.refuse("qui prend la place, à quelle adresse ? « Remplace Bran par Jeanne Dupont <jeanne@example.org> »",
                 "who takes the seat, at which address? 'Replace Bran with Jane Doe <jane@example.org>'",
                 missing=missing)
    return f.reading()



def register(c: Clause) -> Reading:
    v = c.view
    f = Fill(c, "REGISTER")
    words = c.words
    thread = v.thread
    stranger = thread.stranger if thread is not None and thread.kind == "stranger" else None
    addrs = addresses(words)
    after = c.head.j
    stop = next((k for k in range(after, len(words)) if words[k].addr or words[k].w in (
        "a", "dans", "to", "in", "c", "elle", "il", "qui") or words[k].punct), len(words))
    comma = next((t.start for t in c.toks if t.punct and t.w in ",;" and t.start > words[after - 1].end), None)
    end = words[stop].start if stop < len(words) else words[-1].end
    if comma is not None:
        end = min(end, comma)
    name = text_between(c.line, words[after - 1].end, end) if after <= len(words) else ""
    name = " ".join(x for x in name.split() if x.lower() not in ("le", "la", "l'"))
    pron = pronoun_of(c, c.head.i)
    if addrs:
        f.slots["address"] = addrs[0].w
    elif stranger is not None:
        f.slots["address"] = stranger[1]
    if name and not (name.lower() in ("la", "le", "him", "her") or name.lower().startswith(("la ", "le "))):
        if stranger is not None and name.lower() in stranger[0].lower():
            name = stranger[0]
        f.slots["name"] = name
    elif stranger is not None:
        f.slots["name"] = stranger[0]
        f.guess("name", "address")
    elif pron is not None:
        f.refuse("qui inscrire ? « Inscris Jeanne Dupont <jeanne@example.org> »", "whom? 'Register Jane Doe "
                 "<jane@example.org>'", missing=("name", "address"))
    if stranger is not None and pron is not None:
        f.guess("name", "address")
    if "address" not in f.slots or "name" not in f.slots:
        f.refuse("qui inscrire, à quelle adresse ? « Inscris Jeanne Dupont <jeanne@example.org> »",
                 "whom, at which address? 'Register Jane Doe <jane@example.org>'",
                 missing=tuple(s for s in ("name", "address") if s not in f.slots))
    return f.reading()


def finish(c: Clause) -> Reading | None:
    f = Fill(c, "FINISH")
    ws = c.ws
    j = c.head.j
    if j < len(ws) and ws[j] in ("pour", "for"):  # « fin de partie pour lui »: about a player
        return None
    if c.head.trigger.guess:
        f.guess("intent")
        if c.head.trigger.alt:
            f.alternatives.append(Intent(c.head.trigger.alt, {}))
    return f.reading()


