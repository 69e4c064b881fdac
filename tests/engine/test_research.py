"""Weapons development (Revised, Phase 1: Develop Weapons) with fixed dice."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbem.engine.model import UnitType
from pbem.engine.research import (
    DEVELOPMENTS, attack_dice, develop_weapons, raid_damage_dice, research_problems, roll_research, unit_profiles,
)

UNITS = {
    n: UnitType(name=n, domain=d["domain"], cost=d["cost"], attack=d["attack"], defense=d["defense"], move=d["move"],
                tags=frozenset(d.get("tags", [])), bombard=d.get("bombard", 0))
    for n, d in yaml.safe_load((Path(__file__).resolve().parents[2] / "pbem/rulesets/revised/units.yaml").read_text())["units"].items()
}


class Fixed:
    def __init__(self, faces):
        self.faces = list(faces)
        self.asked = []

    def roll(self, label, count):
        self.asked.append((label, count))
        out, self.faces = self.faces[:count], self.faces[count:]
        return tuple(out)


def test_chart_numbers():
    """Weapons Developments: 1 Jet Fighters ... 6 Heavy Bombers; "if you want the Super Submarines
    development, you need to roll a 3"."""
    assert DEVELOPMENTS == {"jet_fighters": 1, "rockets": 2, "super_submarines": 3, "long_range_aircraft": 4,
                            "combined_bombardment": 5, "heavy_bombers": 6}


def test_any_die_showing_the_number_succeeds_and_the_fee_is_paid_anyway():
    """Step 3: "If you rolled the required number for the chosen development on any die" you have it;
    each die costs 5 IPCs, "The money you pay is just a research fee"."""
    got = develop_weapons("Germany", "super_submarines", (6, 3, 1), frozenset())
    assert got.success and got.cost == 15 and got.developments == {"super_submarines"}
    miss = develop_weapons("Germany", "super_submarines", (6, 2, 1), frozenset({"rockets"}))
    assert not miss.success and miss.cost == 15 and miss.developments == {"rockets"}


def test_roll_research_asks_one_labelled_roll():
    dice = Fixed([1, 1])
    got = roll_research("Japan", "jet_fighters", 2, frozenset(), dice, 3)
    assert got.success and dice.asked == [("research/Japan/round-3", 2)]


def test_research_problems():
    """Step 2: "Each die costs 5 IPCs"; one chosen development per turn; a known one is pointless."""
    assert research_problems("rockets", 4, 20, frozenset()) == []
    assert [p.code for p in research_problems("rockets", 5, 20, frozenset())] == ["research.cost"]
    assert [p.code for p in research_problems("rockets", 1, 20, frozenset({"rockets"}))] == ["research.known"]
    assert [p.code for p in research_problems("death_ray", 1, 20, frozenset())] == ["research.unknown"]
    assert [p.code for p in research_problems("rockets", 1, 20, frozenset(), enabled=False)] == ["research.disabled"]
    assert [p.code for p in research_problems("rockets", 0, 20, frozenset())] == ["research.no-dice"]


def test_developments_change_the_profiles():
    """Unit Profiles: fighter "Defense: 4 (5 with Jet Fighters)", "Move: 4 (6 with Long-Range
    Aircraft)"; bomber "6 (8 with Long-Range Aircraft)"; submarine attack 3 (Super Submarines);
    destroyers bombard at 3 (Combined Bombardment)."""
    all_six = frozenset(DEVELOPMENTS)
    p = unit_profiles(UNITS, all_six)
    assert (p["fighter"].defense, p["fighter"].move, p["bomber"].move, p["submarine"].attack) == (5, 6, 8, 3)
    assert p["destroyer"].bombard == 3 and p["destroyer"].has("bombard")
    assert set(p) == {"fighter", "bomber", "submarine", "destroyer"}
    assert unit_profiles(UNITS, frozenset()) == {}
    assert attack_dice(UNITS, all_six) == {"bomber": 2} and raid_damage_dice(all_six) == 2
    assert attack_dice(UNITS, frozenset()) == {} and raid_damage_dice(frozenset()) is None


def test_a_purchase_over_budget_after_research_names_the_research() -> None:
    """Develop Weapons comes before Purchase Units (Revised, Order of Play): the research dice are
    paid first, so a purchase refused for want of money says what the research took (issue 14)."""
    from tests.engine.scenario import state, validate

    st = state(turn="Soviet Union", ruleset="revised")
    problems = validate(st, "Soviet Union", "develop: {development: Jet Fighters, dice: 3}\npurchase: {infantry: 4}\n")
    assert [p.code for p in problems] == ["purchase.too-expensive"]
    assert "has 9 left after 15 IPCs of research dice" in problems[0].message
    assert "fewer research dice" in (problems[0].hint or "")
