"""English for messages and reports: plurals of unit names and possessives of powers.

Kept in the engine (which imports nothing but the standard library) so that rule messages and
reports read the same: "has 0 tanks", "2 industrial complexes", "the United States' turn"."""

from __future__ import annotations

from collections.abc import Mapping

_UNCOUNTABLE = ("infantry", "artillery", "aircraft", "armor", "armour")  # Europe: "two armor"


def plural(word: str, count: int = 2) -> str:
    """English plural of a unit or noun ("2 tanks", "3 infantry", "2 industrial complexes")."""
    if count == 1 or word.endswith(_UNCOUNTABLE):
        return word
    if word == "die":
        return "dice"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def count_of(count: int, word: str) -> str:
    """ "1 hit", "2 hits", "0 tanks"."""
    return f"{count} {plural(word, count)}"


def units_text(units: Mapping[str, int]) -> str:
    """A unit-count map as "3 infantry, 2 tanks" in the order given."""
    return ", ".join(count_of(n, t) for t, n in units.items())


def possessive(name: str) -> str:
    """Germany's, but the United States': as English writes it."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def article(noun: str) -> str:
    """'an air base', 'a minor factory'."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun
