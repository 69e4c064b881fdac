"""The 1942 Second Edition data checked against the rulebook (shared/rules/aa1942_2e.txt).

Page numbers are the rulebook's.  Where TripleA differed, the importer's corrections list applied
the rulebook; the tests named `test_correction_*` pin each of those.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.engine.ruleset import Ruleset
from pbem.io.rulesets import load_ruleset


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load_ruleset("1942-2e")


def owner_side(rs: Ruleset, territory: str) -> str:
    return rs.side_of(rs.setup.control[territory])


def test_turn_order(rs: Ruleset) -> None:
    """p. 10, Order of Play: Soviet Union, Germany, United Kingdom, Japan, United States, then victory."""
    assert rs.turn_order == ("Soviet Union", "Germany", "United Kingdom", "Japan", "United States")
    assert rs.victory.checked_after == "United States"


def test_sides(rs: Ruleset) -> None:
    """p. 6, The Combatants: Axis = Germany and Japan; Allies = Soviet Union, United Kingdom, United States."""
    assert {p.name for p in rs.powers if p.side == "Axis"} == {"Germany", "Japan"}
    assert rs.allies("Soviet Union") == ("United Kingdom", "United States")
    assert rs.enemies("Germany") == ("Soviet Union", "United Kingdom", "United States")


def test_starting_treasury(rs: Ruleset) -> None:
    """p. 6, Combat Forces (starting income 24/40/30/30/42); p. 7: each power begins with that many IPCs."""
    expected = {
        "Soviet Union": 24,
        "Germany": 40,
        "United Kingdom": 30,
        "Japan": 30,
        "United States": 42,
    }
    assert {p.name: p.starting_treasury for p in rs.powers} == expected
    assert dict(rs.setup.treasury) == expected


def test_correction_treasury_germany_and_uk(rs: Ruleset) -> None:
    """p. 6, Combat Forces: Germany 40 and United Kingdom 30; TripleA gives 41 and 31 (its territory sums)."""
    assert rs.setup.treasury["Germany"] == 40
    assert rs.setup.treasury["United Kingdom"] == 30


def test_starting_income_is_sum_of_territory_values(rs: Ruleset) -> None:
    """p. 7, National Production: the level is the combined IPC values of the territories a power controls.

    The board's values sum to the p. 6 chart for three powers.  For Germany and the United Kingdom
    they sum to one more (41, 31): the rulebook gives no territory values, so the board's are kept
    and only the treasury follows the chart (see pbem/rulesets/aa1942_2e/README.md).
    """
    income: Counter[str] = Counter()
    for territory, power in rs.setup.control.items():
        income[power] += rs.board.spaces[territory].ipc
    chart = {p.name: p.starting_treasury for p in rs.powers}
    assert {p: income[p] - chart[p] for p in chart} == {
        "Soviet Union": 0,
        "Germany": 1,
        "United Kingdom": 1,
        "Japan": 0,
        "United States": 0,
    }


# Unit Profiles, pp. 24-30: cost, attack, defence, move (AAA and industrial complex: "—" = 0).
PROFILES = {
    "infantry": (3, 1, 2, 1),
    "artillery": (4, 2, 2, 1),
    "tank": (6, 3, 3, 2),
    "antiaircraft artillery": (5, 0, 0, 1),
    "industrial complex": (15, 0, 0, 0),
    "fighter": (10, 3, 4, 4),
    "bomber": (12, 4, 1, 6),
    "battleship": (20, 4, 4, 2),
    "aircraft carrier": (14, 1, 2, 2),
    "cruiser": (12, 3, 3, 2),
    "destroyer": (8, 2, 2, 2),
    "submarine": (6, 2, 1, 2),
    "transport": (7, 0, 0, 2),
}


def test_unit_profiles(rs: Ruleset) -> None:
    """Unit Profiles pp. 24-30: the 13 units with cost, attack, defense and move as printed."""
    assert {n: (u.cost, u.attack, u.defense, u.move) for n, u in rs.units.items()} == PROFILES


def test_unit_special_profiles(rs: Ruleset) -> None:
    """Unit Profiles: battleship "Two Hits to Destroy" and bombards; cruiser bombards; a carrier carries
    up to two fighters and has no two-hit rule (DIGEST §5 A42.7); transport: one land unit plus one infantry."""
    assert rs.unit("battleship").hits == 2 and rs.unit("battleship").bombard == 4
    assert rs.unit("cruiser").bombard == 3
    assert (
        rs.unit("aircraft carrier").hits == 1 and rs.unit("aircraft carrier").carrier_capacity == 2
    )
    cap = rs.unit("transport").transport_capacity
    inf, tank = rs.unit("infantry").transport_size, rs.unit("tank").transport_size
    assert inf + tank <= cap and 2 * inf <= cap and 2 * tank > cap and 3 * inf > cap


def test_victory_cities_and_who_holds_them(rs: Ruleset) -> None:
    """p. 6, How the War Is Won: twelve victory cities; Allies start with Washington, London, Leningrad,
    Moscow, Calcutta, San Francisco; Axis with Berlin, Paris, Rome, Shanghai, Manila, Tokyo."""
    cities = rs.victory_cities()
    assert len(cities) == 12 == rs.victory.cities
    held = {city: owner_side(rs, territory) for city, territory in cities.items()}
    assert held == {
        **dict.fromkeys(
            ["Washington", "London", "Leningrad", "Moscow", "Calcutta", "San Francisco"], "Allies"
        ),
        **dict.fromkeys(["Berlin", "Paris", "Rome", "Shanghai", "Manila", "Tokyo"], "Axis"),
    }


def test_correction_hawaii_is_no_victory_city(rs: Ruleset) -> None:
    """p. 6, How the War Is Won: the twelve cities do not include Honolulu; TripleA marks the Hawaiian Islands."""
    assert rs.board.spaces["Hawaiian Islands"].victory_city is None


def test_victory_conditions(rs: Ruleset) -> None:
    """p. 6 and p. 23, Winning the Game: standard victory 9 cities (the default), total victory 12."""
    assert dict(rs.victory.conditions) == {"standard": 9, "total": 12}
    assert rs.options["victory"].default == "standard"


def test_capitals(rs: Ruleset) -> None:
    """Capturing and Liberating Capitals (after p. 19, Liberating a Territory): Washington, Moscow, London, Berlin, Tokyo."""
    capitals = {p.name: p.capital for p in rs.powers}
    assert capitals == {
        "Soviet Union": "Russia",
        "Germany": "Germany",
        "United Kingdom": "United Kingdom",
        "Japan": "Japan",
        "United States": "Eastern United States",
    }
    cities = {rs.board.spaces[t].victory_city for t in capitals.values()}
    assert cities == {"Washington", "Moscow", "London", "Berlin", "Tokyo"}
    for power, territory in capitals.items():
        assert rs.board.spaces[territory].capital_of == power
        assert rs.setup.control[territory] == power


@pytest.mark.parametrize(
    "a, b",
    [
        ("Western Canada", "Eastern Canada"),
        ("Western United States", "Central United States"),
        ("SZ 55", "SZ 19"),
        ("SZ 42", "SZ 20"),
        ("SZ 41", "SZ 21"),
        # The rulebook's "Mexico and Panama" names no space; the map data decides (DIGEST §5 A42.2):
        # on the board Mexico's right edge meets East Mexico on the left edge.
        ("Mexico", "East Mexico"),
    ],
)
def test_wrap_adjacencies(rs: Ruleset, a: str, b: str) -> None:
    """p. 8, Spaces on the Game Board: the board wraps east-west; these pairs are adjacent."""
    assert rs.board.are_adjacent(a, b) and rs.board.are_adjacent(b, a)


def test_canals(rs: Ruleset) -> None:
    """p. 9, Canals: Panama joins SZ 19 and SZ 18, held with Central America; Suez joins SZ 17 and SZ 34,
    held with both Anglo-Egyptian Sudan and Trans-Jordan."""
    panama = rs.board.canal_between("SZ 18", "SZ 19")
    suez = rs.board.canal_between("SZ 34", "SZ 17")
    assert panama is not None and panama.controlled_by == ("Central America",)
    assert suez is not None and set(suez.controlled_by) == {"Anglo-Egyptian Sudan", "Trans-Jordan"}
    assert len(rs.board.canals) == 2


def test_correction_suez_land_link(rs: Ruleset) -> None:
    """p. 9, Canals: "Land units can move freely between Trans-Jordan and Anglo-Egyptian Sudan" (TripleA lacks it)."""
    assert rs.board.are_adjacent("Anglo-Egyptian Sudan", "Trans-Jordan")


def test_adjacency_symmetric_and_known(rs: Ruleset) -> None:
    """p. 8: spaces are adjacent when they share a border, which is mutual."""
    for a, neighbours in rs.board.adjacency.items():
        assert a not in neighbours
        for b in neighbours:
            assert b in rs.board.spaces and a in rs.board.adjacency[b]


def test_neutrals_are_impassable_without_income(rs: Ruleset) -> None:
    """p. 9, Neutral Territories (such as Turkey, Mongolia, or Sahara): no emblem, impassable, no income."""
    neutrals = {s.name for s in rs.board.spaces.values() if s.is_land and s.original_owner is None}
    assert {"Turkey", "Mongolia", "Sahara"} <= neutrals
    for name in neutrals:
        space = rs.board.spaces[name]
        assert space.impassable and space.ipc == 0 and name not in rs.setup.control
    assert all(s.original_owner is None for s in rs.board.spaces.values() if s.impassable)


def test_territory_income_values(rs: Ruleset) -> None:
    """p. 8: most territories have an income value from 1 to 12; a few, such as Gibraltar, have none."""
    values = [s.ipc for s in rs.board.spaces.values() if s.is_land]
    assert max(values) == 12 and min(values) == 0
    assert rs.board.spaces["Gibraltar"].ipc == 0


def test_italy_mobilizes_three_also_into_sz15(rs: Ruleset) -> None:
    """Phase 5, Mobilize New Units: "the German player can mobilize 3 units from the Italy territory, either
    in the territory itself or in sea zone 15"."""
    italy = rs.board.spaces["Italy"]
    assert italy.ipc == 3 and rs.setup.control["Italy"] == "Germany"
    assert rs.setup.units["Italy"]["Germany"].get("industrial complex") == 1
    assert rs.board.are_adjacent("Italy", "SZ 15")


def test_turkish_straits_zone(rs: Ruleset) -> None:
    """p. 9, Neutral Territories, Optional Rule: Turkey closes the straits of sea zone 16 (between the Black Sea and the Mediterranean)."""
    assert rs.board.spaces["SZ 16"].is_sea and rs.board.are_adjacent("SZ 16", "Turkey")
    assert rs.options["turkish_straits_closed"].default is False


def test_air_movement_example_route(rs: Ruleset) -> None:
    """Unit Profiles, fighter example: from a carrier the fighter enters SZ 50, then SZ 48, then the
    Philippine Islands; another goes SZ 52, SZ 44, SZ 45 and lands in Eastern Australia."""
    for a, b in [
        ("SZ 50", "SZ 48"),
        ("SZ 48", "Philippine Islands"),
        ("SZ 52", "SZ 44"),
        ("SZ 44", "SZ 45"),
        ("SZ 45", "Eastern Australia"),
    ]:
        assert rs.board.are_adjacent(a, b), (a, b)


def test_islands(rs: Ruleset) -> None:
    """p. 9, Islands: an island group is a single territory surrounded entirely by sea zones."""
    for name in ("Japan", "Philippine Islands", "Hawaiian Islands", "Iceland"):
        assert rs.board.spaces[name].island, name
    for name in ("Eastern Australia", "United Kingdom", "Germany"):
        assert not rs.board.spaces[name].island, name
    for s in rs.board.spaces.values():
        if s.island:
            assert all(rs.board.spaces[n].is_sea for n in rs.board.neighbours(s.name))


def test_setup_units_stand_where_their_power_may(rs: Ruleset) -> None:
    """p. 7, Setup Cards: units start on the board; land units in territories their power controls, sea
    units (and cargo and planes aboard) in sea zones."""
    assert rs.setup.units
    for where, by_owner in rs.setup.units.items():
        space = rs.board.spaces[where]
        for owner, stack in by_owner.items():
            assert owner in rs.turn_order
            for unit, count in stack.items():
                assert count > 0 and unit in rs.units
                if space.is_land:
                    assert rs.setup.control[where] == owner, (where, owner, unit)
                    assert rs.units[unit].domain != "sea"


def test_control_covers_every_non_neutral_territory(rs: Ruleset) -> None:
    """p. 8, Spaces on the Game Board: border colours show which power controls each territory at the start; neutrals are unaligned."""
    for s in rs.board.spaces.values():
        if s.is_land and s.original_owner:
            assert rs.setup.control[s.name] == s.original_owner


def test_phases(rs: Ruleset) -> None:
    """p. 10, Turn Sequence: six phases; Conduct Combat in order SBR, amphibious assaults, general combat;
    only collecting income is compulsory."""
    assert [p.id for p in rs.phases] == [
        "purchase",
        "combat_move",
        "conduct_combat",
        "noncombat_move",
        "mobilize",
        "collect_income",
    ]
    assert rs.phases[2].steps == (
        "strategic_bombing_raids",
        "amphibious_assaults",
        "general_combat",
    )
    assert [p.id for p in rs.phases if p.mandatory] == ["collect_income"]


def test_options(rs: Ruleset) -> None:
    """Optional rules: victory (p. 6), escorts and interceptors (p. 14), Turkish straits (p. 8); low luck
    is a house rule, off by default."""
    assert rs.option_defaults() == {
        "victory": "standard",
        "low_luck": False,
        "escorts_and_interceptors": False,
        "turkish_straits_closed": False,
    }
    assert rs.options["victory"].allowed == ("standard", "total")
    assert all(o.rule for o in rs.options.values())


def test_colours(rs: Ruleset) -> None:
    """p. 6 colour chart: maroon, gray, tan, orange, green."""
    assert [p.colour for p in rs.powers] == ["#800000", "#808080", "#D2B48C", "#FFA500", "#008000"]
