"""The Revised data checked against the rulebook (shared/rules/revised.txt, errata and FAQ folded in).

The rulebook has no page numbers, so tests cite its sections.  Where TripleA's ww2v2.xml differs,
the importer's Revised profile applies the rulebook; `test_correction_*` pins each correction and
`test_import_reproduces_committed_file` that the YAML is exactly the importer's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine.ruleset import Ruleset
from pbem.io.rulesets import load_ruleset_dir
from pbem.io.triplea import import_triplea

REPO = Path(__file__).resolve().parents[3]
XML = REPO.parent / "shared" / "data" / "triplea" / "revised" / "ww2v2.xml"
COMMITTED = REPO / "pbem" / "rulesets" / "revised"


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load_ruleset_dir(COMMITTED)


@pytest.mark.skipif(not XML.is_file(), reason="shared TripleA data not present")
@pytest.mark.parametrize("name", ["map.yaml", "setup.yaml"])
def test_import_reproduces_committed_file(tmp_path: Path, name: str) -> None:
    """`pbem ruleset import-triplea ww2v2.xml --ruleset revised` writes the committed files."""
    import_triplea(XML, tmp_path, ruleset_id="revised")
    assert (tmp_path / name).read_bytes() == (COMMITTED / name).read_bytes()


def test_turn_order_and_sides(rs: Ruleset) -> None:
    """Order of Play: Soviet Union, Germany, United Kingdom, Japan, United States, then check for
    victory; Your World at War: the Axis is Germany and Japan."""
    assert rs.turn_order == ("Soviet Union", "Germany", "United Kingdom", "Japan", "United States")
    assert {p.name for p in rs.powers if p.side == "Axis"} == {"Germany", "Japan"}
    assert rs.victory.checked_after == "United States"


def test_starting_treasury_is_the_national_production(rs: Ruleset) -> None:
    """Setup, Industrial Production Certificates: 24/40/30/30/42, "equal to each power's beginning
    national production level" - and TripleA's territory values sum to exactly that."""
    expected = {"Soviet Union": 24, "Germany": 40, "United Kingdom": 30, "Japan": 30, "United States": 42}
    assert {p.name: p.starting_treasury for p in rs.powers} == expected
    assert dict(rs.setup.treasury) == expected
    income: dict[str, int] = {}
    for territory, power in rs.setup.control.items():
        income[power] = income.get(power, 0) + rs.board.spaces[territory].ipc
    assert income == expected


def test_seven_phases_with_develop_weapons_first(rs: Ruleset) -> None:
    """Turn Sequence: develop weapons, purchase, combat move, conduct combat, noncombat move,
    mobilize, collect income (the one mandatory phase)."""
    assert [p.id for p in rs.phases] == [
        "develop_weapons", "purchase", "combat_move", "conduct_combat", "noncombat_move", "mobilize", "collect_income",
    ]
    assert [p.id for p in rs.phases if p.mandatory] == ["collect_income"]


def test_capitals(rs: Ruleset) -> None:
    """Capturing and Liberating Capitals: Washington, Moscow, London, Berlin, Tokyo."""
    capitals = {p.name: p.capital for p in rs.powers}
    assert capitals == {
        "Soviet Union": "Russia", "Germany": "Germany", "United Kingdom": "United Kingdom",
        "Japan": "Japan", "United States": "Eastern United States",
    }
    for power, territory in capitals.items():
        assert rs.board.spaces[territory].capital_of == power
        assert rs.setup.control[territory] == power


def test_twelve_victory_cities_six_per_side(rs: Ruleset) -> None:
    """How the War Is Won: Allies hold Washington, London, Leningrad, Moscow, Calcutta and Los
    Angeles; the Axis Berlin, Paris, Rome, Shanghai, Manila and Tokyo; 8/10/12 to win."""
    cities = rs.victory_cities()
    assert len(cities) == rs.victory.cities == 12
    held = {city: rs.side_of(rs.setup.control[t]) for city, t in cities.items()}
    assert {c for c, s in held.items() if s == "Allies"} == {"Washington", "London", "Leningrad", "Moscow", "Calcutta", "Los Angeles"}
    assert {c for c, s in held.items() if s == "Axis"} == {"Berlin", "Paris", "Rome", "Shanghai", "Manila", "Tokyo"}
    assert dict(rs.victory.conditions) == {"minor": 8, "major": 10, "total": 12}


def test_unit_profiles(rs: Ruleset) -> None:
    """Appendix 1: Unit Profiles, cost attack/defense/move of every unit."""
    table = {
        "infantry": (3, 1, 2, 1), "artillery": (4, 2, 2, 1), "tank": (5, 3, 3, 2),
        "antiaircraft gun": (5, 0, 0, 1), "industrial complex": (15, 0, 0, 0),
        "fighter": (10, 3, 4, 4), "bomber": (15, 4, 1, 6), "battleship": (24, 4, 4, 2),
        "aircraft carrier": (16, 1, 3, 2), "destroyer": (12, 3, 3, 2), "submarine": (8, 2, 2, 2),
        "transport": (8, 0, 1, 2),
    }
    assert {n: (u.cost, u.attack, u.defense, u.move) for n, u in rs.units.items()} == table
    assert rs.units["battleship"].hits == 2 and rs.units["aircraft carrier"].hits == 1
    assert rs.units["battleship"].bombard == 4 and rs.units["destroyer"].bombard == 0
    assert rs.units["aircraft carrier"].carrier_capacity == 2
    assert rs.unit("AA gun").name == "antiaircraft gun"


def test_setup_uses_only_revised_units(rs: Ruleset) -> None:
    for stacks in rs.setup.units.values():
        for units in stacks.values():
            assert set(units) <= set(rs.units)


def test_faq_map_facts(rs: Ruleset) -> None:
    """FAQ, Map: SZ 14 does not touch the Balkans, SZ 35 not French Indochina; SZ 40 (south of
    Australia) joins SZ 39 and SZ 41; the Suez canal lies between Anglo-Egypt and Trans-Jordan and
    Panama controls the Panama canal (Canals); Gibraltar is a U.K. territory."""
    b = rs.board
    assert not b.are_adjacent("SZ 14", "Balkans")
    assert not b.are_adjacent("SZ 35", "French Indochina")
    assert b.are_adjacent("SZ 40", "SZ 39") and b.are_adjacent("SZ 40", "SZ 41")
    assert b.are_adjacent("Anglo-Egypt", "Trans-Jordan")
    canals = {c.name: c for c in b.canals}
    assert set(canals["Suez Canal"].sea_zones) == {"SZ 15", "SZ 34"}
    assert canals["Suez Canal"].controlled_by == ("Anglo-Egypt", "Trans-Jordan")
    assert set(canals["Panama Canal"].sea_zones) == {"SZ 19", "SZ 20"}
    assert canals["Panama Canal"].controlled_by == ("Panama",)
    assert rs.setup.control["Gibraltar"] == "United Kingdom"


def test_wrong_connection_fixed_upstream_stays_out(rs: Ruleset) -> None:
    """SOURCE.md: TripleA's engine copy joins SZ 63 and Western Canada; the map repository removed
    that wrong connection (Western Canada is on the Pacific only through SZ 64 / SZ 55)."""
    assert not rs.board.are_adjacent("SZ 63", "Western Canada")


def test_neutrals_are_impassable_and_worthless(rs: Ruleset) -> None:
    """Spaces on the Game Board, Neutral Territories (Turkey, Mongolia, Sahara, ...)."""
    for name in ("Turkey", "Mongolia", "Sahara", "Spain", "Sweden", "Switzerland"):
        s = rs.board.spaces[name]
        assert s.impassable and s.original_owner is None and s.ipc == 0
        assert name not in rs.setup.control


def test_rulebook_spellings_with_triplea_aliases(rs: Ruleset) -> None:
    """Canals ("Anglo-Egypt"), Chinese Divisions ("Kwangtung"), Island Bases ("Hawaii")."""
    assert rs.board.spaces["Anglo-Egypt"].aliases[0] == "Anglo Egypt"
    assert "Kwantung" in rs.board.spaces["Kwangtung"].aliases
    assert "Hawaii" in rs.board.spaces["Hawaiian Islands"].aliases
    assert "Philipine Islands" in rs.board.spaces["Philippine Islands"].aliases
    for name in ("China", "Sinkiang", "French Indochina", "Persia", "Novosibirsk", "Yakut S.S.R.", "Buryatia S.S.R.",
                 "Western Europe", "Eastern Canada", "New Zealand", "Solomon Islands", "West Indies", "East Indies"):
        assert name in rs.board.spaces


def test_correction_islands_lie_inside_one_sea_zone(rs: Ruleset) -> None:
    """FAQ (Dug-In Defenders): "an island is a territory that is located entirely inside a single
    sea zone ... Japan is not an island (neither are the UK or Australia)".  TripleA's rule (no land
    neighbour) would make Japan, Australia and French Madagascar islands; the import corrects them."""
    spaces = rs.board.spaces
    for name in ("Japan", "Australia", "French Madagascar", "United Kingdom"):
        assert not spaces[name].island
    islands = {n for n, s in spaces.items() if s.island}
    assert {"Hawaiian Islands", "Wake Island", "Midway", "Solomon Islands", "Philippine Islands", "Okinawa"} <= islands
    for name in islands:
        seas = [n for n in rs.board.neighbours(name) if spaces[n].is_sea]
        assert len(seas) == 1 and len(seas) == len(rs.board.neighbours(name)), name


def test_every_national_advantage_is_an_option_off_by_default(rs: Ruleset) -> None:
    """Appendix 3: the National Advantages Table lists six advantages for each of the five powers."""
    advantages = {n: o for n, o in rs.options.items() if o.rule.startswith("Appendix 3, National Advantages Table")}
    assert len(advantages) == 30  # five powers, a d6 each
    # Off by default; Colonial Garrison's value names its territory ("none": not used).
    assert all(o.default is False and set(o.allowed) == {False, True}
               for n, o in advantages.items() if n != "colonial_garrison")
    garrison = advantages["colonial_garrison"]
    assert garrison.default == "none" and "Anglo-Egypt" in garrison.allowed and "India" in garrison.allowed
    assert {"russian_winter", "wolf_packs", "radar", "kamikaze_attacks", "superfortresses"} <= set(advantages)
