"""The words a retreat condition is written in: one vocabulary for orders files (`retreat: {when:
...}`) and `pbem odds --retreat`, so that what one accepts the other does.  Standard library only:
`pbem odds` reads it without loading the orders machinery."""

from __future__ import annotations

import re

_WHO = r"(?:attackers?|we|our units|units)"
_PATTERNS = [
    (re.compile(r"^(?:never|no|none)$"), "never"),
    (re.compile(r"^(?:always|immediately|after round 0)$"), "always"),
    (re.compile(r"^after (?:round )?(\d+)(?: rounds?)?$"), "after_round"),
    (re.compile(rf"^(?:when )?{_WHO} ?(?:<=|=<|at most|fall to|are at most) ?(\d+)$"), "attackers_at_most"),
    (re.compile(rf"^(?:when )?{_WHO} ?< ?(\d+)$"), "attackers_below"),
    (re.compile(r"^(?:when )?(?:(?:the )?defenders? outnumbers?(?: (?:us|(?:the )?attackers?))?|outnumbered)$"), "defenders_outnumber"),
]

VOCABULARY = "never | always | after round N | when attackers <= N | when attackers < N | when defenders outnumber us"


def read_retreat(text: object) -> tuple[str, int] | None:
    """(kind, value) of a retreat condition - kind one of never, always, after_round,
    attackers_at_most, defenders_outnumber - or None when the words are not understood."""
    key = re.sub(r"\s+", " ", str(text).strip().lower())
    for pattern, kind in _PATTERNS:
        m = pattern.match(key)
        if m:
            if kind == "attackers_below":
                return "attackers_at_most", max(int(m.group(1)) - 1, 0)  # "< 0": never, as "<= 0" is
            return kind, int(m.group(1)) if m.groups() else 0
    return None
