"""Bad input never crashes in a Pacific (2001) game either: random orders of Japan and of Great
Britain (whose purchases are written per country), with combat air patrols, patrol landings,
convoy income and kamikaze standing orders among what they name."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.game.game import Game, new_game
from tests.game.fuzzing import Vocabulary, adjudicate_random_orders

V = Vocabulary("pacific-2001", ("Japan", "Great Britain"))
RULESET, SPACES, MINE, UNITS, units = V.ruleset, V.spaces, V.mine, V.unit_names, V.units
COUNTRIES = ["India", "Australia", "USA", "Japan", "x"]


def orders(power: str) -> st.SearchStrategy[dict]:  # type: ignore[type-arg]
    space = V.space(power)
    move = st.fixed_dictionaries({"units": units, "from": space, "to": space},
                                 optional={"via": st.lists(space, max_size=3),
                                           "mission": st.sampled_from(["strategic_bombing", "escort", "attack", "cap"])})
    purchase = st.one_of(units, st.dictionaries(st.sampled_from(COUNTRIES), units, max_size=2))
    return st.fixed_dictionaries(
        {"power": st.just(power), "round": st.just(1)},
        optional={
            "purchase": purchase,
            "combat_move": st.lists(move, max_size=4),
            "noncombat_move": st.lists(move, max_size=3),
            "place": st.dictionaries(space, units, max_size=2),
            "cap_landing": st.dictionaries(space, space, max_size=1),
            "convoy_income": st.dictionaries(st.sampled_from(COUNTRIES), st.integers(min_value=0, max_value=20), max_size=2),
            "battles": st.dictionaries(space, st.fixed_dictionaries({}, optional={
                "order_of_loss": st.lists(st.sampled_from(UNITS + ["x"]), max_size=3),
                "submerge": st.booleans()}), max_size=2),
        },
    )


KAMIKAZE = """game: fuzz
power: Japan
standing_orders:
  kamikaze:
    - {targets: [battleship, aircraft carrier, destroyer, transport], count: 3}
"""


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Game]:
    base = tmp_path_factory.mktemp("fuzz-pacific")
    japan = new_game(base / "japan", "pacific-2001", {}, game_id="fuzz", dice_mode="local")
    britain = new_game(base / "britain", "pacific-2001", {}, game_id="fuzz", dice_mode="local")
    britain.submit(KAMIKAZE.encode(), "standing.yaml")
    britain = Game(base / "britain")
    britain.submit(b"game: fuzz\npower: Japan\nround: 1\n", "japan.yaml")
    britain = Game(base / "britain")
    britain.adjudicate()
    return {"Japan": japan, "Great Britain": Game(base / "britain")}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.one_of(orders("Japan"), orders("Great Britain")))
def test_random_pacific_orders_never_crash(games: dict[str, Game], data: dict) -> None:  # type: ignore[type-arg]
    adjudicate_random_orders(games[data["power"]], data)
