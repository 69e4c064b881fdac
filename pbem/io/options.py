"""Rule options as a game, a case or `pbem odds` gives them: checked against the ruleset's list."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def option_problem(ruleset: Any, options: Mapping[str, Any]) -> str | None:
    """Why these rule options are not the ruleset's (an unknown name, a value it does not allow), or None."""
    unknown = [o for o in options if o not in ruleset.options]
    if unknown:
        return (f"unknown rule option {unknown[0]!r}{_did_you_mean(unknown[0], ruleset.options)}; "
                f"options of {ruleset.id}: " + ", ".join(sorted(ruleset.options)))
    for name, value in options.items():
        allowed = ruleset.options[name].allowed
        # the same type too: YAML's 1 equals True in Python, yet `radar: 1` is not `radar: true` to
        # every rule that reads it, and 25.0 is no allowed 25
        if allowed and not any(type(value) is type(a) and value == a for a in allowed):
            words = [str(a).lower() if isinstance(a, bool) else str(a) for a in allowed]
            return (f"option {name} cannot be {value!r}{_did_you_mean(str(value), words)}; "
                    "allowed: " + ", ".join(words))
    return None
