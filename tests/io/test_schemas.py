"""Every JSON Schema we ship is itself valid (checked here once, not at every start-up)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from pbem.io.schemas import schemas_dir

SCHEMAS = sorted(schemas_dir().glob("*.schema.json"))


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_schema_is_valid(path) -> None:  # type: ignore[no-untyped-def]
    schema = json.loads(path.read_text())
    jsonschema.validators.validator_for(schema).check_schema(schema)


def test_every_user_file_has_a_schema() -> None:
    names = {p.name for p in SCHEMAS}
    for needed in ("orders", "standing", "state", "game", "report", "units", "map", "setup", "ruleset"):
        assert f"{needed}.schema.json" in names


def _said(orders: dict) -> list[tuple[tuple, str, str]]:  # type: ignore[type-arg]
    from pbem.io.schemas import check

    return [(p.path, p.message, p.hint) for p in check("orders", {"game": "g", "power": "Japan", "round": 1, **orders})]


def test_a_wrong_value_inside_a_form_is_named_where_it_stands() -> None:
    """A count below zero in a placement was "{'infantry': -1} has the wrong form": the value that
    is wrong, with its place in the file, says more than the form around it."""
    assert _said({"place": {"Japan": {"infantry": -1}}}) == [
        (("place", "Japan", "infantry"), "infantry is -1, below the least allowed, 0", "write 0 or more")]
    assert _said({"place": {"Japan": {"units": {"infantry": "x"}, "complex": "Japan"}}}) == [
        (("place", "Japan", "units", "infantry"), "infantry is 'x', which is not a whole number", "")]


def test_a_form_with_named_keys_is_checked_as_that_form() -> None:
    """{units: ..., complex: ...} is the placement naming its complex, not a map of units with a
    unit called 'units': what it lacks is the complex."""
    assert _said({"place": {"Japan": {"units": "1 infantry"}}}) == [(("place", "Japan"), "'complex' is missing", "add it")]
    assert _said({"place": {"Japan": {"units": "1 infantry", "complex": 5}}}) == [
        (("place", "Japan", "complex"), "complex is 5, which is not text", "The territory of the complex.")]


def test_one_development_a_turn_is_said_when_develop_is_a_list() -> None:
    """Revised, Develop Weapons, Step 1: "You can choose only one development each turn"."""
    ((path, message, hint),) = _said({"develop": [{"development": "Rockets", "dice": 1}, {"development": "Jet Fighters", "dice": 1}]})
    assert path == ("develop",) and "one development is researched a turn" in message and "only one development each turn" in hint


def test_a_value_of_no_form_says_which_forms_there_are() -> None:
    assert _said({"combat_move": [{"units": 7, "from": "a", "to": "b"}]}) == [
        (("combat_move", 0, "units"), "units is 7, which is not text, a mapping (key: value), a list or nothing",
         "write units as text ('3 infantry, 1 tank'), as a map (infantry: 3) or as a list ([3 infantry, tank])")]


def test_a_list_item_is_named_by_its_place_in_the_list() -> None:
    """An empty line in an order of loss was "2 has no value": the index, counted from 0, of a list
    the message did not name."""
    from pbem.io.schemas import check

    problems = check("standing", {"game": "g", "power": "Japan", "standing_orders": {"default": {"order_of_loss": ["infantry", "tank", None]}}})
    assert [(p.message, p.hint) for p in problems] == [("item 3 of order_of_loss is empty", "write text there, or delete the line")]
    problems = check("orders", {"game": "g", "power": "Japan", "round": 1, "combat_move": [{"units": "1 tank", "from": "a", "to": 5}]})
    assert [p.message for p in problems] == ["to is 5, which is not text"]
