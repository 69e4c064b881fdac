"""Revised National Advantages that change how a battle is fought (Appendix 3 and FAQ): Atlantic
Wall, Marines, Kaiten Torpedoes, Kamikaze Attacks (pbem.rulesets.revised.advantages_combat) and
Luftwaffe Dive-Bombers (pbem.engine.combat.sbr)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from pbem.engine.combat import Battle, Force, Sacrifice, bombing_raid, fight
from pbem.engine.orders import DefencePolicy, StandingOrders
from pbem.io.rulesets import load_ruleset_dir
from pbem.rulesets.revised.advantages_combat import battle_advantages_with_combat
from pbem.rulesets.revised.combat_rules import COMBAT_RULES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine" / "combat"))
from combat_helpers import Fixed, L  # noqa: E402

import tests.engine.scenario as scenario  # noqa: E402
from tests.engine.scenario import play, state, units_at  # noqa: E402

RS = load_ruleset_dir(Path(__file__).resolve().parents[3] / "pbem" / "rulesets" / "revised")
UNITS = RS.units
R = "revised"


def adv(options, **kw):
    base = dict(kind="land", attacker="United States", defenders=frozenset({"Germany"}), attacking_units={"infantry": 2},
                original_owner="Germany", controller="Germany", island=False)
    base.update(kw)
    return battle_advantages_with_combat({o: True for o in options}, UNITS, **base)


def test_first_cycle_profiles_of_atlantic_wall_and_marines():
    """Atlantic Wall: German infantry "defend on a 3 during the first cycle" of an amphibious assault
    against a gray territory; Marines: U.S. infantry "attacks on a 2 in the first cycle"."""
    both = adv({"atlantic_wall", "marines"})
    assert both.amphibious_first_cycle["Germany"]["infantry"].defense == 3
    assert both.amphibious_first_cycle["United States"]["infantry"].attack == 2
    assert both.profiles == {}  # nothing for the whole battle
    assert "Germany" not in adv({"atlantic_wall"}, controller="United Kingdom").amphibious_first_cycle
    assert adv({"atlantic_wall"}, original_owner="Soviet Union", controller="Soviet Union").amphibious_first_cycle == {}
    assert adv({"marines"}, attacker="United Kingdom").amphibious_first_cycle == {}
    assert adv(set()).amphibious_first_cycle == {} and adv({"marines"}, kind="sea").amphibious_first_cycle == {}


def test_sacrifice_values_of_kamikaze_and_kaiten():
    kamikaze = adv({"kamikaze_attacks"}, kind="sea", attacker="Japan", defenders=frozenset({"United States"}))
    assert kamikaze.sacrifice_values["Japan"]["fighter"] == 3 and kamikaze.sacrifice_values["Japan"]["bomber"] == 4
    kaiten = adv({"kaiten_torpedoes"}, kind="sea", defenders=frozenset({"Japan"}))
    assert kaiten.sacrifice_values == {"Japan": {"submarine": 3}} and kaiten.sacrifice_home_waters == {"Japan"}
    supers = adv({"kaiten_torpedoes"}, kind="sea", defenders=frozenset({"Japan"}), super_submarines=frozenset({"Japan"}))
    assert supers.sacrifice_values == {"Japan": {"submarine": 4}}
    assert adv({"kaiten_torpedoes", "kamikaze_attacks"}, kind="sea").sacrifice_values == {}


def test_kamikaze_battle_with_the_values_given():
    values = adv({"kamikaze_attacks"}, kind="sea", attacker="Japan", defenders=frozenset({"United States"})).sacrifice_values
    battle = Battle("SZ 56", "sea", "Japan", (), (Force("battleship", "United States", 1), Force("fighter", "United States", 1)),
                    UNITS, COMBAT_RULES, sacrifices=(Sacrifice("attacker", "Japan", "bomber", 1, values["Japan"]["bomber"]),))
    out = fight(battle, Fixed({L("SZ 56", 1, "sacrifice-attacker"): [4]}))
    assert out.damaged == {"United States": {"battleship": 1}} and out.attacker_lost == {"Japan": {"bomber": 1}}


# --- in a played turn (Rules.hooks.battle_modifiers pointed to battle_advantages_with_combat) -------------


@pytest.fixture
def wired(monkeypatch):
    real = scenario._system

    def system(ruleset_id):
        ruleset, rules, combat = real(ruleset_id)
        return ruleset, replace(rules, hooks=replace(rules.hooks, battle_modifiers=battle_advantages_with_combat)), combat

    monkeypatch.setattr(scenario, "_system", system)


def _landing():
    st = state(turn="United States", ruleset=R, clear=("SZ 7", "Western Europe"),
               units={"SZ 7": {"United States": {"transport": 1, "infantry": 2}}, "Western Europe": {"Germany": {"infantry": 1}}})
    return st, "combat_move:\n  - {units: 2 infantry, from: SZ 7, to: Western Europe}\n"


def test_marines_and_atlantic_wall_in_an_amphibious_assault(wired):
    st, body = _landing()
    dice = {"battle/Western Europe/round-1/attacker": [2, 6], "battle/Western Europe/round-1/defender": [3]}
    result = play(st, "United States", body, dice=dice, options={"marines": True, "atlantic_wall": True})
    battle = result.log.battles[0]["battle"]
    assert battle.first_cycle_profiles["United States"]["infantry"].attack == 2
    outcome = result.log.battles[0]["outcome"]
    assert outcome.winner == "attacker" and outcome.attacker_lost == {"United States": {"infantry": 1}}
    assert units_at(result.state, "Western Europe", "United States") == {"infantry": 1}
    # Without the options the same dice: the 2 misses, the 3 misses, a second round follows.
    plain = play(st, "United States", body, dice={**dice, "battle/Western Europe/round-2/attacker": [1, 6],
                                                  "battle/Western Europe/round-2/defender": [6]})
    assert plain.log.battles[0]["battle"].first_cycle_profiles == {} and plain.log.battles[0]["outcome"].rounds == 2


@dataclass(frozen=True)
class KaitenPolicy(DefencePolicy):
    kaiten: int = 0  # what the standing orders would say (another module's field)


def test_kaiten_torpedo_from_standing_orders_in_home_waters(wired):
    st = state(turn="United States", ruleset=R, clear=("SZ 61", "SZ 60"),
               units={"SZ 60": {"United States": {"destroyer": 2}}, "SZ 61": {"Japan": {"submarine": 2}}})
    body = "combat_move:\n  - {units: 2 destroyer, from: SZ 60, to: SZ 61}\n"
    japan = {"Japan": StandingOrders("Japan", KaitenPolicy(kaiten=1), explicit=True)}
    dice = {"battle/SZ 61/round-1/surprise-defender": [6], "battle/SZ 61/round-1/sacrifice-defender": [3],
            "battle/SZ 61/round-1/attacker": [1, 6]}
    result = play(st, "United States", body, dice=dice, standing=japan, options={"kaiten_torpedoes": True})
    outcome = result.log.battles[0]["outcome"]
    assert outcome.sacrificed == {"Japan": {"submarine": 1}} and outcome.winner == "attacker"
    assert units_at(result.state, "SZ 61", "Japan") == {}
    assert units_at(result.state, "SZ 61", "United States") == {"destroyer": 1}


# --- Luftwaffe Dive-Bombers ----------------------------------------------------------------------


def test_dive_bombers_are_fired_at_and_roll_halved_dice():
    """ "They are subject to antiaircraft fire as normal. Roll one die for IPC loss per fighter ...
    but divide each die roll by 2, rounded up" (capped per fighter at the income value)."""
    dice = Fixed({"raid/United Kingdom/aa-dive": [1, 6, 6], "raid/United Kingdom/dive-damage": [5, 2]})
    out = bombing_raid("United Kingdom", 8, 0, 0, dice, COMBAT_RULES, aa_guns=1, treasury=30, dive_bombers=3)
    assert out.dive_bombers_lost == 1 and out.damage_rolled == 4 and out.ipcs_lost == 4 and dice.unused() == {}
    # beside a bomber, whose dice are its own; the per-raider cap is the income value
    dice = Fixed({"raid/Karelia S.S.R./aa": [6], "raid/Karelia S.S.R./damage": [6],
                  "raid/Karelia S.S.R./aa-dive": [6], "raid/Karelia S.S.R./dive-damage": [6]})
    out = bombing_raid("Karelia S.S.R.", 2, 0, 1, dice, COMBAT_RULES, aa_guns=1, treasury=30, dive_bombers=1)
    assert out.damage_rolled == 9 and out.ipcs_lost == 4 and out.bombers_lost == 0


def test_dive_bombers_raid_in_a_played_turn():
    st = state(turn="Germany", ruleset=R)
    body = ("combat_move:\n  - {units: 1 fighter, from: Western Europe, to: United Kingdom, mission: strategic_bombing}\n"
            "noncombat_move:\n  - {units: 1 fighter, from: United Kingdom, to: Western Europe}\n")
    result = play(st, "Germany", body, options={"luftwaffe_dive_bombers": True},
                  dice={"raid/United Kingdom/aa-dive": [4], "raid/United Kingdom/dive-damage": [5]})
    raid = result.log.bombing[0]
    assert raid["dive_bombers"] == 1 and raid["outcome"].ipcs_lost == 3
    assert result.state.treasury["United Kingdom"] == st.treasury["United Kingdom"] - 3
