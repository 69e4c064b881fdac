"""JSON Schema checks of user files, turned into located Problems (all of them, not the first)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.engine.problems import Problem


def schemas_dir() -> Path:
    """The JSON Schemas of every file a user writes or reads (see `pbem.resources`)."""
    from pbem.resources import data_dir

    return data_dir("schemas")


@lru_cache(maxsize=None)
def _validator(name: str) -> Any:
    import jsonschema

    schema = json.loads((schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    # The schemas themselves are checked against their meta-schema by the test suite, not on every
    # start: that check alone cost a third of a second.
    return cls(schema)


def _describe(error: Any) -> tuple[str, str]:
    """A plain-English message and hint for one jsonschema error."""
    validator = error.validator
    if validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed)) if isinstance(error.instance, dict) else []
        name = extra[0] if extra else "?"
        import difflib

        close = difflib.get_close_matches(str(name), allowed, n=1)
        hint = f"did you mean {close[0]!r}?" if close else ("allowed keys: " + ", ".join(allowed) if allowed else "")
        return f"unknown key {name!r}", hint
    if validator == "required":
        return error.message.replace("is a required property", "is missing"), "add it"
    if validator == "type":
        return f"{error.instance!r} should be of type {error.validator_value}", ""
    if validator == "oneOf":
        return f"{error.instance!r} has the wrong form", (error.schema.get("description") or "")
    if validator == "enum":
        return f"{error.instance!r} is not allowed", "one of: " + ", ".join(map(str, error.validator_value))
    if validator == "minimum":
        return f"{error.instance!r} is below the minimum {error.validator_value}", ""
    return error.message, ""


def check(name: str, data: Any) -> list[Problem]:
    """Validate `data` against schemas/<name>.schema.json."""
    problems = []
    for error in sorted(_validator(name).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = set(error.schema.get("properties", {}))
            for key in sorted(set(error.instance) - allowed):
                message, hint = _describe(error)
                message = f"unknown key {key!r}"
                problems.append(Problem("invalid", message, rule=f"{name} file format", hint=hint, path=(*path, key), code="schema.unknown-key"))
            continue
        message, hint = _describe(error)
        problems.append(Problem("invalid", message, rule=f"{name} file format", hint=hint, path=path, code=f"schema.{error.validator}"))
    return problems
