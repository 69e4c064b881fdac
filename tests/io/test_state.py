"""The state file: the units and control sections written line by line are the sections written whole."""

from __future__ import annotations

import dataclasses
import random

import pytest
import yaml

from pbem.game.game import rules_for
from pbem.io.rulesets import load_ruleset
from pbem.io.schemas import check
from pbem.io.state import HEADER, dump_state, initial_state, load_state, state_to_data
from pbem.io.yamlfile import dump_yaml
from pbem.rulesets import RULESETS


def _whole(state, ruleset) -> str:  # type: ignore[no-untyped-def]
    return HEADER + dump_yaml(state_to_data(state, ruleset), flow_leaves=True)


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_each_spaces_units_written_apart_give_the_bytes_of_the_whole_section(ruleset_id: str) -> None:
    """`dump_state` keeps each space's lines and writes again only spaces whose units changed;
    audit compares the bytes, so they must be those of the whole state dumped at once, for
    every ruleset's setup and for units moved about: stacks long enough to leave one line, a
    space emptied, a space gaining units, a state with none."""
    ruleset = load_ruleset(ruleset_id)
    state = initial_state(ruleset, None, rules_for(ruleset)[0])
    assert dump_state(state, ruleset) == _whole(state, ruleset)
    rng = random.Random(ruleset_id)
    units = {space: {p: dict(u) for p, u in by.items()} for space, by in state.units.items()}
    names = sorted(ruleset.units)
    powers = [p.name for p in ruleset.powers]
    for _ in range(5):
        for space in rng.sample(sorted(ruleset.board.spaces), 6):
            power = rng.choice(powers)
            units.setdefault(space, {})[power] = {u: rng.randint(1, 12) for u in rng.sample(names, rng.randint(1, len(names)))}
        for space in rng.sample(sorted(units), 3):
            del units[space]
        moved = dataclasses.replace(state, units={s: dict(sorted(by.items())) for s, by in sorted(units.items())})
        text = dump_state(moved, ruleset)
        assert text == _whole(moved, ruleset)
        assert dump_state(moved, ruleset) == text  # the second time from the kept lines
        assert load_state(text, ruleset).units == {s: {p: dict(sorted(u.items())) for p, u in by.items()} for s, by in moved.units.items()}
    empty = dataclasses.replace(state, units={})
    assert dump_state(empty, ruleset) == _whole(empty, ruleset)


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_each_territorys_control_written_apart_gives_the_bytes_of_the_whole_section(ruleset_id: str) -> None:
    """`dump_state` keeps each territory's line of the control section too: captures, a territory
    controlled by none (a neutral attacked and not taken, 1940 Global E11), names that YAML must
    quote or write as an explicit key, and a control section short enough to go on one line give
    the bytes of the whole state dumped at once."""
    ruleset = load_ruleset(ruleset_id)
    state = initial_state(ruleset, None, rules_for(ruleset)[0])
    rng = random.Random(ruleset_id)
    powers = [p.name for p in ruleset.powers]
    control = dict(state.control)
    for _ in range(5):
        for territory in rng.sample(sorted(control), 8):
            control[territory] = rng.choice([*powers, None])
        control["yes"] = rng.choice(powers)  # read back as true unless quoted
        control["Front: 2"] = None
        control["a name longer than a YAML simple key " * 4] = rng.choice(powers)  # written as "? name" / ": value"
        moved = dataclasses.replace(state, control=dict(sorted(control.items())))
        text = dump_state(moved, ruleset)
        assert text == _whole(moved, ruleset)
        assert dump_state(moved, ruleset) == text  # the second time from the kept lines
    for short in ({}, {"Malta": powers[0]}, {"Malta": powers[0], "Gibraltar": None}):
        few = dataclasses.replace(state, control=short)
        assert dump_state(few, ruleset) == _whole(few, ruleset)


def test_a_state_written_here_is_read_back_without_the_schema_check_and_any_other_with_it(monkeypatch) -> None:
    """An audit reads back every state its replay wrote; those skip the schema check (valid by
    construction), while a state.yaml edited by hand, by a byte, is still checked."""
    import pbem.io.state as state_io

    ruleset = load_ruleset("1942-2e")
    text = dump_state(initial_state(ruleset, None, rules_for(ruleset)[0]), ruleset)
    checked = []
    monkeypatch.setattr(state_io, "check", lambda name, data: checked.append(name) or [])
    load_state(text.encode(), ruleset)
    assert checked == []
    load_state(text.replace("round: 1", "round: 01"), ruleset)
    assert checked == ["state"]


@pytest.mark.parametrize("ruleset_id,victory", [
    ("revised", {"level": "major", "cities": 10, "needed": 10}),
    ("europe-1999", {"capital": "Moscow", "held_by": "Germany"}),
    ("global-1940", {"group": "the Axis capitals", "cities": 3, "needed": 3}),
    ("global-1940-ams", {"tokens": 4, "needed": 4, "lead": 2}),
    ("pacific-2001", {"victory_points": 22, "power": "Japan"}),
    ("pacific-2001", {"victory_points": "none scored", "power": "Japan"}),
])
def test_every_way_a_game_is_won_is_read_back(ruleset_id: str, victory: dict) -> None:  # type: ignore[type-arg]
    """Every record of victory the engine writes (Turn.check_victory and its kin) is a form the
    state schema accepts: a finished game must stay readable, for status, audit and the site."""
    ruleset = load_ruleset(ruleset_id)
    state = dataclasses.replace(initial_state(ruleset, None, rules_for(ruleset)[0]), winner="Axis", victory=victory)
    text = dump_state(state, ruleset)
    assert check("state", yaml.safe_load(text)) == []  # what another process reading the file checks
    assert load_state(text, ruleset).victory == victory


@pytest.mark.parametrize("edit,message", [
    (("      antiaircraft artillery: 1", "      antiaircraft artilery: 1"), "unknown unit 'antiaircraft artilery' of"),
    (("  Karelia S.S.R.: Soviet Union", "  Karelia: Soviet Union"), "unknown space 'Karelia' in control"),
    (("  Karelia S.S.R.: Soviet Union", "  Karelia S.S.R.: Soviets"), "unknown owner 'Soviets' of Karelia S.S.R."),
])
def test_a_state_edited_by_hand_with_a_name_its_ruleset_lacks_is_refused_at_its_line(edit, message) -> None:  # type: ignore[no-untyped-def]
    """Bad input never crashes: a committed state.yaml with a misspelt unit, space or owner used to
    reach the engine as a bare KeyError; it is refused where it is read, with its line and the way back."""
    from pbem.engine.problems import ProblemsError

    ruleset = load_ruleset("1942-2e")
    text = dump_state(initial_state(ruleset, None, rules_for(ruleset)[0]), ruleset)
    assert edit[0] in text
    with pytest.raises(ProblemsError) as err:
        load_state(text.replace(edit[0], edit[1], 1), ruleset)
    shown = str(err.value)
    assert message in shown and "state.yaml:" in shown and "git revert" in shown, shown
