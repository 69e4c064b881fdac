"""The Pacific (2001) data checked against the rulebook (shared/rules/pacific_2001.txt).

The rulebook has no page markers, so tests cite its phases and sections.  Where TripleA's
pacific.xml differs, the importer's Pacific profile applies the rulebook; `test_correction_*` pins
each correction and `test_import_reproduces_committed_file` that the YAML is exactly the importer's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine.economy import income
from pbem.engine.ruleset import Ruleset
from pbem.game.game import rules_for
from pbem.io.rulesets import load_ruleset, load_ruleset_dir
from pbem.io.triplea import import_triplea
from pbem.io.triplea_geometry import load_geometry

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "data" / "triplea" / "pacific_2001"
XML = SHARED / "pacific.xml"
COMMITTED = REPO / "pbem" / "rulesets" / "pacific_2001"


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load_ruleset_dir(COMMITTED)


@pytest.mark.skipif(not XML.is_file(), reason="shared TripleA data not present")
@pytest.mark.parametrize("name", ["map.yaml", "setup.yaml"])
def test_import_reproduces_committed_file(tmp_path: Path, name: str) -> None:
    """`pbem ruleset import-triplea pacific.xml --ruleset pacific-2001` writes the committed files."""
    import_triplea(XML, tmp_path, ruleset_id="pacific-2001")
    assert (tmp_path / name).read_bytes() == (COMMITTED / name).read_bytes()


def test_names_reach_the_ruleset() -> None:
    """`--ruleset pacific`, `aap` and `pacific-2001` all name the 2001 Pacific game."""
    for name in ("pacific", "AAP", "pacific-2001", "Pacific 2001"):
        assert load_ruleset(name).id == "pacific-2001"


def test_powers_countries_and_order_of_play(rs: Ruleset) -> None:
    """Pick a World Power: "Great Britain controls two countries: India and Australia. The United
    States of America controls two countries: USA and China"; Order of Play: Japan, Great Britain,
    the United States."""
    assert rs.turn_order == ("Japan", "Great Britain", "United States")
    assert rs.countries == ("Japan", "India", "Australia", "USA", "China")
    assert rs.countries_of("Great Britain") == ("India", "Australia")
    assert {c: rs.country(c).capital for c in rs.countries} == {
        "Japan": "Japan", "India": "India", "Australia": "New South Wales", "USA": "United States", "China": "Szechwan"}


def test_starting_income(rs: Ruleset) -> None:
    """Starting income (the National Production Charts): United States 75, India 15, Australia 20,
    Japan 19, British convoys 12 (sea zones 15, 49 and 52), China none.  The convoys' 12 are divided
    as TripleA divides them: India 7 (zones 49 and 52), Australia 5 (zone 15)."""
    rules, _ = rules_for(rs)
    produced = {c: income(rs, rules.economy, rs.setup.control, c) for c in rs.countries}
    assert produced == {"Japan": 19, "India": 22, "Australia": 25, "USA": 75, "China": 0}
    assert dict(rs.setup.treasury) == produced
    convoys = {n: (rs.setup.control[n], s.ipc) for n, s in rs.board.spaces.items() if s.convoy}
    british = {n: v for n, v in convoys.items() if v[0] in ("India", "Australia")}
    assert sorted(british) == ["SZ 15", "SZ 49", "SZ 52"] and sum(ipc for _, ipc in british.values()) == 12


def test_kamikaze_zones(rs: Ruleset) -> None:
    """Kamikaze: "sea zones 23, 24, 25, 35, 36 and 37"."""
    assert sorted(n for n, s in rs.board.spaces.items() if s.kamikaze) == ["SZ 23", "SZ 24", "SZ 25", "SZ 35", "SZ 36", "SZ 37"]


def test_convoy_routes_name_a_territory_on_their_zone(rs: Ruleset) -> None:
    """Convoy Routes: each route zone holds "the name of an adjacent territory" whose income it
    carries.  (The rulebook counts thirteen; TripleA's board has eleven, see README.md.)"""
    routes = {n: s.convoy_route for n, s in rs.board.spaces.items() if s.convoy_route}
    assert len(routes) == 11
    for zone, territory in routes.items():
        assert rs.board.spaces[territory].is_land and territory in rs.board.neighbours(zone)
        assert rs.setup.control[zone] == rs.setup.control[territory] or territory in ("Korea", "Shantung")


def test_correction_soviet_union_and_himalayas_are_impassable(rs: Ruleset) -> None:
    """The Gameboard, Soviet Union and Himalayas: "Players may not move units into nor fly over either
    of these territories" (TripleA leaves them passable)."""
    assert sorted(n for n, s in rs.board.spaces.items() if s.impassable) == ["Himalayas", "Soviet Union"]


def test_correction_no_victory_cities(rs: Ruleset) -> None:
    """Object of the Game: won by capitals and victory points; TripleA marks three capitals as victory
    cities."""
    assert not any(s.victory_city for s in rs.board.spaces.values())
    assert rs.victory.kind == "capitals"


def test_unit_profiles(rs: Ruleset) -> None:
    """Combat Units profiles (cost, attack, defence, move)."""
    table = {name: (u.cost, u.attack, u.defense, u.move) for name, u in rs.units.items()}
    assert table == {
        "infantry": (3, 1, 2, 1), "Chinese infantry": (3, 1, 2, 1), "marine": (4, 1, 2, 1), "artillery": (4, 2, 2, 1),
        "tank": (5, 3, 2, 2), "antiaircraft gun": (5, 0, 0, 1), "industrial complex": (15, 0, 0, 0), "fighter": (12, 3, 4, 4),
        "bomber": (15, 4, 1, 6), "battleship": (24, 4, 4, 2), "aircraft carrier": (18, 1, 3, 2), "destroyer": (12, 3, 3, 2),
        "transport": (8, 0, 1, 2), "submarine": (8, 2, 2, 2), "kamikaze": (0, 2, 0, 0)}
    assert rs.units["destroyer"].bombard == 2 and rs.units["battleship"].bombard == 4
    assert rs.units["marine"].bought_by == ("USA",) and rs.units["industrial complex"].bought_by == ("USA",)
    assert rs.units["Chinese infantry"].bought_by == () and rs.units["Chinese infantry"].transport_size == 0


def test_bases_are_map_marks(rs: Ruleset) -> None:
    """Map concepts: "Naval bases and air bases are printed in some territories" - TripleA stands
    harbour and airfield units there; they become marks of the spaces, no units."""
    assert rs.board.spaces["Japan"].naval_base and rs.board.spaces["Japan"].air_base
    assert not any(u in ("harbour", "airfield") for stacks in rs.setup.units.values() for s in stacks.values() for u in s)


def test_geometry_draws_every_space(rs: Ruleset) -> None:
    """The map picture: every space of the map has an outline in geometry.json (converted from
    TripleA's map folder by `python -m pbem.io.triplea_geometry ... --sea-zones-as-sz --ruleset pacific-2001`)."""
    geometry = load_geometry(COMMITTED / "geometry.json")
    assert set(geometry.spaces) == set(rs.board.spaces)
    assert all(geometry.spaces[n].sea == s.is_sea for n, s in rs.board.spaces.items())
