"""Order lines -> `Order`s, with the role and situation checks (what AIDE lists)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pbem.core import MJ, Msg, Order, OrderHelp
from pbem.games.pmb import roles as R
from pbem.games.pmb.options import option
from pbem.games.pmb.state import Player, State
from pbem.grammar import empty_line, refused, syntax
from pbem.names import fold, match_keyword, take_name, words

ESCOUADE = "ESCOUADE"
ENQUETE = "ENQUETE"
TEMOINS = "TEMOINS"
POTION = "POTION"
PROTECTION = "PROTECTION"
ARRESTATION = "ARRESTATION"
CIBLE = "CIBLE"
VERDICT = "VERDICT"
DEFAULT_VERDICT = "defaut"
"""Third argument of the VERDICT that `default_orders` gives a silent Lord Commandant."""
DECOUVRIR = "DECOUVRIR"
GARDE = "GARDE"
NOMMER = "NOMMER"
AFFECTER = "AFFECTER"
TRAHIR = "TRAHIR"
RALLIER = "RALLIER"
SORTIR = "SORTIR"
PROMOUVOIR = "PROMOUVOIR"

VERBS: dict[str, str] = {
    "escouade": ESCOUADE, "squad": ESCOUADE, "assassiner": ESCOUADE, "attack": ESCOUADE, "assassinate": ESCOUADE,
    "kill": ESCOUADE,
    "enquete": ENQUETE, "investigate": ENQUETE, "enquire": ENQUETE, "inquire": ENQUETE,
    "temoins": TEMOINS, "witnesses": TEMOINS, "witness": TEMOINS,
    "potion": POTION,
    "protection": PROTECTION, "proteger": PROTECTION, "protect": PROTECTION, "defend": PROTECTION,
    "arrestation": ARRESTATION, "arreter": ARRESTATION, "arrest": ARRESTATION,
    "cible": CIBLE, "target": CIBLE,
    "verdict": VERDICT, "judge": VERDICT,
    "decouvrir": DECOUVRIR, "discover": DECOUVRIR, "scan": DECOUVRIR, "uncover": DECOUVRIR,
    "garde": GARDE, "bodyguard": GARDE, "guard": GARDE,
    "nommer": NOMMER, "appoint": NOMMER, "nominate": NOMMER,
    "affecter": AFFECTER, "assign": AFFECTER,
    "trahir": TRAHIR, "betray": TRAHIR,
    "rallier": RALLIER, "rally": RALLIER,
    "sortir": SORTIR, "emerge": SORTIR, "surface": SORTIR,
    "promouvoir": PROMOUVOIR, "promote": PROMOUVOIR,
}
POTION_WORDS: dict[str, str] = {
    "poison": R.POISON, "confusion": R.CONFUSION, "revelation": R.REVELATION, "puissance": R.PUISSANCE,
    "power": R.PUISSANCE, "vigilance": R.VIGILANCE,
}
VERDICT_WORDS: dict[str, str] = {"mort": "MORT", "death": "MORT", "execution": "MORT", "execute": "MORT",
                                 "libere": "LIBERE", "liberer": "LIBERE", "release": "LIBERE", "relache": "LIBERE",
                                 "free": "LIBERE", "spare": "LIBERE"}
ENGLISH: dict[str, tuple[str, ...]] = {
    ESCOUADE: ("SQUAD", "ATTACK", "KILL"), ENQUETE: ("INVESTIGATE",), TEMOINS: ("WITNESSES",),
    PROTECTION: ("PROTECT",), ARRESTATION: ("ARREST",), CIBLE: ("TARGET",), VERDICT: ("JUDGE",),
    DECOUVRIR: ("DISCOVER", "SCAN"), GARDE: ("BODYGUARD", "GUARD"), NOMMER: ("APPOINT",), AFFECTER: ("ASSIGN",),
    TRAHIR: ("BETRAY",), RALLIER: ("RALLY",), SORTIR: ("EMERGE",), PROMOUVOIR: ("PROMOTE",),
}
"""The English words of each order, listed in AIDE/HELP (`VERBS` understands them all)."""

WISHES: dict[str, str] = {
    **dict.fromkeys(("tuer", "assassiner", "eliminer", "abattre", "kill", "murder", "assassinate", "eliminate"),
                    ESCOUADE),
    **dict.fromkeys(("enqueter", "investigate"), ENQUETE),
    **dict.fromkeys(("arreter", "arrest"), ARRESTATION),
}
"""The verbs of a player's wish that mean an order on a player, as an MJ writes it (« Arya veut tuer Sansa »:
ESCOUADE Sansa, the squad being how the rules kill; « enquêter sur » a player is the Conseil's ENQUETE, « arrêter »
him the Garde's ARRESTATION), for `Ruleset.wish_words`."""

HELP: dict[str, OrderHelp] = {
    ESCOUADE: OrderHelp("ESCOUADE <cible>", Msg("rejoindre l'escouade de votre camp contre cette cible (une par tour)",
                                                 "join your camp's squad against this target (one per turn)")),
    ENQUETE: OrderHelp("ENQUETE <joueur>", Msg("apprendre le rôle et l'affiliation d'un joueur", "learn a player's role and affiliation")),
    TEMOINS: OrderHelp("TEMOINS <cible>", Msg("apprendre la composition d'une escouade qui a visé cette cible ce tour",
                                              "learn the members of a squad that targeted this player this turn")),
    POTION: OrderHelp("POTION <poison|confusion|revelation|puissance|vigilance> <patient> [ESCOUADE <cible>]",
                      Msg("administrer une potion à un patient de l'infirmerie (confusion : ses ordres remplacés par les vôtres)",
                          "give a potion to an infirmary patient (confusion: your orders replace theirs)")),
    PROTECTION: OrderHelp("PROTECTION [<joueur>]", Msg("participer à la mission de protection (le Lord Commandant désigne le protégé)",
                                                       "take part in the protection (the Lord Commandant names who)")),
    ARRESTATION: OrderHelp("ARRESTATION [<joueur>]", Msg("participer à l'arrestation (le Lord Commandant désigne le suspect)",
                                                         "take part in the arrest (the Lord Commandant names the suspect)")),
    CIBLE: OrderHelp("CIBLE <joueur>", Msg("désigner aux fidèles leur cible du tour suivant", "name the fidèles' target for next turn")),
    VERDICT: OrderHelp("VERDICT <prisonnier> MORT|LIBERE", Msg("condamner à mort ou relâcher à Culpucier",
                                                                "execute (MORT, or DEATH), or release to Culpucier (LIBERE, or RELEASE)")),
    DECOUVRIR: OrderHelp("DECOUVRIR <joueur>", Msg("découvrir le rôle d'un adversaire", "discover an opponent's role")),
    GARDE: OrderHelp("GARDE <homme de main>", Msg("se faire protéger par un Homme de Main (ni l'un ni l'autre en escouade)",
                                                 "be guarded by an Homme de Main (neither in a squad)")),
    NOMMER: OrderHelp("NOMMER <homme de main> SERGENT", Msg("nommer un nouveau sergent", "appoint a new sergent")),
    AFFECTER: OrderHelp("AFFECTER <homme de main> <sergent>", Msg("affecter un nouvel Homme de Main à un sergent", "assign a new Homme de Main to a sergent")),
    TRAHIR: OrderHelp("TRAHIR", Msg("livrer votre chef aux loyalistes", "betray your chef to the loyalists")),
    RALLIER: OrderHelp("RALLIER <joueur>", Msg("rejoindre le clan de ce joueur rebelle", "join this rebel's clan")),
    SORTIR: OrderHelp("SORTIR", Msg("sortir de votre cachette à Culpucier et retrouver vos pouvoirs", "leave your hiding place and regain your powers")),
    PROMOUVOIR: OrderHelp("PROMOUVOIR <recrue>", Msg("valider la promotion d'une recrue dans la Garde Royale", "promote a recruit into the Garde Royale")),
}


HELP = {verb: replace(h, aliases=ENGLISH.get(verb, ())) for verb, h in HELP.items()}


def lannister_standing(st: State) -> bool:
    return R.LANNISTER not in st.defeated


def is_traitor_now(st: State, name: str) -> bool:
    return any(b.sergent == name and b.turn == st.turn - 1 for b in st.betrayals)


def fidele_targets(st: State) -> list[str] | None:
    """Whom the fidèles may attack this turn: None when anyone (option ``fidele_squads = "libre"``);
    else the target the Lord Commandant named last turn and the chef a sergent betrayed last
    turn (« le Lord Commandant peut désigner une cible à assassiner par tour »)."""
    if option(st.options, "fidele_squads") == "libre":
        return None
    out = [st.fidele_target] if st.fidele_target is not None else []
    out += [b.chef for b in st.betrayals if b.turn == st.turn - 1 and b.chef not in out]
    return [n for n in out if st.players[n].alive]


def out_on_verdict(st: State, p: Player) -> bool:
    """A prisoner awaiting the verdict who plays this turn (option ``prison_turns = 1``): his
    orders count if he is released, and squads may go for him."""
    if p.location != R.CACHOTS or option(st.options, "prison_turns") != 1:
        return False
    pr = st.prisoner(p.name)
    return pr is not None and pr.awaiting_verdict


def _cache(st: State) -> dict[str, Any]:
    """Per-state lookup tables (not a dataclass field: never serialised; a resolved turn makes a new state)."""
    cache: dict[str, Any] | None = st.__dict__.get("_pmb_cache")
    if cache is None:
        cache = {}
        st.__dict__["_pmb_cache"] = cache
    return cache


def name_index(st: State) -> dict[str, str]:
    """Folded name -> player name, built once per state."""
    cache = _cache(st)
    if "names" not in cache:
        cache["names"] = {fold(n): n for n in st.order}
    names: dict[str, str] = cache["names"]
    return names


def sergent_counts(st: State) -> dict[str, tuple[int, int]]:
    """Team -> (living sergents, living original sergents), built once per state."""
    cache = _cache(st)
    if "sergents" not in cache:
        counts: dict[str, tuple[int, int]] = {}
        for q in st.players.values():
            if q.alive and q.rank == R.SERGENT:
                total, orig = counts.get(q.team, (0, 0))
                counts[q.team] = (total + 1, orig + int(q.original))
        cache["sergents"] = counts
    found: dict[str, tuple[int, int]] = cache["sergents"]
    return found


def roster_facts(st: State) -> tuple[frozenset[str], bool, int]:
    """(teams with a living Homme de Main awaiting his sergent, any living recruit, living Gardes),
    built once per state: the chef's and the Lord Commandant's order lines do not each scan the roster."""
    cache = _cache(st)
    if "roster" not in cache:
        loose: set[str] = set()
        recruit = False
        gardes = 0
        for q in st.players.values():
            if q.alive:
                if q.rank == R.HM and q.sergent is None:
                    loose.add(q.team)
                recruit = recruit or q.recruit
                gardes += q.rank in R.GARDES
        cache["roster"] = (frozenset(loose), recruit, gardes)
    facts: tuple[frozenset[str], bool, int] = cache["roster"]
    return facts


def can_betray(st: State, p: Player) -> bool:
    if p.team not in R.REBEL_TEAMS or p.rank != R.SERGENT or not p.original or not p.alive:
        return False
    if not lannister_standing(st):
        return False  # nobody left to give the chef to
    if any(b.team == p.team for b in st.betrayals):
        return False
    total, orig = sergent_counts(st).get(p.team, (0, 0))
    return total >= 2 and orig == 1


def allowed(st: State, name: str) -> list[str]:
    """The verbs ``name`` may use now, in AIDE order."""
    p = st.players.get(name)
    if p is None or not p.alive or st.finished or (p.location == R.CACHOTS and not out_on_verdict(st, p)):
        return []
    if p.hidden:
        return [SORTIR]
    if p.rally:
        return [RALLIER]
    out: list[str] = []
    if (p.team in R.REBEL_TEAMS or (p.rank == R.FIDELE and fidele_targets(st) != [])) and not is_traitor_now(st, name):
        out.append(ESCOUADE)
    if p.rank == R.CHUCHOTEURS:
        out.append(ENQUETE)
    if p.rank == R.ARGENTIER:
        out.append(TEMOINS)
    if p.rank == R.MESTRE and st.infirmary and len(st.potions_used) < R.MESTRE_MAX_USES:
        out.append(POTION)
    if p.rank in R.GARDES and p.location == R.DONJON and lannister_standing(st):
        out += [PROTECTION, ARRESTATION]
        if p.rank == R.LORD_COMMANDANT:
            out.append(CIBLE)
            if any(pr.awaiting_verdict for pr in st.prisoners):
                out.append(VERDICT)
            if roster_facts(st)[1]:
                out.append(PROMOUVOIR)
    if p.rank == R.CHEF:
        out += [DECOUVRIR, GARDE]
        if any(v.team == p.team for v in st.vacancies):
            out.append(NOMMER)
        if p.team in roster_facts(st)[0]:
            out.append(AFFECTER)
    if can_betray(st, p):
        out.append(TRAHIR)
    return out


def _target(st: State, tokens: list[str], *, alive: bool = True) -> tuple[str, list[str]]:
    index = name_index(st)
    for end in range(len(tokens), 0, -1):
        found = index.get(fold(" ".join(tokens[:end])))
        if found is not None:
            name, rest = found, list(tokens[end:])
            break
    else:
        name, rest = take_name(tokens, st.order)
    if alive and not st.players[name].alive:
        raise refused(f"{name} n'est plus en vie", f"{name} is dead")
    return name, rest


def _no_more(rest: list[str]) -> None:
    if rest:
        extra = " ".join(rest)
        raise syntax(f"mots en trop : « {extra} »", f"extra words: '{extra}'")


def _once(accepted: Sequence[Order], verb: str) -> None:
    if any(o.verb == verb for o in accepted):
        raise refused(f"un seul ordre {verb} par tour", f"only one {verb} order per turn")


def parse(st: State, player: str, line: str, accepted: Sequence[Order]) -> Order:
    tokens = words(line)
    if not tokens:
        raise empty_line()
    verb = match_keyword(tokens[0], VERBS, what=Msg("ordre", "order"))
    rest = tokens[1:]
    if player == MJ:
        raise refused("le MJ donne les ordres d'un joueur avec POUR <joueur> : <ordre>", "the MJ orders for a player with POUR <player>: <order>")
    p = st.players.get(player)
    if p is None:
        raise refused("vous ne jouez pas dans cette partie", "you are not playing in this game")
    ok = allowed(st, player)
    if verb not in ok:
        raise refused(*_why_not(st, p, verb))
    if verb == ESCOUADE:
        _once(accepted, ESCOUADE)
        if any(o.verb == GARDE for o in accepted):
            raise refused("un chef protégé par un garde du corps ne part pas en escouade", "a guarded chef does not join a squad")
        target, rest = _target(st, rest)
        _no_more(rest)
        if target == player:
            raise refused("vous ne pouvez pas vous viser vous-même", "you cannot target yourself")
        if st.players[target].location == R.CACHOTS and not out_on_verdict(st, st.players[target]):
            raise refused(f"{target} est dans les cachots", f"{target} is in the cells")
        if p.rank == R.FIDELE:
            allowed_targets = fidele_targets(st)
            if allowed_targets is not None and target not in allowed_targets:
                named = " ou ".join(allowed_targets)
                named_en = " or ".join(allowed_targets)
                raise refused(f"les fidèles n'attaquent que la cible désignée par le Lord Commandant : ESCOUADE {named}",
                          f"the fidèles attack only the target the Lord Commandant named: ESCOUADE {named_en}")
        return Order(ESCOUADE, (target,), line)
    if verb in (ENQUETE, TEMOINS, DECOUVRIR, CIBLE, RALLIER, PROMOUVOIR):
        _once(accepted, verb)
        target, rest = _target(st, rest, alive=verb != TEMOINS)
        _no_more(rest)
        if verb == RALLIER and target == player:
            # any other living player is accepted: refusing a non-rebel would reveal an affiliation;
            # the resolution picks a random rebel when the choice is not one
            raise refused("choisissez un autre joueur", "choose another player")
        if verb == PROMOUVOIR:
            if not st.players[target].recruit:
                raise refused(f"{target} n'est pas une recrue", f"{target} is not a recruit")
            if roster_facts(st)[2] >= st.garde_places:
                raise refused("aucune place libre dans la Garde Royale", "no free place in the Garde Royale")
        return Order(verb, (target,), line)
    if verb in (PROTECTION, ARRESTATION):
        if not rest:
            if any(o.verb in (PROTECTION, ARRESTATION) and not o.args for o in accepted):
                raise refused("un Garde participe à une seule mission par tour", "a Garde takes part in one mission per turn")
            return Order(verb, (), line)
        if p.rank != R.LORD_COMMANDANT:
            raise refused("seul le Lord Commandant désigne la cible ; envoyez le mot seul pour participer",
                      "only the Lord Commandant names the target; send the bare word to take part")
        if any(o.verb == verb and o.args for o in accepted):
            raise refused(f"une seule désignation {verb} par tour", f"one {verb} designation per turn")
        target, rest = _target(st, rest)
        _no_more(rest)
        t = st.players[target]
        if t.location == R.CACHOTS:
            raise refused(f"{target} est dans les cachots", f"{target} is in the cells")
        if verb == PROTECTION:
            conseil = t.rank in R.CONSEIL and t.location == R.DONJON
            if t.location == R.DONJON and not conseil:
                raise refused("la Garde protège le Conseil Restreint ou un joueur de Port-Réal", "the Garde protects the Conseil or a Port-Réal player")
            if t.protected_once:
                raise refused(f"{target} a déjà bénéficié de la protection", f"{target} was already protected once")
        else:
            if t.location == R.DONJON or t.hidden:
                raise refused("on n'arrête qu'un joueur présent à Port-Réal", "only a player in Port-Réal can be arrested")
        return Order(verb, (target, "designation"), line)
    if verb == VERDICT:
        target, rest = _target(st, rest)
        pr = st.prisoner(target)
        if pr is None or not pr.awaiting_verdict:
            raise refused(f"{target} n'attend pas votre verdict", f"{target} is not awaiting your verdict")
        if any(o.verb == VERDICT and o.args[0] == target for o in accepted):
            raise refused("un seul verdict par prisonnier", "one verdict per prisoner")
        if len(rest) != 1:
            raise syntax("VERDICT <prisonnier> MORT|LIBERE", "VERDICT <prisoner> MORT|LIBERE")
        v = match_keyword(rest[0], VERDICT_WORDS, what=Msg("verdict", "verdict"))
        return Order(VERDICT, (target, v), line)
    if verb == GARDE:
        _once(accepted, GARDE)
        if any(o.verb == ESCOUADE for o in accepted):
            raise refused("un chef parti en escouade ne peut pas être protégé", "a chef in a squad cannot be guarded")
        target, rest = _target(st, rest)
        _no_more(rest)
        t = st.players[target]
        if p.knows_role(target) != R.role_code(p.team, R.HM) or t.team != p.team or t.rank != R.HM:
            raise refused(f"{target} n'est pas un de vos Hommes de Main", f"{target} is not one of your Hommes de Main")
        return Order(GARDE, (target,), line)
    if verb == NOMMER:
        target, rest = _target(st, rest)
        if rest and fold(rest[0]) in ("sergent", "sergeant"):
            rest = rest[1:]
        _no_more(rest)
        if any(o.verb == NOMMER and o.args[0] == target for o in accepted):
            raise refused(f"{target} est déjà dans vos nominations", f"{target} is already appointed")
        t = st.players[target]
        if not any(v.team == p.team and (target in v.candidates or (v.anyone and t.team == p.team and t.rank == R.HM))
                   for v in st.vacancies):
            raise refused(f"{target} ne peut pas devenir sergent", f"{target} cannot be appointed sergent")
        return Order(NOMMER, (target,), line)
    if verb == AFFECTER:
        hm, rest = _target(st, rest)
        sgt, rest = _target(st, rest)
        _no_more(rest)
        h, s = st.players[hm], st.players[sgt]
        if h.team != p.team or h.rank != R.HM or h.sergent is not None:
            raise refused(f"{hm} n'est pas un nouvel Homme de Main de votre clan", f"{hm} is not a new Homme de Main of your clan")
        if s.team != p.team or s.rank != R.SERGENT:
            raise refused(f"{sgt} n'est pas un de vos sergents", f"{sgt} is not one of your sergents")
        return Order(AFFECTER, (hm, sgt), line)
    if verb == POTION:
        _once(accepted, POTION)
        if not rest:
            raise syntax("POTION <type> <patient>", "POTION <type> <patient>")
        kind = match_keyword(rest[0], POTION_WORDS, what=Msg("potion", "potion"))
        if kind in st.potions_used:
            raise refused(f"la fiole {kind} est déjà vide", f"the {kind} vial is already empty")
        patient, rest = _target(st, rest[1:])
        if patient not in st.infirmary:
            raise refused(f"{patient} n'a pas séjourné à l'infirmerie au dernier tour", f"{patient} was not in the infirmary last turn")
        if st.players[patient].potion is not None:
            raise refused(f"{patient} a déjà reçu une potion", f"{patient} already had a potion")
        replacement = None
        if kind == R.CONFUSION and rest:
            sub = match_keyword(rest[0], VERBS, what=Msg("ordre", "order"))
            if sub != ESCOUADE:
                raise refused("sous confusion, seul un ordre ESCOUADE peut être imposé", "under confusion only an ESCOUADE order can be imposed")
            replacement, rest = _target(st, rest[1:])
            if replacement == patient:
                raise refused("le patient ne peut pas se viser lui-même", "the patient cannot target himself")
        _no_more(rest)
        return Order(POTION, (kind, patient, replacement), line)
    if verb in (TRAHIR, SORTIR):
        _once(accepted, verb)
        _no_more(rest)
        return Order(verb, (), line)
    raise syntax("ordre inconnu", "unknown order")  # pragma: no cover


def _why_not(st: State, p: Player, verb: str) -> tuple[str, str]:
    if not p.alive:
        return ("vous n'êtes plus en vie", "you are dead")
    if p.location == R.CACHOTS:
        return ("vous êtes dans les cachots", "you are in the cells")
    if p.hidden:
        return ("vous vous cachez : seul SORTIR est possible", "you are hiding: only SORTIR is possible")
    if p.rally:
        return ("vous devez d'abord RALLIER un rebelle", "you must first RALLIER a rebel")
    if verb == ESCOUADE and is_traitor_now(st, p.name):
        return ("vous rejoignez d'office l'escouade contre votre chef", "you join the squad against your chef automatically")
    if verb == ESCOUADE and p.rank == R.FIDELE and fidele_targets(st) == []:
        return ("les fidèles n'attaquent que sur l'ordre du Lord Commandant, et il n'a désigné aucune cible ce tour",
                "the fidèles attack only on the Lord Commandant's order, and he named no target this turn")
    if verb == TRAHIR and p.rank == R.SERGENT and not lannister_standing(st):
        return ("les loyalistes sont défaits : il n'y a plus personne à qui livrer votre chef",
                "the loyalists are defeated: there is nobody left to betray your chef to")
    return (f"l'ordre {verb} n'est pas permis à votre rôle maintenant", f"the order {verb} is not allowed to your role now")


def help_for(st: State, name: str) -> list[OrderHelp]:
    return [HELP[v] for v in allowed(st, name)]
