"""Short unit names: the ones the map draws on its stacks, which orders must accept too.

A player who reads "2 tnk" on the board and writes `units: 2 tnk` should be understood; so the
map's abbreviations live here, once, and both the map and the orders reader use them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

# Short unit names, keyed by the names a ruleset or TripleA uses.
ABBREVIATIONS: Mapping[str, str] = {
    "infantry": "inf",
    "artillery": "art",
    "tank": "tnk",
    "armour": "tnk",
    "armor": "tnk",
    "mech_infantry": "mech",
    "mechanized infantry": "mech",
    "antiaircraft artillery": "aa",
    "aagun": "aa",
    "aa gun": "aa",
    "antiaircraft gun": "aa",
    "industrial complex": "ic",
    "factory": "ic",
    "fighter": "ftr",
    "tactical bomber": "tac",
    "bomber": "bmb",
    "transport": "trn",
    "submarine": "sub",
    "destroyer": "dd",
    "cruiser": "ca",
    "aircraft carrier": "cv",
    "carrier": "cv",
    "battleship": "bb",
}


def abbreviation(unit: str) -> str:
    """The short name of a unit: ours for the names above, else its first three letters."""
    key = unit.strip().lower().replace("_", " ")
    return ABBREVIATIONS.get(key) or ABBREVIATIONS.get(key.replace(" ", "")) or key.replace(" ", "")[:3]


def unique_abbreviations(units: Iterable[str]) -> dict[str, str]:
    """Unit -> its short name, for the short names that belong to one unit only (an abbreviation
    two units share would be a guess, so neither gets it)."""
    names = list(units)
    shorts = {u: abbreviation(u) for u in names}
    taken = [s for s in shorts.values()]
    return {u: s for u, s in shorts.items() if taken.count(s) == 1 and s.lower() != u.lower()}
