"""JSON Schema checks of user files, turned into located Problems (all of them, not the first)."""

from __future__ import annotations

import json
import re
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


#: keys players write for a key of another name (other games' and programs' words for it)
KEY_SYNONYMS = {
    "research": "develop", "tech": "develop", "technology": "develop", "buy": "purchase", "purchases": "purchase",
    "moves": "combat_move", "combat": "combat_move", "combat_moves": "combat_move", "attacks": "combat_move",
    "noncombat": "noncombat_move", "noncombat_moves": "noncombat_move", "non_combat_move": "noncombat_move",
    "mobilize": "place", "placement": "place", "placements": "place", "deploy": "place",
    "directives": "battles", "order_of_losses": "order_of_loss", "ool": "order_of_loss",
}

_TYPE_WORDS = {"array": "a list", "object": "a mapping (key: value)", "integer": "a whole number",
               "string": "text", "number": "a number", "boolean": "true or false", "null": "nothing"}


def _type_words(expected: Any) -> str:
    kinds = expected if isinstance(expected, list) else [expected]
    words = [_TYPE_WORDS.get(str(k), str(k)) for k in kinds]
    return " or ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " or " + words[-1]


def _where(error: Any, whole: str = "the file") -> str:
    """What a player calls the place of an error: a key, or "item 3 of order_of_loss" in a list."""
    path = list(error.absolute_path)
    if not path:
        return whole
    if isinstance(path[-1], int):
        parent = next((str(p) for p in reversed(path[:-1]) if not isinstance(p, int)), "the list")
        return f"item {path[-1] + 1} of {parent}"
    return str(path[-1])


def _describe_type(error: Any, expected: Any = None) -> tuple[str, str]:
    """A wrong type, said the way a player would understand it, with what to write instead
    (`expected`: the types, when not the error's own, as for the plain forms of a oneOf)."""
    expected = error.validator_value if expected is None else expected
    value = error.instance
    where = _where(error)
    kinds = expected if isinstance(expected, list) else [expected]
    if value is None:
        if error.absolute_path and isinstance(error.absolute_path[-1], int):  # "- " with nothing after it
            return f"{where} is empty", f"write {_type_words(expected)} there, or delete the line"
        empty = "[]" if "array" in kinds else "{}" if "object" in kinds else None
        return (f"{where} has no value",
                f"write {where}: {empty} for none, or leave the key out" if empty else f"give {where} {_type_words(expected)}")
    if isinstance(value, str) and "integer" in kinds and value.strip().isdigit():
        return f"{value!r} is text, not a number", f"write {value.strip()} without quotes"
    shown = _as_written(value)
    if isinstance(value, dict) and "integer" in kinds and list(error.absolute_path)[:1] == ["purchase"]:
        return (f"{where} is {shown}, which is not {_type_words(expected)}",
                f"write a number there ({where}: 2); a mapping under a name buys per country, which only a power of several countries does")
    if isinstance(value, list) and "object" in kinds and list(error.absolute_path) == ["develop"]:
        return (f"{where} is a list; one development is researched a turn",
                "write develop: {development: Rockets, dice: 2} - \"You can choose only one development each turn\"")
    # what the schema says the key holds, where it says so, is the best hint there is
    return f"{where} is {shown}, which is not {_type_words(expected)}", str(error.schema.get("description") or "")


def _describe(error: Any) -> tuple[str, str]:
    """A plain-English message and hint for one jsonschema error."""
    validator = error.validator
    if validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed)) if isinstance(error.instance, dict) else []
        name = extra[0] if extra else "?"
        return f"unknown key {name!r}", _key_hint(str(name), allowed)
    if validator == "required":
        return error.message.replace("is a required property", "is missing"), "add it"
    if validator == "type":
        return _describe_type(error)
    shown = _as_written(error.instance)
    if validator == "oneOf":
        forms = [f.get("type") for f in error.validator_value] if isinstance(error.validator_value, list) else []
        failed = {e.relative_schema_path[0] for e in error.context if e.validator == "type" and e.relative_schema_path}
        if forms and all(isinstance(t, str) for t in forms) and failed == set(range(len(forms))):
            # alternatives of plain types, none of them met: say which they are
            message, hint = _describe_type(error, forms)
            return message, hint or (error.schema.get("description") or "")
        return f"{shown} has the wrong form", (error.schema.get("description") or "")
    if validator == "enum":
        return f"{shown} is not allowed", "one of: " + ", ".join(dict.fromkeys(map(str, error.validator_value)))  # 1 and "1" once
    if validator == "minimum":
        where = _where(error, "the value")
        return f"{where} is {shown}, below the least allowed, {error.validator_value}", f"write {error.validator_value} or more"
    return error.message, ""


def _as_written(value: Any) -> str:
    """A value as the user wrote it in YAML (true, not Python's True; null, not None; {a: 1}, not
    {'a': 1}), cut short."""
    def flow(v: Any) -> str:
        if isinstance(v, (bool, type(None))):
            return {True: "true", False: "false", None: "null"}[v]
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k}: {flow(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(flow(x) for x in v) + "]"
        return repr(v) if isinstance(v, str) else str(v)

    text = flow(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _named_form(error: Any) -> list[Any] | None:
    """The errors of the oneOf form whose keys the value uses ({units: ..., complex: ...} is the
    form with those keys, not a map of units with a unit named 'units'), or None."""
    if isinstance(error.instance, dict) and isinstance(error.validator_value, list):
        for k, form in enumerate(error.validator_value):
            if isinstance(form, dict) and set(form.get("properties", {})) & set(error.instance):
                mine = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == k]
                if mine:
                    return mine
    return None


def _descendants(errors: Any) -> list[Any]:
    """These errors, and those of every alternative within them (forms within forms)."""
    out = []
    for e in errors:
        out.append(e)
        out.extend(_descendants(e.context or ()))
    return out


def _key_hint(name: str, allowed: list[str]) -> str:
    import difflib

    synonym = KEY_SYNONYMS.get(name.strip().lower().replace(" ", "_").replace("-", "_"))
    if synonym in allowed:
        return f"did you mean {synonym!r}?"
    if "units" in allowed and re.match(r"^\s*\d+\s+\S", name):  # {units: 1 infantry, 1 artillery, from: ...}: the comma split the list
        return f"inside {{ }}, quote a list of units (its comma otherwise starts a new key): units: \"..., {name.strip()}\""
    close = difflib.get_close_matches(name, allowed, n=1)
    if not close and "order_of_loss" in allowed and re.match(r"^[A-Za-z][A-Za-z .'-]*$", name):
        # {order_of_loss: infantry, tank}: the comma split the list
        return (f"inside {{ }}, a list goes in brackets (its comma otherwise starts a new key): order_of_loss: [..., {name.strip()}]; "
                "allowed keys: " + ", ".join(allowed))
    return f"did you mean {close[0]!r}?" if close else ("allowed keys: " + ", ".join(allowed) if allowed else "")


#: schema problems listed (the first DETAILED with suggestions); the rest are counted
DETAILED, LISTED = 40, 100


def check(name: str, data: Any) -> list[Problem]:
    """Validate `data` against schemas/<name>.schema.json; the cost stays bounded for any input."""
    problems: list[Problem] = []
    unlisted = 0
    for error in sorted(_validator(name).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        if len(problems) >= LISTED:
            unlisted += 1
            continue
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = set(error.schema.get("properties", {}))
            for key in sorted(set(error.instance) - allowed, key=str):
                if len(problems) >= LISTED:
                    unlisted += 1
                    continue
                shown = repr(key) if len(str(key)) <= 60 else repr(str(key)[:60]) + f"... ({len(str(key)):,} characters)"
                message = f"unknown key {shown}"
                hint = _key_hint(str(key), sorted(allowed)) if len(problems) < DETAILED else ""
                problems.append(Problem("invalid", message, rule=f"{name} file format", hint=hint, path=(*path, key), code="schema.unknown-key"))
            continue
        if error.validator in ("oneOf", "anyOf") and error.context:
            # of the forms the value could take, report against the one whose keys it uses, else
            # the one it came closest to (forms within forms too: a count in a placement's units)
            named = _named_form(error)
            deepest = max(_descendants(named or error.context), key=lambda e: (len(e.absolute_path), e.validator not in ("type", "oneOf", "anyOf")))
            if named or len(deepest.absolute_path) > len(path):
                error, path = deepest, tuple(deepest.absolute_path)
        message, hint = _describe(error)
        problems.append(Problem("invalid", message, rule=f"{name} file format", hint=hint, path=path, code=f"schema.{error.validator}"))
    if unlisted:
        from pbem.engine.problems import unlisted as unlisted_problem

        problems.append(unlisted_problem(unlisted, f"{name} file format"))
    return problems
