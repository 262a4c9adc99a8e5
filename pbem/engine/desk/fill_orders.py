"""The MJ's commands about orders and results, their slots found in a clause: a mail sent again (RESEND), an order
given for a player (FOR), corrected (CORRECT), a step computed again (RERUN), held results approved with their
chronicle (APPROVE, CHRONICLE), the answers to a game's requests (SR, ROLL, REFUSE_TEST: 1626's tests), and
the commands without slots (MISSING, PREVIEW, HELP)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import when
from pbem.engine.desk import lexicon as L
from pbem.engine.desk.clause import (
    Clause,
    Fill,
    either,
    players,
    pronoun_of,
    resolve,
    slot_words,
    steps,
    take_player,
    wished,
)
from pbem.engine.desk.readings import Intent, Reading
from pbem.engine.desk.slots import (
    has,
    has_any,
    quoted,
    step_of,
    text_between,
)
from pbem.msg import Msg


def simple(c: Clause) -> Reading:
    """MISSING, PREVIEW, HELP: no slot."""
    return Fill(c, c.head.command).reading()


def resend(c: Clause) -> list[Reading]:
    v = c.view
    f = Fill(c, "RESEND")
    ws = c.ws
    step = step_of(c.words, v.open_turn, v.last_turn)
    what = "results"
    owner_said = False
    if has_any(ws, L.START) or (step is not None and step.number == 0):
        what = "start"
    elif "forum" in ws:
        what = "forum"
    elif any(w in L.RESULTS for w in ws) or any(
            w in L.POSSESSIVES and k + 1 < len(ws) and ws[k + 1] in ("compte", "cr") for k, w in enumerate(ws)):
        what = "results"  # (« son compte rendu » is his own)
    elif any(w in L.FORUM for w in ws) or has(ws, "compte rendu") >= 0:
        what = "forum"
    elif "tout" in ws:
        f.refuse("lequel ? « tout » n'est pas un courriel : nommez-le (ses résultats du tour 3, le courriel de "
                 "départ…)", "which one? 'everything' is no mail: name it (their results of turn 3, the start mail…)",
                 missing=("what",))
        return [f.reading()]
    if step is not None:
        f.use(step.i, step.j)
    if what != "start":
        number = step.number if step is not None else v.last_turn
        if number > v.last_turn:
            fr, en = steps(v)
            f.refuse(f"{fr.the} {number} n'est pas encore résolu{fr.e} (le dernier : {fr.the} {v.last_turn})",
                     f"{en.noun} {number} is not resolved yet (the last is {en.noun} {v.last_turn})")
            return [f.reading()]
        f.slots["step"] = number
    possessive = any(w in L.POSSESSIVES for w in ws)
    hits = players(c, f)
    # the recipient: « à X », « to X », « moi », « lui »; everyone is no recipient
    if has_any(ws, L.EVERYONE):
        f.refuse("un renvoi va à un joueur ou à vous, pas à tout le monde (le compte rendu du forum est public)",
                 "a resend goes to one player or to you, not to everyone (the forum post is public)")
        return [f.reading()]
    to_hits = [h for h in hits if h.i > 0 and ws[h.i - 1] in ("a", "au", "to") or (
        h.i == c.head.j and h.j < len(ws) and ws[h.j] in L.POSSESSIVES)]  # « resend Brienne her results »
    to_me = any(t.w in L.ME and (t.joined or (k > 0 and ws[k - 1] in ("a", "to")) or k + 1 == c.head.i or
                                 (k == c.head.j and t.w == "me") or k + 1 < len(ws) and ws[k + 1] in ("renvoyer",
                                                                                                    "redonner"))
                for k, t in enumerate(c.words))
    owners = [h for h in hits if h not in to_hits]
    # several recipients joined by « et »: one resend each
    readings: list[Reading] = []
    recipients: list[str] = []
    for h in to_hits:
        if h.name is None:
            f.use(h.i, h.j)
            f.refuse(f"à quel joueur : {either(h.candidates, 'ou')} ?", f"to which player: {either(h.candidates, 'or')}?",
                     candidates=h.candidates)
            return [f.reading()]
        f.use(h.i - 1 if ws[h.i - 1] in ("a", "au", "to") else h.i, h.j)
        recipients.append(h.name)
    if what in ("results", "start"):
        owner_hit = next((h for h in owners if h.name is not None), None)
        ambiguous = next((h for h in owners if h.name is None), None)
        if ambiguous is not None:
            f.use(ambiguous.i, ambiguous.j)
            f.refuse(f"de quel joueur parlez-vous : {either(ambiguous.candidates, 'ou')} ?",
                     f"which player do you mean: {either(ambiguous.candidates, 'or')}?",
                     candidates=ambiguous.candidates)
            return [f.reading()]
        if owner_hit is not None:
            f.use(owner_hit.i, owner_hit.j)
            f.slots["whose"] = owner_hit.name
            owner_said = True
        elif recipients and (possessive or what == "start" or has(ws, "le bilan") < 0):
            f.slots["whose"] = recipients[0]
            owner_said = True
        elif recipients and what == "results":  # « renvoie à Olenna le bilan »: hers, or the forum's?
            f.slots["whose"] = recipients[0]
            f.guess("what")
            f.alternatives.append(Intent("RESEND", {"what": "forum", "step": f.slots.get("step"), "to": recipients[0]}))
        else:
            pron = pronoun_of(c, c.head.i)
            if pron is not None:
                name = resolve(c, pron[0])
                if name is not None:
                    f.use(pron[1], pron[1] + 1)
                    f.slots["whose"] = name
                    recipients.append(name)
                    f.guess("to")
                    if possessive:
                        f.guess("whose")
            if "whose" not in f.slots:
                if what == "results" and not possessive and "de" not in ws[:c.head.j + 3]:
                    what = "forum"  # « les résultats du tour 3 », nobody's: the forum post, likely
                    f.guess("what")
                else:
                    f.refuse("les résultats de quel joueur ?", "whose results?", missing=("whose",))
                    return [f.reading()]
    else:
        pron = pronoun_of(c, c.head.i)
        if pron is not None and not recipients and not to_me:
            name = resolve(c, pron[0])
            if name is not None:
                recipients.append(name)
                f.guess("to")
    f.slots["what"] = what
    if what == "start":
        f.slots.pop("step", None)
    if what == "forum":
        f.slots.pop("whose", None)
    if not recipients:
        if not to_me and what in ("results", "start") and owner_said and any(
                w in ("recu", "recus", "recue", "received", "eu") for w in ws):
            recipients.append(f.slots["whose"])  # « renvoie les résultats d'Arya, elle les a pas reçus »
            f.guess("to")
            f.alternatives.append(Intent("RESEND", {**f.slots, "to": "mj"}))
        else:
            recipients.append("mj")
    for to in recipients:
        f.slots["to"] = to
        readings.append(f.reading())
        readings[-1].slots = dict(f.slots)
    return readings


def _order_text(c: Clause, f: Fill, start: int, end: int) -> str | None:
    """The order a sentence gives, from a game's order word at ``start``: its keyword, then its words (players'
    names written in full, « sur », « l' » and « avec un … de » left out)."""
    words = c.words
    keyword = c.view.order_words.get(words[start].w)
    if keyword is None:
        return None
    out = [keyword]
    k = start + 1
    roster = c.ctx.roster
    if k < end and words[k].w in ("sur", "contre", "against", "on") and keyword != "TEST":
        k += 1
    hits = {h.i: h for h in roster.scan(words[k:end])}
    i = k
    while i < end:
        h = hits.get(i - k)
        if h is not None and h.name is not None:
            out.append(h.name)
            i += h.j - h.i
            continue
        t = words[i]
        if t.w in ("l", "avec", "un", "une", "de", "d", "with", "a") and not t.w.isdigit():
            i += 1
            continue
        if t.w in ("pour", "for") or t.w in (":",):
            break
        out.append(t.raw)
        i += 1
    f.use(start, end)
    return " ".join(out)


def _after_colon(c: Clause, f: Fill) -> tuple[str, set[int]] | None:
    """The order written after a colon when its first word is none the reader knows (a game's order it cannot
    list now, « : GIFT Arya »): as written, for the game to read."""
    words = c.words
    colon = next((k for k, t in enumerate(words) if t.w == ":" and k >= c.own), None)
    if colon is None or colon + 1 >= len(words):
        return None
    end = _order_end(c, colon + 1)
    text = text_between(c.line, words[colon + 1].start, words[end - 1].end)
    if not text:
        return None
    f.use(colon, end)
    return text, set(range(colon, end))


def _order_end(c: Clause, start: int) -> int:
    """Where an order's words end: at « pour <joueur> », « for <player> », a comma or the clause's end."""
    words = c.words
    end = start + 1
    hits = {h.i for h in c.ctx.roster.scan(words)}
    while end < len(words):
        w = words[end].w
        if w in ("pour", "for") and end + 1 < len(words) and (end + 1 in hits or words[end + 1].cap):
            break
        if w in ("il", "elle", "qu", "car", "parce", "puisque", "she", "he", "because", "pas", "mais", "not", "but",
                 "instead") or (w == "et" and end + 1 < len(words) and words[end + 1].w in ("pas", "non")):
            break
        end += 1
    # a comma ends the order (« PASSER, elle m'a prévenu »)
    for t in c.toks:
        if t.punct and t.w in ",;" and words[start].end <= t.start and (end >= len(words) or t.start < words[end].start):
            end = next((k for k, x in enumerate(words) if x.start > t.start), len(words))
            break
    return end


def _wish(c: Clause, f: Fill, at: int) -> tuple[str, set[int]] | None:
    """The order a wish in the game's words means (« veut tuer Sansa »: ESCOUADE Sansa), a guess to confirm:
    the verb's order on the player named right after it (« enquêter sur Bran »)."""
    ws = c.ws
    k = at + 1
    while k < len(ws) and ws[k] in ("sur", "contre", "le", "la", "l", "on", "against"):
        k += 1
    hit = next((h for h in c.ctx.roster.scan(c.words) if h.i == k), None)
    if hit is None:
        return None
    if hit.name is None:
        f.use(hit.i, hit.j)
        f.refuse(f"contre quel joueur : {either(hit.candidates, 'ou')} ?",
                 f"against which player: {either(hit.candidates, 'or')}?", candidates=hit.candidates)
        return None
    f.use(at, hit.j)
    f.guess("order")
    return f"{c.view.wish_words[ws[at]]} {hit.name}", set(range(at, hit.j))


def _pass_phrase(ws: Sequence[str]) -> int:
    """« passe son tour », « passe ce tour », « passent ce tour », « ne joue pas ce tour »: where it begins."""
    for i, w in enumerate(ws):
        if w in ("passe", "passent", "passera", "passeront") and i + 2 < len(ws) and ws[i + 1] in (
                "son", "ce", "leur", "cette", "un") and ws[i + 2] in ("tour", "etape", "manche"):
            return i
    return -1


def for_player(c: Clause) -> list[Reading]:
    """FOR: an order given on a player's behalf (« POUR Arya : ESCOUADE Bran », « Olenna passe son tour »)."""
    v = c.view
    f = Fill(c, "FOR")
    ws = c.ws
    order_at = next((k for k in range(c.own, len(ws)) if ws[k] in v.order_words and not (
        k > 0 and ws[k - 1] in ("pas", "not"))), None)
    wish_at = next((k for k in range(c.own, len(ws)) if wished(ws, k, v)), None)
    passes = _pass_phrase(ws)
    order: str | None = None
    exclude: set[int] = set()
    if wish_at is not None and (wish := _wish(c, f, wish_at)) is not None:
        order, exclude = wish
    elif order_at is not None:
        end = _order_end(c, order_at)
        order = _order_text(c, f, order_at, end)
        exclude = set(range(order_at, end))
    elif passes >= 0:
        order = "PASSER"
        f.use(passes, passes + 3)
        exclude = set(range(passes, passes + 3))
    elif has(ws, "ne joue pas") >= 0 or has(ws, "ne joue pas ce tour") >= 0:
        order = "PASSER"
        at = has(ws, "ne joue pas")
        f.use(at, at + 3)
        f.guess("intent")
    elif (written := _after_colon(c, f)) is not None:
        order, exclude = written
    hits = players(c, f, exclude=exclude)
    if "order" in f.guessed and wish_at is not None:  # a wish: who wishes is named before it, or « par X »
        end = max(exclude) + 1
        by = [h for h in hits if h.i == end + 1 and ws[end] in ("a", "au", "par", "to", "by")]
        wishers = [h for h in hits if h.i < wish_at] or by
        if len(wishers) < len(hits):
            f.refuse("un souhait par phrase : écrivez-en un par ligne", "one wish a sentence: write one a line")
        hits = wishers
    names = [h for h in hits if h.name is not None]
    several = [h.name for h in names if h.name]
    readings: list[Reading] = []
    if len(set(several)) > 1 and any(w in ("et", "and") for w in ws[names[0].j:names[1].i]) and f.why is None:
        for h in names:
            g = Fill(c, "FOR")
            g.guessed = list(f.guessed)
            g.slots = {"player": h.name, "order": order}
            if order is None:
                g.refuse("quel ordre ?", "which order?", missing=("order",))
            readings.append(g.reading())
        return readings
    name = take_player(c, f, "player", hits)
    if order is None and f.why is None:
        f.refuse("quel ordre ? Écrivez-le après deux-points : « POUR Sansa : PASSER »",
                 "which order? Write it after a colon: 'FOR Sansa: PASSER'", missing=("order",))
    if order is not None:
        f.slots["order"] = order
    if "intent" in f.guessed and name is not None:
        f.alternatives.append(Intent("REMOVE", {"player": name, "when": "now"}))
    return [f.reading()]


def correct(c: Clause) -> Reading:
    v = c.view
    f = Fill(c, "CORRECT")
    ws = c.ws
    step = step_of(c.words, v.open_turn, v.last_turn)
    number = v.last_turn
    if step is not None:
        f.use(step.i, step.j)
        number = step.number
    order_at = None
    colon = next((k for k, t in enumerate(c.words) if t.w == ":"), None)
    for k in range(colon + 1 if colon is not None else 0, len(ws)):
        if ws[k] in v.order_words and not (k > 0 and ws[k - 1] in ("pas", "not", "que")):
            order_at = k
            break
    order = None
    exclude: set[int] = set()
    if order_at is not None:
        end = _order_end(c, order_at)
        nxt = next((k for k in range(order_at + 1, end) if ws[k] in v.order_words), end)
        order = _order_text(c, f, order_at, nxt)
        exclude = set(range(order_at, len(ws)))
        for k in range(nxt, len(ws)):  # « … ESCOUADE Arya, pas ESCOUADE Bran »: the wrong one is prose
            if ws[k] in v.order_words and k > 0 and ws[k - 1] in ("pas", "not"):
                exclude.update(range(k - 1, min(k + 3, len(ws))))
    elif (written := _after_colon(c, f)) is not None:
        order, exclude = written
    hits = players(c, f, exclude=exclude)
    take_player(c, f, "player", hits)
    if order is None:
        f.refuse("quel ordre corrigé ? Écrivez-le après deux-points : « Corrige le tour 3 pour Arya : ESCOUADE "
                 "Bronn »", "which corrected order? After a colon: 'Correct turn 3 for Arya: ESCOUADE Bronn'",
                 missing=("order",))
    else:
        f.slots["order"] = order
    if v.open_turn is not None and number == v.open_turn and f.why is None:
        f.command = "FOR"  # correcting the open step's order is giving it
        return f.reading()
    if number > v.last_turn:
        fr, en = steps(v)
        f.refuse(f"{fr.the} {number} n'est pas résolu{fr.e} : on corrige {fr.a} résolu{fr.e} (le dernier : "
                 f"{fr.the} {v.last_turn}), ou l'on donne l'ordre {fr.of} en cours par POUR",
                 f"{en.noun} {number} is not resolved: correct a resolved {en.noun} (the last is {v.last_turn}), or "
                 f"give the open {en.noun}'s order with FOR")
    f.slots["step"] = number
    return f.reading()


def rerun(c: Clause) -> Reading:
    v = c.view
    f = Fill(c, "RERUN")
    ws = c.ws
    step = step_of(c.words, v.open_turn, v.last_turn)
    number = v.last_turn if step is None else step.number
    if step is not None:
        f.use(step.i, step.j)
    publish = any(w in L.PUBLISH and w not in ("correction", "publiera") for w in ws[c.head.j:]) or (
        c.head.trigger.pattern.startswith("republi")) or "+" in ws and "publication" in ws
    if has_any(ws, L.NO_SEND):
        publish = False
    for k, w in enumerate(ws):
        if w in L.PUBLISH:
            f.use(k, k + 1)
    f.slots.update(step=number, publish=publish)
    if c.head.trigger.guess:
        f.guess("intent")
    if v.open_turn is not None and number == v.open_turn:
        return Reading("ask", "PREVIEW", {}, c.text, guessed=("intent",),
                       why=Msg("pas encore résolu : son aperçu", "not resolved yet: its preview"))
    if number > v.last_turn or number < 1:
        fr, en = steps(v)
        f.refuse(f"{fr.the} {number} n'est pas résolu{fr.e} (le dernier : {fr.the} {v.last_turn})",
                 f"{en.noun} {number} is not resolved (the last is {en.noun} {v.last_turn})")
    elif publish and number != v.last_turn:
        fr, en = steps(v)
        f.refuse(f"on ne peut republier que {fr.the} {v.last_turn}, résolu{fr.e} en dernier",
                 f"only the last resolved {en.noun} ({v.last_turn}) can be published again")
    return f.reading()



def approve(c: Clause) -> Reading:
    v = c.view
    f = Fill(c, "APPROVE")
    step = step_of(c.words, v.open_turn, v.last_turn)
    if v.held is None:
        f.refuse("aucun résultat n'attend votre approbation", "no results wait for your approval")
        return f.reading()
    if step is not None:
        f.use(step.i, step.j)
        if step.number != v.held:
            fr, _en = steps(v)
            f.refuse(f"les résultats en attente sont ceux {fr.of} {v.held}, pas {fr.of} {step.number}",
                     f"the results waiting are those of {_en.noun} {v.held}, not {step.number}")
    f.slots["step"] = v.held
    if c.head.trigger.guess and not any(w in ("envoie", "envoyer", "publie", "publier", "go") for w in c.ws):
        f.guess("intent")
    return f.reading()


def chronicle(c: Clause) -> Reading:
    f = Fill(c, "CHRONICLE")
    text = quoted(c.line[c.words[c.head.i].start:]) if c.words else None
    if text is None:
        colon = c.line.find(":", c.words[c.head.i].end if c.words else 0)
        rest = c.line[colon + 1:].strip() if colon >= 0 else ""
        text = rest or None
    if text:
        f.slots["text"] = text
        f.use(c.head.i, len(c.words))
    return f.reading()



# --- the answers to a game's requests (1626 tests) --------------------------------------------------------

TEENS = {"dix sept": 17, "dix huit": 18, "dix neuf": 19}


def _test(c: Clause, f: Fill) -> int | None:
    """The request an answer is for: « n° 3 », « test 3 », « le 4 », the player's one request, a talent."""
    v = c.view
    reqs = v.requests or ()
    ws = c.ws
    numbers = {r.number for r in reqs}
    for k, w in enumerate(ws):
        if w.isdigit() and k > 0 and (ws[k - 1] in L.REQUEST_REFS | {"le", "#"} or (
                k == c.head.j and c.head.command != "SR")):
            f.use(k - 1, k + 1)
            n = when.read_number(w)
            if n not in numbers:
                f.refuse(f"pas de demande n° {n} en attente", f"no request no. {n} waiting",
                         candidates=())
                f.test_candidates = tuple(sorted(numbers))
                return None
            return n
    hits = [h for h in c.ctx.roster.scan(c.words) if h.name]
    for h in hits:
        mine = [r for r in reqs if r.player == h.name]
        f.use(h.i, h.j)
        if len(mine) == 1:
            return mine[0].number
        f.refuse(f"{h.name} n'a pas de demande en attente" if not mine else f"{h.name} a plusieurs demandes en attente",
                 f"{h.name} has no request waiting" if not mine else f"{h.name} has several requests waiting")
        f.test_candidates = tuple(sorted(numbers))
        return None
    for k in slot_words(c, f):
        name, _ = c.ctx.roster.loose(c.words[k])
        mine = [r for r in reqs if r.player == name]
        if name is not None and len(mine) == 1:
            f.use(k, k + 1)
            f.guess("test")
            return mine[0].number
    for r in reqs:  # a talent or a characteristic named (« le test de vigilance »)
        label = {w.lower() for w in r.label.replace("/", " ").split()}
        if any(w in label for w in ws if len(w) > 3):
            return r.number
    thread = v.thread
    if thread is not None and len(thread.requests) == 1:
        return thread.requests[0]
    if len(reqs) == 1:
        return reqs[0].number
    f.refuse("quelle demande ? " + ", ".join(f"n° {r.number} ({r.player})" for r in reqs),
             "which request? " + ", ".join(f"no. {r.number} ({r.player})" for r in reqs))
    f.test_candidates = tuple(sorted(numbers))
    return None


def _value(ws: Sequence[str], after: int) -> tuple[int | None, int]:
    for k in range(after, min(after + 5, len(ws))):
        pair = " ".join(ws[k:k + 2])
        if pair in TEENS:
            return TEENS[pair], k
        if ws[k].isdigit() and not (k > 0 and ws[k - 1] in L.REQUEST_REFS):
            return when.read_number(ws[k]), k
        if ws[k] in when.NUMBER_WORDS and ws[k] not in ("un", "une", "a", "an", "one"):
            return when.NUMBER_WORDS[ws[k]], k
    return None, -1


def answer(c: Clause) -> Reading:
    """SR, ROLL or REFUSE_TEST: the MJ's answer to a pending request."""
    command = c.head.command
    f = Fill(c, command)
    ws = c.ws
    if command == "SR":
        value, k = _value(ws, c.head.j)
        if value is None:
            value, k = next(((when.read_number(w), i) for i, w in enumerate(ws) if w.isdigit() and not (
                i > 0 and ws[i - 1] in L.REQUEST_REFS)), (None, -1))
        if value is None:
            f.refuse("quel SR ? « SR 15 n° 3 »", "which SR? 'SR 15 no. 3'", missing=("value",))
        else:
            f.use(k, k + 1)
            f.slots["value"] = value
    test = _test(c, f)
    if test is not None:
        f.slots["test"] = test
    if command == "SR":
        f.slots["secret"] = any(w in L.SECRET for w in ws)
    return f.reading()


