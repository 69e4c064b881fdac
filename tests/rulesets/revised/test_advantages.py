"""Revised National Advantages that change battles, checked with fixed dice (Appendix 3)."""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.engine.combat import Battle, Force, fight
from pbem.io.rulesets import load_ruleset_dir
from pbem.rulesets.revised.advantages import battle_advantages, movement_profiles, u_boat_interdiction
from pbem.rulesets.revised.combat_rules import COMBAT_RULES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine" / "combat"))
from combat_helpers import Fixed, L  # noqa: E402

RS = load_ruleset_dir(Path(__file__).resolve().parents[3] / "pbem" / "rulesets" / "revised")
UNITS = RS.units


def adv(options, **kw):
    base = dict(kind="land", attacker="United Kingdom", defenders=frozenset({"Germany"}), attacking_units={"tank": 1},
                original_owner="Germany", controller="Germany", island=False)
    base.update(kw)
    return battle_advantages({o: True for o in options}, UNITS, **base)


def test_fortress_europe_artillery_defends_on_three_in_gray_territories_only():
    a = adv({"fortress_europe"})
    assert a.profiles["Germany"]["artillery"].defense == 3
    battle = Battle("Western Europe", "land", "United Kingdom", (Force("tank", "United Kingdom", 1),),
                    (Force("artillery", "Germany", 1),), UNITS, COMBAT_RULES, profiles=a.profiles)
    assert fight(battle, Fixed({L("Western Europe", 1, "attacker"): [6], L("Western Europe", 1, "defender"): [3]})).winner == "defender"
    assert adv({"fortress_europe"}, original_owner="Soviet Union").profiles == {}
    assert adv(set()).profiles == {}


def test_russian_winter_dug_in_defenders_banzai():
    assert adv({"russian_winter"}, defenders=frozenset({"Soviet Union"}), russian_winter=True).profiles["Soviet Union"]["infantry"].defense == 3
    assert adv({"russian_winter"}, defenders=frozenset({"Soviet Union"})).profiles == {}
    assert adv({"dug_in_defenders"}, defenders=frozenset({"Japan"}), island=True).profiles["Japan"]["infantry"].defense == 3
    assert adv({"dug_in_defenders"}, defenders=frozenset({"Japan"}), island=False).profiles == {}
    banzai = adv({"banzai_attacks"}, attacker="Japan", attacking_units={"infantry": 3})
    assert banzai.profiles["Japan"]["infantry"].attack == 2
    # FAQ: "the air units prevent you from using the Banzai Attacks advantage"
    assert adv({"banzai_attacks"}, attacker="Japan", attacking_units={"infantry": 3, "fighter": 1}).profiles == {}


def test_wolf_packs_radar_superfortresses():
    wolves = adv({"wolf_packs"}, kind="sea", attacker="Germany", attacking_subs_moved_in=3)
    assert wolves.profiles["Germany"]["submarine"].attack == 3
    assert adv({"wolf_packs"}, kind="sea", attacker="Germany", attacking_subs_moved_in=3,
               super_submarines=frozenset({"Germany"})).profiles["Germany"]["submarine"].attack == 4
    assert adv({"wolf_packs"}, kind="sea", attacker="Germany", attacking_subs_moved_in=2).profiles == {}
    radar = adv({"radar"}, attacker="Germany", defenders=frozenset({"United Kingdom"}),
                original_owner="United Kingdom", controller="United Kingdom")
    assert radar.aa_hit == 2
    assert adv({"superfortresses"}, attacker="United States").aa_immune == {"bomber"}


def test_mechanized_infantry_fast_carriers_u_boat_interdiction():
    moves = movement_profiles({"mechanized_infantry": True, "fast_carriers": True}, UNITS, "United States")
    assert moves["infantry"].move == 2 and moves["infantry"].has("blitz") and moves["aircraft carrier"].move == 3
    assert movement_profiles({"fast_carriers": True}, UNITS, "Japan") == {}
    assert u_boat_interdiction({"u_boat_interdiction": True}, "United Kingdom", 4) == 4
    assert u_boat_interdiction({"u_boat_interdiction": True}, "Soviet Union", 4) == 0
