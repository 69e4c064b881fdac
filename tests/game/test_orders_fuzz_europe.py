"""Bad input never crashes in a Europe (1999) game either: random orders in round 0 (the cash advance)
and round 1, with convoy centres, the Middle East and conversions among the spaces they name."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.game.game import Game, new_game
from tests.game.fuzzing import adjudicate_random_orders
from pbem.io.rulesets import load_ruleset

RULESET = load_ruleset("europe-1999")
SPACES = sorted(RULESET.board.spaces)
GERMAN = sorted(s for s, by in RULESET.setup.units.items() if "Germany" in by)
NEAR = sorted({n for s in GERMAN for n in RULESET.board.neighbours(s)} | set(GERMAN))
UNITS = sorted(RULESET.units)

space = st.one_of(st.sampled_from(NEAR), st.sampled_from(SPACES), st.text(max_size=12))
units = st.one_of(
    st.dictionaries(st.sampled_from(UNITS), st.integers(min_value=0, max_value=12), max_size=3),
    st.builds(lambda n, u: f"{n} {u}", st.integers(min_value=0, max_value=20), st.sampled_from(UNITS)),
)
move = st.fixed_dictionaries({"units": units, "from": space, "to": space},
                             optional={"via": st.lists(space, max_size=3), "owner": st.sampled_from(["Great Britain", "Germany", "x"]),
                                       "mission": st.sampled_from(["strategic_bombing", "escort", "attack"])})


def orders(round_: int) -> st.SearchStrategy[dict]:  # type: ignore[type-arg]
    return st.fixed_dictionaries(
        {"power": st.just("Germany"), "round": st.just(round_)},
        optional={
            "purchase": units,
            "combat_move": st.lists(move, max_size=4),
            "noncombat_move": st.lists(move, max_size=3),
            "place": st.dictionaries(space, units, max_size=2),
            "convert": st.lists(st.fixed_dictionaries({"units": units, "in": space}), max_size=1),
            "battles": st.dictionaries(space, st.fixed_dictionaries({}, optional={
                "order_of_loss": st.lists(st.sampled_from(UNITS + ["x"]), max_size=3),
                "submerge": st.booleans()}), max_size=2),
        },
    )


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Game]:
    base = tmp_path_factory.mktemp("fuzz-europe")
    return {0: new_game(base / "advance", "europe-1999", {}, game_id="fuzz", dice_mode="local"),
            1: new_game(base / "round1", "europe-1999", {}, game_id="fuzz", dice_mode="local", options={"cash_advance": False})}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.one_of(orders(0), orders(1)))
def test_random_europe_orders_never_crash(games: dict[int, Game], data: dict) -> None:  # type: ignore[type-arg]
    adjudicate_random_orders(games[data["round"]], data, standing=False)
