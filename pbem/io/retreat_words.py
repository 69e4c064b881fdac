"""The words a battle directive's conditions are written in: one vocabulary for orders files
(`retreat: {when: ...}`, `call_off: ...`) and `pbem odds --retreat`, so that what one accepts the
other does.  Standard library only: `pbem odds` reads it without loading the orders machinery."""

from __future__ import annotations

import re

_WHO = r"(?:attackers?|we|our units|units)"
_LANDING = r"(?:landing|(?:the )?land units(?: landing)?)"
_OUTNUMBERED = (re.compile(r"^(?:when )?(?:(?:the )?defenders? outnumbers?(?: (?:us|(?:the )?attackers?))?|outnumbered)$"),
                "defenders_outnumber")
_PATTERNS = [
    (re.compile(r"^(?:never|no|none)$"), "never"),
    (re.compile(r"^(?:always|immediately|after round 0)$"), "always"),
    (re.compile(r"^after (?:round )?(\d+)(?: rounds?)?$"), "after_round"),
    (re.compile(rf"^(?:when )?{_WHO} ?(?:<=|=<|at most|fall to|are at most) ?(\d+)$"), "attackers_at_most"),
    (re.compile(rf"^(?:when )?{_WHO} ?< ?(\d+)$"), "attackers_below"),
    _OUTNUMBERED,
    # the Pacific rulebook's Amphibious Assault Example #1: "Without a land unit to take Guam, Japan
    # decides to retreat"
    (re.compile(r"^(?:when )?(?:(?:there are )?no land units?(?: (?:are )?left)?|land units? ?(?:<|fewer than) ?1|(?:the )?last land unit (?:is )?(?:lost|gone))$"),
     "no_land_units"),
]
# BattleDirective.call_off: when an amphibious landing is called off once the sea battles are over
_CALL_OFF_PATTERNS = [
    (re.compile(r"^(?:never|no|none|false)$"), "never"),
    (re.compile(r"^(?:always|yes|true)$"), "always"),
    (re.compile(rf"^(?:when )?{_LANDING} ?(?:<=|=<|at most) ?(\d+)$"), "landing_at_most"),
    (re.compile(rf"^(?:when )?{_LANDING} ?(?:<|fewer than) ?(\d+)$"), "landing_below"),
    _OUTNUMBERED,
]

VOCABULARY = "never | always | after round N | when attackers <= N | when attackers < N | when defenders outnumber us | when no land units left"
CALL_OFF_VOCABULARY = "never | always | when landing < N | when landing <= N | when defenders outnumber us"


def _read(patterns: list[tuple[re.Pattern[str], str]], text: object) -> tuple[str, int] | None:
    key = re.sub(r"\s+", " ", str(text).strip().lower())
    for pattern, kind in patterns:
        m = pattern.match(key)
        if m:
            value = int(m.group(1)) if m.groups() else 0
            if kind.endswith("_below"):  # "< N" is "<= N - 1"; "< 0" is "<= 0", which never holds while there is a battle
                return kind[: -len("below")] + "at_most", max(value - 1, 0)
            return kind, value
    return None


def read_retreat(text: object) -> tuple[str, int] | None:
    """(kind, value) of a retreat condition - kind one of never, always, after_round,
    attackers_at_most, defenders_outnumber, no_land_units - or None when the words are not understood."""
    return _read(_PATTERNS, text)


def read_call_off(text: object) -> tuple[str, int] | None:
    """(kind, value) of a call-off condition - kind one of never, always, landing_at_most,
    defenders_outnumber - or None when the words are not understood."""
    return _read(_CALL_OFF_PATTERNS, text)
