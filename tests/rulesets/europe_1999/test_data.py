"""The Europe (1999) data checked against the Gameplay Manual (shared/rules/europe_1999.txt).

The manual has no page markers, so tests cite its sections.  Where TripleA's europe_AAE.xml differs,
the importer's Europe profile applies the manual; `test_correction_*` pins each correction and
`test_import_reproduces_committed_file` that the YAML is exactly the importer's output.
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
SHARED = REPO.parent / "shared" / "data" / "triplea" / "europe_1999"
XML = SHARED / "europe_AAE.xml"
COMMITTED = REPO / "pbem" / "rulesets" / "europe_1999"


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load_ruleset_dir(COMMITTED)


@pytest.mark.skipif(not XML.is_file(), reason="shared TripleA data not present")
@pytest.mark.parametrize("name", ["map.yaml", "setup.yaml"])
def test_import_reproduces_committed_file(tmp_path: Path, name: str) -> None:
    """`pbem ruleset import-triplea europe_AAE.xml --ruleset europe-1999` writes the committed files."""
    import_triplea(XML, tmp_path, ruleset_id="europe-1999")
    assert (tmp_path / name).read_bytes() == (COMMITTED / name).read_bytes()


def test_names_reach_the_ruleset() -> None:
    """`--ruleset europe`, `aae` and `europe-1999` all name the 1999 Europe game."""
    for name in ("europe", "AAE", "europe-1999", "Europe 1999"):
        assert load_ruleset(name).id == "europe-1999"


def test_order_of_play_and_sides(rs: Ruleset) -> None:
    """Order of play: "1. Germany goes first. 2. The Soviet Union goes second. 3. Great Britain goes
    third. 4. The United States goes last."  Object of the Game: Germany against the Allies."""
    assert rs.turn_order == ("Germany", "Soviet Union", "Great Britain", "United States")
    assert [p.name for p in rs.powers if p.side == "Axis"] == ["Germany"]


def test_starting_income_is_land_and_convoy_centres(rs: Ruleset) -> None:
    """Starting Income: United States 40, Great Britain 25, Germany 40, Soviet Union 24, "based on how
    many land territories and Convoy centers it controls" - and the Middle East never counts for the
    Allies (Setup the National Production Chart).  The Soviet chart's header says 25: the table and
    the board's own sum (20 land + 4 convoy) say 24 (DIGEST §5 EUR.2)."""
    expected = {"Germany": 40, "Soviet Union": 24, "Great Britain": 25, "United States": 40}
    assert {p.name: p.starting_treasury for p in rs.powers} == expected
    rules, _ = rules_for(rs)
    assert {p: income(rs, rules.economy, rs.setup.control, p) for p in expected} == expected


def test_seven_convoy_centres(rs: Ruleset) -> None:
    """The Battle of the Atlantic: "four British Convoy centers, two U.S. centers, and one Soviet center"."""
    convoys = {n: (s.original_owner, s.ipc) for n, s in rs.board.spaces.items() if s.convoy}
    owners = sorted(o for o, _ in convoys.values())
    assert owners == ["Great Britain"] * 4 + ["Soviet Union"] + ["United States"] * 2
    assert all(rs.board.spaces[n].is_sea and ipc > 0 for n, (_, ipc) in convoys.items())
    assert all(rs.setup.control[n] == o for n, (o, _) in convoys.items())


def test_correction_seven_neutrals_are_impassable(rs: Ruleset) -> None:
    """The Gameboard, Neutral Territories: "There are seven white territories ... players may not move
    units into them nor fly over them" (TripleA leaves them passable and unowned)."""
    neutral = sorted(n for n, s in rs.board.spaces.items() if s.impassable)
    assert neutral == ["Eire", "Saudi Arabia", "Spain", "Spanish Morocco", "Sweden", "Switzerland", "Turkey"]
    assert all(n not in rs.setup.control for n in neutral)


def test_correction_the_middle_east_is_tribute(rs: Ruleset) -> None:
    """Collect Income, The Middle East: Egypt 1 and Trans-Jordan 2 (the manual's example), paid to
    Germany by the Allies when it holds them; TripleA counts them as British income."""
    tribute = {n: s.ipc for n, s in rs.board.spaces.items() if s.tribute}
    assert set(tribute) == {"Egypt", "Iran", "Iraq", "Palestine", "Syria", "Trans-Jordan"}
    assert tribute["Egypt"] == 1 and tribute["Trans-Jordan"] == 2


def test_correction_no_victory_cities(rs: Ruleset) -> None:
    """Object of the Game: the game is won by holding an enemy capital; TripleA marks the capitals as
    victory cities, which this game does not have."""
    assert not any(s.victory_city for s in rs.board.spaces.values())
    assert rs.victory.kind == "capitals"
    assert {p.name: p.capital for p in rs.powers} == {
        "Germany": "Germany", "Soviet Union": "Moscow", "Great Britain": "United Kingdom", "United States": "United States"}


def test_the_turkish_straits_are_shut_to_ships(rs: Ruleset) -> None:
    """The Gameboard: "No naval units may pass through the neutral Turkish sea zone, although air
    units may fly between the Black Sea and the Aegean Sea": the canal opens only for Turkey's
    controller, and nobody ever controls a neutral."""
    (canal,) = rs.board.canals
    assert set(canal.sea_zones) == {"Aegean Sea", "Black Sea"} and canal.controlled_by == ("Turkey",)
    assert rs.board.spaces["Turkey"].impassable


def test_unit_profiles(rs: Ruleset) -> None:
    """Combat Units profiles (cost, attack, defence, move): the garbled first reference chart is read
    from the profiles and the Great Britain setup chart (DIGEST §5 EUR.3)."""
    table = {name: (u.cost, u.attack, u.defense, u.move) for name, u in rs.units.items()}
    assert table == {
        "infantry": (3, 1, 2, 1), "artillery": (4, 2, 2, 1), "armor": (5, 3, 2, 2), "antiaircraft gun": (5, 0, 0, 1),
        "industrial complex": (0, 0, 0, 0), "fighter": (12, 3, 4, 4), "bomber": (15, 4, 1, 6), "battleship": (24, 4, 4, 2),
        "aircraft carrier": (18, 1, 3, 2), "destroyer": (12, 3, 3, 2), "transport": (8, 0, 1, 2), "submarine": (8, 2, 2, 2)}
    assert rs.units["battleship"].hits == 2 and rs.units["aircraft carrier"].carrier_capacity == 2
    assert rs.units["destroyer"].bombard == 3 and rs.units["battleship"].bombard == 4


def test_geometry_draws_every_space(rs: Ruleset) -> None:
    """The map picture: every space of the map has an outline in geometry.json (converted from
    TripleA's map folder by `python -m pbem.io.triplea_geometry ... --strip-sea-zone-suffix`)."""
    geometry = load_geometry(COMMITTED / "geometry.json")
    assert set(geometry.spaces) == set(rs.board.spaces)
    assert all(geometry.spaces[n].sea == s.is_sea for n, s in rs.board.spaces.items())
