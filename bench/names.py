"""Player names for the benchmarks' rosters: as many distinct names as asked, in a stable order."""

from __future__ import annotations

from collections.abc import Sequence

FIRST = ["Aymeric", "Béatrice", "Clothilde", "Denis", "Éléonore", "François", "Gaspard", "Héloïse", "Isaure",
         "Jehan", "Léonie", "Mathurin", "Nicolas", "Odile", "Perceval", "Quentin", "Roseline", "Sébastien",
         "Thibaut", "Ursule"]
LAST = ["de Montfort", "Lebrun", "d'Aubigné", "Fournier", "de Castelnau", "Garnier", "Sauvage", "du Plessis",
        "Marchal", "Roux"]


def player_names(n: int, first: Sequence[str] = FIRST, last: Sequence[str] = LAST) -> list[str]:
    """``n`` names « first last », then « first last 2 », « … 3 » once every pair is taken."""
    names = []
    for i in range(n):
        base = f"{first[i % len(first)]} {last[(i // len(first)) % len(last)]}"
        k = i // (len(first) * len(last))
        names.append(base if k == 0 else f"{base} {k + 1}")
    return names
