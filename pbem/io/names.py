"""Forgiving names: players type "armour", "Tanks", "sz15" or "w. europe"; the engine wants one name.

Resolution is exact (after normalising case, spacing and plurals), then aliases, then a unique
prefix; anything else is an error that suggests the closest names.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

_SEA_ZONE = [
    re.compile(r"^(?:sz|sea\s*zone|seazone|s\.z\.)\s*-?\s*(\d+)$"),
    re.compile(r"^(\d+)\s*(?:sea\s*zone|sz)$"),
]


def normalise(text: str) -> str:
    """Lower case, single spaces, no dots or quotes: the key every name is compared under."""
    text = text.strip().lower().replace("_", " ").replace("’", "'")
    text = re.sub(r"[.\"]", "", text)
    return re.sub(r"\s+", " ", text)


def sea_zone_number(text: str) -> int | None:
    key = normalise(text)
    for pattern in _SEA_ZONE:
        m = pattern.match(key)
        if m:
            return int(m.group(1))
    return None


def compact(key: str) -> str:
    """Letters and digits only: "anti-aircraft gun" and "antiaircraft gun", "Anglo Egypt" and
    "Anglo-Egypt" are one name however the hyphens and spaces fall."""
    return re.sub(r"[^0-9a-z]", "", key)


def _singular(key: str) -> str:
    for suffix, repl in (("ies", "y"), ("es", ""), ("s", "")):
        if key.endswith(suffix) and len(key) > len(suffix) + 2:
            return key[: -len(suffix)] + repl
    return key


@dataclass(frozen=True)
class Resolution:
    name: str | None
    suggestions: tuple[str, ...] = ()
    ambiguous: tuple[str, ...] = ()


class NameTable:
    """One kind of name (units, spaces or powers) with its aliases."""

    def __init__(self, names: Mapping[str, Iterable[str]], *, prefixes: bool = True, sea_zones: bool = False):
        self.canonical = tuple(sorted(names))
        self._exact: dict[str, str] = {}
        self._prefixes = prefixes
        self._sea_zones = sea_zones
        compacted: dict[str, set[str]] = {}
        for name, aliases in names.items():
            for key in (name, *aliases):
                k = normalise(key)
                self._exact.setdefault(k, name)
                self._exact.setdefault(_singular(k), name)
                for c in (compact(k), compact(_singular(k))):
                    compacted.setdefault(c, set()).add(name)
        # the compact form of a key answers only when it names one thing
        self._compact = {c: next(iter(found)) for c, found in compacted.items() if len(found) == 1 and c}

    def resolve(self, text: str, *, suggest: bool = True) -> Resolution:
        """The name `text` stands for; when none, up to three look-alikes (unless `suggest` is off:
        the search is the costly part, and a caller that only asks "is it known?" needs none)."""
        key = normalise(str(text))
        if not key:
            return Resolution(None)
        if self._sea_zones:
            number = sea_zone_number(key)
            if number is not None:
                name = f"SZ {number}"
                if name in self._exact.values():
                    return Resolution(name)
                return Resolution(None, self._suggest(name) if suggest else ())
        for candidate in (key, _singular(key)):
            if candidate in self._exact:
                return Resolution(self._exact[candidate])
        for candidate in (compact(key), compact(_singular(key))):
            if candidate in self._compact:
                return Resolution(self._compact[candidate])
        if self._prefixes and len(key) >= 3:
            hits = sorted({name for k, name in self._exact.items() if k.startswith(key)})
            if len(hits) == 1:
                return Resolution(hits[0])
            if len(hits) > 1:
                return Resolution(None, ambiguous=tuple(hits[:8]))
        return Resolution(None, self._suggest(key) if suggest else ())

    def _suggest(self, key: str) -> tuple[str, ...]:
        keys = difflib.get_close_matches(normalise(key), list(self._exact), n=6, cutoff=0.6)
        seen: list[str] = []
        for k in keys:
            name = self._exact[k]
            if name not in seen:
                seen.append(name)
        return tuple(seen[:3])

    def hint(self, text: str) -> str:
        """The 'what would be right' part of an error message."""
        res = self.resolve(text)
        if res.ambiguous:
            return "it could be " + ", ".join(res.ambiguous) + "; type more of the name"
        if res.suggestions:
            return "did you mean " + " or ".join(repr(s) for s in res.suggestions) + "?"
        return ""


#: Names players use for one kind of unit whatever its rulebook calls it: a ruleset's unit known by
#: any of a group's names is known by all of them (pbem.io.orders), unless one names another unit.
#: Code, not data: adding a word here leaves every ruleset's data hash, and so every game, as it was.
UNIT_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("aa", "aaa", "aa gun", "antiaircraft gun", "antiaircraft artillery", "anti-aircraft gun",
     "anti-aircraft artillery", "flak"),
    ("bomber", "strategic bomber", "strat bomber", "bmb"),
    ("tactical bomber", "tac bomber", "tac", "tactical"),
    ("mechanized infantry", "mechanised infantry", "mech infantry", "mech inf", "mech"),
    ("tank", "armor", "armour"),
    ("aircraft carrier", "carrier", "cv"),
    ("submarine", "sub", "u-boat", "uboat"),
    ("transport", "transport ship", "troopship"),
    ("marine", "us marine", "u.s. marine"),
)


def unit_table(units: Mapping[str, Any]) -> NameTable:
    """Unit names as players write them, in orders and in `pbem odds`: each unit's name and
    aliases, the short name the map draws on unit stacks ("2 tnk"), and the UNIT_SYNONYMS words
    no other unit of the ruleset claims."""
    from collections import Counter

    from pbem.engine.unitnames import unique_abbreviations

    short = unique_abbreviations(units)
    own = {u.name: (*u.aliases, *([short[u.name]] if u.name in short else [])) for u in units.values()}
    taken = {compact(normalise(k)) for name, aliases in own.items() for k in (name, *aliases)}
    extra = {name: {compact(normalise(w)): w for w in synonyms_for((name, *aliases))} for name, aliases in own.items()}
    claims = Counter(c for words in extra.values() for c in words)
    return NameTable({name: (*aliases, *(w for c, w in extra[name].items() if c not in taken and claims[c] == 1))
                      for name, aliases in own.items()}, prefixes=False)


def synonyms_for(keys: Iterable[str]) -> tuple[str, ...]:
    """The UNIT_SYNONYMS groups' words for a unit known by `keys` (its name and aliases)."""
    mine = {compact(_singular(normalise(k))) for k in keys} | {compact(normalise(k)) for k in keys}
    out: list[str] = []
    for group in UNIT_SYNONYMS:
        if any(compact(_singular(normalise(word))) in mine for word in group):
            out.extend(group)
    return tuple(out)


def parse_unit_list(text: str) -> list[tuple[int, str]] | None:
    """'3 infantry, 1 tank' -> [(3, 'infantry'), (1, 'tank')]; a bare name counts one.

    Returns None when the text has a part that is not 'COUNT NAME' or 'NAME'.
    """
    result: list[tuple[int, str]] = []
    for part in re.split(r"[,;+]|\band\b", str(text)):
        part = part.strip()
        if not part:
            continue
        m = re.match(r"^(\d+)\s*[x×]?\s*(.+)$", part)
        if m:
            result.append((int(m.group(1)), m.group(2).strip()))
        elif re.match(r"^[A-Za-z]", part):
            result.append((1, part))
        else:
            return None
    return result
