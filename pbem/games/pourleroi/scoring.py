"""The final count: majorities per ministry, offices, points and the winner.

« Après la dernière enchère, additionnez vos valeurs de cartes dans chaque ministère. Le premier gagne
la fonction primaire et le second la fonction secondaire lorsqu'elle existe. Les lettres des cartes
départagent les égalités de soutien dans une couleur. On additionne ensuite les points de fonctions,
pas les valeurs imprimées de toutes ses cartes. Le plus grand total gagne ; l'Or encore en main
intervient seulement pour départager une égalité finale, avant les critères successifs détaillés
dans le livret. »

Rulings: only a player with at least one card of a ministry competes for its offices; a secondary
office worth 0 is not awarded (« aucun jeton secondaire n'est placé »); after the Gold (its total
value), ties are broken by the number of primary offices, then by the number of offices, then the
victory is shared.
"""

from __future__ import annotations

from pbem.games.pourleroi.cards import letter_of, ministry_of
from pbem.games.pourleroi.state import FinalResult, Standing, State, secondary_value


def standing(state: State, ministry: str) -> Standing:
    totals: dict[str, int] = {}
    letters: dict[str, str] = {}
    for p in state.seats:
        mine = [c for c in state.hands[p] if c in state.material.government and ministry_of(c) == ministry]
        if mine:
            totals[p] = sum(state.material.government[c] for c in mine)
            letters[p] = min(letter_of(c) for c in mine)
    # « celui qui possède dans cette couleur la lettre A, ou la lettre la plus proche de A » wins a tie
    ranking = tuple(sorted(totals, key=lambda p: (-totals[p], letters[p])))
    value = state.offices[ministry]
    second_value = secondary_value(value) if state.secondary else 0
    primary = ranking[0] if ranking else None
    secondary = ranking[1] if len(ranking) > 1 and second_value > 0 else None
    return Standing(ministry, value, second_value, totals, letters, ranking, primary, secondary)


def final_result(state: State) -> FinalResult:
    standings = tuple(standing(state, m) for m in state.ministries)
    points = dict.fromkeys(state.seats, 0)
    primaries = dict.fromkeys(state.seats, 0)
    offices = dict.fromkeys(state.seats, 0)
    for s in standings:
        if s.primary is not None:
            points[s.primary] += s.primary_value
            primaries[s.primary] += 1
            offices[s.primary] += 1
        if s.secondary is not None:
            points[s.secondary] += s.secondary_value
            offices[s.secondary] += 1
    gold = {p: state.gold_total(p) for p in state.seats}
    criteria = [("points", points), ("gold", gold), ("primaries", primaries), ("offices", offices)]
    ranking = tuple(sorted(state.seats, key=lambda p: tuple(-c[p] for _, c in criteria)))
    best = tuple(c[ranking[0]] for _, c in criteria)
    winners = tuple(p for p in ranking if tuple(c[p] for _, c in criteria) == best)
    decided_by = "shared"
    if len(winners) == 1 and len(ranking) > 1:
        runner = ranking[1]
        decided_by = next(name for name, c in criteria if c[runner] != c[winners[0]])
    return FinalResult(standings, points, gold, primaries, offices, ranking, winners, decided_by)
