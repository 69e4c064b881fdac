"""Bad input never crashes: random orders (well-formed or not) give a result or a clear problem."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.engine.problems import ProblemsError
from pbem.game.game import Game, GameError, new_game
from pbem.io.rulesets import load_ruleset

RULESET = load_ruleset("1942-2e")
SPACES = sorted(RULESET.board.spaces)
SOVIET = sorted(s for s, by in RULESET.setup.units.items() if "Soviet Union" in by)
NEAR = sorted({n for s in SOVIET for n in RULESET.board.neighbours(s)} | set(SOVIET))
UNITS = sorted(RULESET.units)
POWERS = [p.name for p in RULESET.powers]

space = st.one_of(st.sampled_from(NEAR), st.sampled_from(NEAR), st.sampled_from(SPACES), st.text(max_size=12))
units = st.one_of(
    st.dictionaries(st.sampled_from(UNITS), st.integers(min_value=0, max_value=12), max_size=3),
    st.builds(lambda n, u: f"{n} {u}", st.integers(min_value=0, max_value=20), st.sampled_from(UNITS)),
    st.text(max_size=15),
)
move = st.fixed_dictionaries({"units": units, "from": space, "to": space},
                             optional={"via": st.lists(space, max_size=3), "mission": st.sampled_from(["strategic_bombing", "escort", "attack"])})
orders = st.fixed_dictionaries(
    # Mostly the power to move and the right round, so the orders reach the rules, not only the checks.
    {"power": st.one_of(st.just("Soviet Union"), st.just("Soviet Union"), st.sampled_from(POWERS + ["Russians", "nobody"])),
     "round": st.one_of(st.just(1), st.just(1), st.integers(min_value=0, max_value=3))},
    optional={
        "purchase": units,
        "combat_move": st.lists(move, max_size=4),
        "noncombat_move": st.lists(move, max_size=3),
        "place": st.dictionaries(space, units, max_size=2),
        "battles": st.dictionaries(space, st.fixed_dictionaries({}, optional={
            "order_of_loss": st.lists(st.sampled_from(UNITS + ["x"]), max_size=3),
            "retreat": st.one_of(st.text(max_size=10), st.fixed_dictionaries({"to": space, "when": st.text(max_size=12)}))}), max_size=2),
        "repair": st.dictionaries(space, st.integers(min_value=-1, max_value=5), max_size=1),
        "develop": st.fixed_dictionaries({"development": st.text(max_size=10), "dice": st.integers(min_value=0, max_value=3)}),
        "rockets": st.lists(st.fixed_dictionaries({"from": space, "target": space}), max_size=1),
    },
)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return new_game(tmp_path_factory.mktemp("fuzz") / "g", "1942-2e", {}, game_id="fuzz", dice_mode="local")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=orders)
def test_random_orders_never_crash(game: Game, data: dict) -> None:  # type: ignore[type-arg]
    import yaml

    text = yaml.safe_dump(data, allow_unicode=True)
    try:
        parsed, _ = game.check(text.encode(), "fuzz.yaml")
    except (ProblemsError, GameError) as err:
        assert str(err)
        if isinstance(err, ProblemsError):
            assert all(p.file == "fuzz.yaml" for p in err.problems)
        return
    # Valid orders also adjudicate, whatever the dice, into a state that loads again.
    from pbem import dice
    from pbem.engine.turn import run_turn
    from pbem.io.state import dump_state, load_state

    result = run_turn(game.ruleset, game.rules, game.combat_rules, game.state(), parsed, {}, game.config.options,
                      dice.SeededDice(dice.local_seed(text)))
    assert not result.problems
    assert load_state(dump_state(result.state, game.ruleset), game.ruleset) == result.state


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300))
def test_random_bytes_never_crash(game: Game, raw: bytes) -> None:
    try:
        game.check(raw, "junk.yaml")
    except (ProblemsError, GameError):
        pass
