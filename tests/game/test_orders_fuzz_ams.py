"""Bad input never crashes a 1940 Global game with the AMS house rules: random orders of Germany and
of the United Kingdom (two economies), with paratroopers, rockets, facilities, upgrades, raids on
named facilities and declarations of war among what they name."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.game.game import Game, new_game
from tests.game.fuzzing import Vocabulary, adjudicate_random_orders

V = Vocabulary("global-1940-ams", ("Germany", "United Kingdom"))
RULESET, SPACES, MINE, UNITS, units = V.ruleset, V.spaces, V.mine, V.unit_names, V.units
FACILITIES = sorted(u for u, p in RULESET.units.items() if p.domain == "structure")
COUNTRIES = ["UK Europe", "UK Pacific", "Germany", "x"]


def orders(power: str) -> st.SearchStrategy[dict]:  # type: ignore[type-arg]
    space = V.space(power)
    move = st.fixed_dictionaries({"units": units, "from": space, "to": space},
                                 optional={"via": st.lists(space, max_size=3),
                                           "mission": st.sampled_from(["strategic_bombing", "escort", "airborne", "cap"]),
                                           "target": st.sampled_from(FACILITIES)})
    purchase = st.one_of(units, st.dictionaries(st.sampled_from(COUNTRIES), units, max_size=2))
    return st.fixed_dictionaries(
        {"power": st.just(power), "round": st.just(1)},
        optional={
            "declare_war": st.lists(st.sampled_from(["Soviet Union", "United States", "Japan", "China", "x"]), max_size=2),
            "purchase": purchase,
            "combat_move": st.lists(move, max_size=4),
            "noncombat_move": st.lists(move, max_size=3),
            "place": st.dictionaries(space, units, max_size=2),
            "repair": st.dictionaries(st.one_of(space, st.builds(lambda s, f: f"{s}/{f}", st.sampled_from(MINE[power]),
                                                                  st.sampled_from(FACILITIES))),
                                      st.integers(min_value=0, max_value=8), max_size=2),
            "rockets": st.lists(st.fixed_dictionaries({"from": space, "target": space},
                                                      optional={"facility": st.sampled_from(FACILITIES)}), max_size=2),
            "battles": st.dictionaries(space, st.fixed_dictionaries({}, optional={
                "order_of_loss": st.lists(st.sampled_from(UNITS + ["x"]), max_size=3),
                "bombard": st.dictionaries(st.sampled_from(["battleship", "cruiser"]), st.integers(min_value=0, max_value=2), max_size=1),
                "submerge": st.booleans()}), max_size=2),
        },
    )


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Game]:
    base = tmp_path_factory.mktemp("fuzz-ams")
    germany = new_game(base / "germany", "global-1940-ams", {}, game_id="fuzz", dice_mode="local",
                       options={"chinese_partisans": True})
    germany.submit(b"game: fuzz\npower: Germany\nstanding_orders:\n  tech_chart: 2\n", "standing.yaml")
    germany = Game(base / "germany")
    # the United Kingdom moves sixth: play the five powers before it with empty orders
    britain = new_game(base / "britain", "global-1940-ams", {}, game_id="fuzz", dice_mode="local")
    for power in RULESET.turn_order[:5]:
        britain = Game(base / "britain")
        britain.submit(f"game: fuzz\npower: {power}\nround: 1\n".encode(), f"{power}.yaml")
        Game(base / "britain").adjudicate()
    return {"Germany": germany, "United Kingdom": Game(base / "britain")}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.one_of(orders("Germany"), orders("United Kingdom")))
def test_random_ams_orders_never_crash(games: dict[str, Game], data: dict) -> None:  # type: ignore[type-arg]
    adjudicate_random_orders(games[data["power"]], data)
