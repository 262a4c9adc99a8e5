"""The MJ's commands about time, their slots found in a clause: the deadline moved (EXTEND, EARLIER, or to a date
whose place says which), a pause and its end (PAUSE, RESUME), a player's absence (ABSENCE)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from pbem.engine import when
from pbem.engine.desk import lexicon as L
from pbem.engine.desk.clause import (
    Clause,
    Fill,
    day_of,
    deadline_hour,
    hours_value,
    moment_value,
    players,
    steps,
    take_player,
)
from pbem.engine.desk.readings import Intent, Reading
from pbem.engine.desk.slots import (
    When,
    has,
    has_any,
    lengths,
    moments,
    step_of,
    text_between,
)

# --- the commands -----------------------------------------------------------------------------------------

TIME_TRIGGERS = frozenset({"de plus", "supplementaire*", "more", "+"})


def deadline(c: Clause) -> Reading | None:
    """EXTEND, EARLIER, or a deadline moved to a date (its direction from where the date falls)."""
    v = c.view
    command = c.head.command
    f = Fill(c, "EXTEND" if command == "DEADLINE" else command)
    step = step_of(c.words, v.open_turn, v.last_turn)
    if step is not None:
        f.use(step.i, step.j)
        if v.open_turn is not None and step.number != v.open_turn:
            fr, en = steps(v)
            f.refuse(f"{fr.the} {step.number} n'est pas {fr.the} en cours (c'est {fr.the} {v.open_turn}) : seule la date limite "
                     f"{fr.of} en cours se déplace",
                     f"{en.noun} {step.number} is not the open {en.noun} ({v.open_turn}): only its deadline moves")
    aside = _aside(c.ws)
    lens = [x for x in lengths(c.words, v.step_hours) if x.i not in aside]
    skip = frozenset(k for x in lens for k in range(x.i, x.j)) | aside
    moms = [m for m in moments(c.words, v.now, v.tz, skip) if not (step and step.i <= m.i < step.j)]
    needs_length = c.head.trigger.pattern in TIME_TRIGGERS
    if needs_length and not lens:
        return None  # « de plus », « + »: no duration, no extension
    if v.deadline is None or v.open_turn is None:
        f.refuse("aucune date limite en cours", "no open deadline")
    if lens:
        x = lens[0]
        f.use(x.i, x.j)
        f.slots["by_hours"] = hours_value(x.hours)
        if x.vague:
            f.guess("by_hours")
            if x.other is not None:
                f.alternatives.append(Intent(f.command, {"by_hours": hours_value(x.other)}))
        if command == "DEADLINE":
            f.command = "EXTEND"
    elif moms:
        m = moms[0]
        f.use(m.i, m.j)
        until = moment_value(v, m, deadline_hour(v))
        assert isinstance(until, datetime)
        f.slots["until"] = until
        if m.vague:
            f.guess("until")
            if m.other is not None:
                f.alternatives.append(Intent(f.command, {"until": moment_value(v, When(m.other[0], m.other[1], 0, 0),
                                                                            deadline_hour(v))}))
            elif m.last_day is not None:
                f.slots["until"] = when.local_instant(m.last_day, m.at or deadline_hour(v), v.tz)
                f.alternatives.append(Intent(f.command, {"until": until}))
            elif m.day is not None and c.ws[m.i:m.i + 1] in (["dans"], ["in"]):
                days = (m.day - v.local_now.date()).days
                f.alternatives.append(Intent("EXTEND", {"by_hours": days * 24}))
        if v.deadline is not None:
            later = until > v.deadline
            direction = "EXTEND" if later else "EARLIER"
            if command == "DEADLINE":
                f.command = direction
            elif command != direction:
                f.command = direction
                f.guess("intent")
            elif m.day is None and command == "EARLIER":  # « clos le tour maintenant »: no resolve-now by mail
                f.guess("intent")
        for alt in f.alternatives:
            if "until" in alt.slots and v.deadline is not None:
                object.__setattr__(alt, "command", "EXTEND" if alt.slots["until"] > v.deadline else "EARLIER")
    else:
        if command == "DEADLINE":
            return None
        f.refuse("de combien, ou jusqu'à quand ? (« de 24h », « jusqu'au jeudi 13 février à 21 h »)",
                 "by how long, or until when? ('by 24 hours', 'until Thursday 13 February at 21:00')",
                 missing=("by_hours", "until"))
    return f.reading()


def _aside(ws: Sequence[str]) -> frozenset[int]:
    """The words of « au lieu de 21h », « instead of Tuesday »: what the MJ does not want."""
    for phrase in ("au lieu de", "au lieu du", "instead of", "plutot que"):
        at = has(ws, phrase)
        if at >= 0:
            k = at + len(phrase.split())
            return frozenset(range(at, min(k + 4, len(ws))))
    return frozenset()



def pause(c: Clause) -> Reading:
    v = c.view
    f = Fill(c, "PAUSE")
    span(c, f, "start", "end", "for_hours", day_only=True)
    reason = _reason(c, f)
    if reason:
        f.slots["reason"] = reason
    t = c.head.trigger
    dated = any(k in f.slots for k in ("start", "end", "for_hours")) or has_any(c.ws, ("nouvel ordre",
                                                                                    "further notice"))
    if t.guess and not dated:
        f.guess("intent")
        f.alternatives.append(Intent(t.alt or "FINISH", {}))
    elif not dated and has(c.ws, "pendant les") >= 0:  # « pendant les vacances de février »: dates not given
        f.guess("start", "end")
        f.slots.setdefault("reason", text_between(c.line, c.words[has(c.ws, "pendant les") + 2].start,
                                                  c.words[-1].end))
    _ = v
    return f.reading()


def span(c: Clause, f: Fill, start_slot: str, end_slot: str, length_slot: str | None, *, day_only: bool) -> None:
    """A period: « du 15 au 17 », « à partir de jeudi », « jusqu'au 20 », « pendant 48 h », « ce week-end »…"""
    v = c.view
    ws = c.ws
    lens = lengths(c.words, None) if length_slot else []
    skip = frozenset(k for x in lens for k in range(x.i, x.j))
    moms = moments(c.words, v.now, v.tz, skip)
    start: When | None = None
    end: When | None = None
    for m in moms:
        k = m.i - 1
        while k >= 0 and ws[k] in ("le", "la", "the", "l"):
            k -= 1
        before = ws[k] if k >= 0 else ""
        before2 = ws[k - 1] if k > 0 else ""
        if before in ("jusqu", "jusque", "until", "till", "au", "to") or (before in ("a", "le") and before2 in (
                "jusqu", "jusque")) or (before in ("au", "a") and start is not None) or (
                before in ("et", "and") and start is not None):
            end = end or m
        elif before in ("du", "de", "from", "des", "entre", "between", "starting", "partir", "dans", "in") or (
                before in ("le", "la") and before2 in ("partir",)) or before2 == "partir":
            start = start or m
        elif m.last_day is not None and start is None and end is None:
            start, end = m, m
        elif before in ("", "pause", "on", "le", "the", "demain") or start is None and end is None:
            if start is None and end is None and length_slot is None and ws[m.i - 1:m.i] != ["jusqu"]:
                start, end = m, m  # « absent demain »: that day
            elif start is None:
                start = m
            else:
                end = end or m
        f.use(m.i, m.j)
        f.use(max(m.i - 2, 0), m.i) if before2 in ("jusqu", "partir") else f.use(max(m.i - 1, 0), m.i)
    if start is not None and start is end and start.last_day is not None:
        f.slots[start_slot] = start.day
        f.slots[end_slot] = start.last_day
        f.guess(start_slot, end_slot)
        return
    if start is not None and start.day is not None and start.i == getattr(end, "i", -1) and start.last_day is None:
        f.slots[start_slot] = start.day
        f.slots[end_slot] = start.day
        if start.vague:
            f.guess(start_slot, end_slot)
        return
    if start is not None and start.day is not None:
        f.slots[start_slot] = moment_value(v, start, None) if not day_only or start.at else start.day
        if start.vague and ws[start.i:start.i + 1] not in (["dans"], ["in"]):
            f.guess(start_slot)
    if end is not None and end.day is not None:
        day = end.last_day or end.day
        f.slots[end_slot] = when.local_instant(day, end.at, v.tz) if end.at else day
        if end.vague:
            f.guess(end_slot)
    if lens and length_slot:
        x = lens[0]
        f.use(x.i, x.j)
        f.slots[length_slot] = hours_value(x.hours)
    s, e = f.slots.get(start_slot), f.slots.get(end_slot)
    if s is not None and e is not None and day_of(e) < day_of(s) and end is not None and ws[end.j:end.j + 1] in (
            ["suivant"], ["suivante"], ["after"], ["d"]):  # « jusqu'au mercredi suivant »: after the start
        while day_of(e) < day_of(s):
            e = e + timedelta(days=7)
        f.slots[end_slot] = e
        f.use(end.j, end.j + 1)
    if s is not None and e is not None and day_of(e) < day_of(s):
        f.refuse("la période finit avant de commencer", "the period ends before it begins")



def _reason(c: Clause, f: Fill) -> str:
    """A pause's reason, when it is attached to it: after a colon, « pour cause de », « Motif : », in brackets."""
    line = c.line
    lo = c.words[c.own].start if c.words else 0
    hi = c.words[-1].end if c.words else len(line)
    part = line[lo:hi + 1]
    for mark in ("pour cause de ", "pour cause d'", "motif :", "motif:", "raison :", "because of ", "reason:"):
        at = part.lower().find(mark)
        if at >= 0:
            return text_between(part, at + len(mark), len(part))
    if "(" in part and ")" in part[part.index("("):]:
        return text_between(part, part.index("(") + 1, part.index(")", part.index("(")))
    colon = part.find(":")
    if colon >= 0 and not part[:colon].rstrip()[-2:].isdigit():
        return text_between(part, colon + 1, len(part))
    return ""


def period(c: Clause) -> Reading | None:
    """A player's own absence (« je serai absent du 15 au 20 »): its dates only, as days; guessed ones are asked."""
    f = Fill(c, "ABSENCE")
    span(c, f, "start", "end", None, day_only=True)
    return f.reading()


def resume(c: Clause) -> Reading:
    v = c.view
    f = Fill(c, "RESUME")
    if not v.paused and not v.pause_planned:
        f.refuse("la partie n'est pas en pause, et aucune pause n'est prévue", "the game is not paused, and no pause "
                 "is planned")
        return f.reading()
    if c.head.trigger.pattern.startswith("annul"):  # « annule la pause de ce week-end »: which pause, not when
        return f.reading()
    moms = [m for m in moments(c.words, v.now, v.tz) if m.day is not None]
    if moms:
        m = moms[0]
        f.use(m.i, m.j)
        f.slots["at"] = moment_value(v, m, None)
        if m.vague:
            f.guess("at")
    return f.reading()



def absence(c: Clause) -> list[Reading]:
    v = c.view
    f = Fill(c, "ABSENCE")
    ws = c.ws
    hits = players(c, f)
    if any(w in L.CANCEL for w in ws):
        name = take_player(c, f, "player", hits)
        if name is not None:
            f.slots["cancel"] = True
        return [f.reading()]
    if any(w in ("peut", "maybe") for w in ws):
        return []
    names = [h for h in hits if h.name]
    span(c, f, "start", "end", None, day_only=True)
    if has(ws, "pas avant") >= 0 or has(ws, "ne pourra pas jouer avant") >= 0:
        at = has(ws, "avant")
        m = next((x for x in moments(c.words, v.now, v.tz) if x.i >= at), None)
        f.slots.pop("start", None)
        if m is not None and m.day is not None:
            f.slots["end"] = m.day - timedelta(days=1)
            f.guess("intent", "end")
    if has(ws, "a partir de") >= 0 and "start" in f.slots and "end" not in f.slots:
        lens = lengths(c.words, None)
        if lens:
            days = int(lens[0].hours // 24)
            start = f.slots["start"]
            f.slots["end"] = day_of(start) + timedelta(days=max(days - 1, 0))
            f.guess("end")
            f.use(lens[0].i, lens[0].j)
    if "end" not in f.slots:
        f.refuse("jusqu'à quand ? « ABSENCE Arya du 15 au 20 février »", "until when? 'ABSENCE Arya from 15 to 20 "
                 "February'", missing=("end",))
    if len({h.name for h in names}) > 1:
        readings = []
        for h in names:
            g = Fill(c, "ABSENCE")
            g.slots = {**f.slots, "player": h.name}
            g.guessed = list(f.guessed)
            g.why = f.why
            g.missing = f.missing
            readings.append(g.reading())
        return readings
    take_player(c, f, "player", hits)
    return [f.reading()]


