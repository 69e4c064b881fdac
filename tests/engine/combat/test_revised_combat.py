"""Revised battles under fixed dice (shared/rules/revised.txt, Phase 4: Conduct Combat, Unit Profiles,
FAQ), and the odds calculator following the same rules."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from combat_helpers import Fixed, L
from pbem.engine.combat import Battle, Force, Orders, RetreatCondition, bombing_raid, fight, rocket_strike
from pbem.engine.combat.model import CasualtiesChosen, DiceRolled, Submerged
from pbem.engine.model import UnitType
from pbem.odds import battle_odds
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES as A42
from pbem.rulesets.revised.combat_rules import COMBAT_RULES as R

UNITS_YAML = Path(__file__).resolve().parents[3] / "pbem" / "rulesets" / "revised" / "units.yaml"
UNITS = {
    name: UnitType(name=name, domain=d["domain"], cost=d["cost"], attack=d["attack"], defense=d["defense"],
                   move=d["move"], hits=d.get("hits", 1), tags=frozenset(d.get("tags", [])), bombard=d.get("bombard", 0))
    for name, d in yaml.safe_load(UNITS_YAML.read_text())["units"].items()
}
S, T = "SZ 7", "Western Europe"


def sea(attack: dict[str, int], defend: dict[str, int], **kw: object) -> Battle:
    return Battle(S, "sea", "United Kingdom", tuple(Force(u, "United Kingdom", n) for u, n in attack.items()),
                  tuple(Force(u, "Germany", n) for u, n in defend.items()), UNITS, R, retreat_to=("SZ 8",), **kw)  # type: ignore[arg-type]


def land(attack: dict[str, int], defend: dict[str, int], seaborne: dict[str, int] | None = None, **kw: object) -> Battle:
    forces = tuple(Force(u, "United Kingdom", n) for u, n in attack.items())
    forces += tuple(Force(u, "United Kingdom", n, seaborne=True) for u, n in (seaborne or {}).items())
    return Battle(T, "land", "United Kingdom", forces, tuple(Force(u, "Germany", n) for u, n in defend.items()),
                  UNITS, R, retreat_to=("United Kingdom",), **kw)  # type: ignore[arg-type]


def lost(outcome, side):
    return [c.unit for e in outcome.events if isinstance(e, CasualtiesChosen) and e.side == side for c in e.casualties]


# --- submarines -------------------------------------------------------------------------------


def test_subs_of_both_sides_fire_in_opening_fire_at_their_own_values():
    """Step 2, Submarines: "Both attacking and defending submarines fire in this step ... Roll for
    attacking submarines before defending submarines"; both hit on 2 (Submarine profile)."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [2], L(S, 1, "surprise-defender"): [2]})
    out = fight(sea({"submarine": 1}, {"submarine": 1}), dice)
    assert out.winner == "draw" and out.rounds == 1
    assert dice.asked == [(L(S, 1, "surprise-attacker"), 1), (L(S, 1, "surprise-defender"), 1)]


def test_sub_victims_without_a_destroyer_never_fire_back():
    """Submarine profile "Sneak Attack": "Casualties from this attack will be destroyed before they
    can return fire, unless an enemy destroyer is present"."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1]})
    out = fight(sea({"submarine": 1}, {"aircraft carrier": 1}), dice)
    assert out.winner == "attacker" and dice.unused() == {}


def test_a_destroyer_never_stops_the_sub_but_its_side_fires_back():
    """FAQ: "Nothing, not even a destroyer, ever stops a sub from rolling its die"; "My sub attacks
    an enemy destroyer and hits it ... Does the destroyer get to shoot back? Yes." (step 3)."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1], L(S, 1, "defender"): [3]})
    out = fight(sea({"submarine": 1}, {"destroyer": 1}), dice)
    assert out.winner == "draw"
    assert [label for label, _ in dice.asked] == [L(S, 1, "surprise-attacker"), L(S, 1, "defender")]


def test_sub_fires_every_round_and_only_in_opening_fire():
    """FAQ: subs fire in the opening fire step of every round, "That's the only time a sub ever fires"."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [6], L(S, 1, "defender"): [6],
                  L(S, 2, "surprise-attacker"): [1]})
    out = fight(sea({"submarine": 1}, {"transport": 1}), dice)
    assert out.winner == "attacker" and out.rounds == 2


def test_air_hits_subs_and_subs_cannot_hit_air_then_they_submerge_after_fire():
    """FAQ: a lone fighter against subs: "Submarines can only hit sea units. They must suffer a round
    of fire from the fighter before they can submerge."  Sneak Attack: "(Any sea or air unit can hit
    a submarine.)"  Step 7: submarines on both sides may submerge."""
    dice = Fixed({L(S, 1, "surprise-defender"): [1, 1], L(S, 1, "attacker"): [3]})
    out = fight(sea({"fighter": 1}, {"submarine": 2}), dice, Orders(), Orders(submerge="always"))
    rolled = next(e for e in out.events if isinstance(e, DiceRolled) and e.step == "surprise-defender")
    assert rolled.groups[0].group.fire_class == "not_air"
    assert lost(out, "defender") == ["submarine"] and lost(out, "attacker") == []
    assert any(isinstance(e, Submerged) and e.side == "defender" for e in out.events)
    assert out.submerged == {"Germany": {"submarine": 1}} and out.winner == "attacker"


def test_subs_cannot_submerge_while_an_enemy_destroyer_is_in_the_battle():
    """Destroyer profile: "enemy submarines cannot submerge while your destroyer is present"."""
    dice = Fixed({L(S, 1, "surprise-defender"): [6], L(S, 1, "attacker"): [1]})
    out = fight(sea({"destroyer": 1}, {"submarine": 1}), dice, Orders(), Orders(submerge="always"))
    assert out.winner == "attacker" and out.submerged == {}


def test_attacking_sub_submerges_at_the_press_or_retreat_step():
    """Step 7 / Submerge: "A submarine may submerge in combat after the attacker and defender have fired"."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [6], L(S, 1, "defender"): [6]})
    out = fight(sea({"submarine": 1}, {"battleship": 1}), dice, Orders(submerge="always"))
    assert out.rounds == 1 and out.submerged == {"United Kingdom": {"submarine": 1}}
    assert out.attacker_survivors == {"United Kingdom": {"submarine": 1}}


def test_super_submarines_attack_on_three():
    """Weapons Developments, 3: "Your submarines are now super submarines. Their attack increases to 3"."""
    supers = {"United Kingdom": {"submarine": dataclasses.replace(UNITS["submarine"], attack=3)}}
    dice = Fixed({L(S, 1, "surprise-attacker"): [3]})
    assert fight(sea({"submarine": 1}, {"transport": 1}, profiles=supers), dice).winner == "attacker"


# --- transports -------------------------------------------------------------------------------


def test_transports_defend_on_one_and_are_not_chosen_last():
    """Transport profile "Defense: 1"; casualties in any order (no "transports chosen last")."""
    dice = Fixed({L(S, 1, "attacker"): [1], L(S, 1, "defender"): [1, 6]})
    out = fight(sea({"destroyer": 1}, {"transport": 1, "destroyer": 1}), dice)
    assert lost(out, "defender") == ["transport"]  # cheapest first: 8 before 12
    assert lost(out, "attacker") == ["destroyer"]


def test_lone_attacking_transport_survives_the_defender_fire_step_before_retreating():
    """Transport profile: "If it is the only attacking unit left, it must survive the defender fires
    step before it can retreat"; no defenceless-transport rule; FAQ "the moving transport can't attack"."""
    dice = Fixed({L(S, 1, "defender"): [2]})
    out = fight(sea({"transport": 1}, {"transport": 1}), dice, Orders(retreat=RetreatCondition("after_round", 1)))
    assert out.winner == "retreat" and out.retreated == {"United Kingdom": {"transport": 1}}


# --- antiaircraft guns --------------------------------------------------------------------------


def test_one_gun_fires_one_targeted_die_per_aircraft():
    """Step 2, Antiaircraft Guns: "The defender rolls one die (only one antiaircraft gun fires) for
    each attacking air unit"; FAQ: the fire is targeted, "so that bombers will be forced to take hits"."""
    dice = Fixed({L(T, 1, "aa"): [1, 6, 6], L(T, 1, "attacker"): [6, 6, 6], L(T, 1, "defender"): [6]})
    out = fight(land({"fighter": 2, "bomber": 1, "tank": 1}, {"antiaircraft gun": 2, "infantry": 1}), dice,
                Orders(order_of_loss=("fighter",), retreat=RetreatCondition("after_round", 1)))
    aa = next(e for e in out.events if isinstance(e, DiceRolled) and e.step == "aa")
    assert [(g.group.fire_class, g.group.count) for g in aa.groups] == [("target:bomber", 1), ("target:fighter", 2)]
    assert lost(out, "attacker") == ["bomber"]  # the die rolled at the bomber hit, whatever the order of loss


def test_aa_gun_is_never_a_casualty_and_is_captured():
    """AA profile: "Antiaircraft guns are never destroyed ... If a territory is captured, any
    antiaircraft guns there are also captured"."""
    dice = Fixed({L(T, 1, "attacker"): [1, 1], L(T, 1, "defender"): [6]})
    out = fight(land({"tank": 2}, {"infantry": 1, "antiaircraft gun": 1}), dice)
    assert out.winner == "attacker" and out.captured and out.rounds == 1
    assert out.defender_survivors == {"Germany": {"antiaircraft gun": 1}}
    assert lost(out, "defender") == ["infantry"]


def test_aa_gun_alone_fires_at_aircraft_then_the_territory_falls():
    """Blitzing: a territory with only AA guns is taken without dice; AA fire still meets aircraft
    that enter it (Antiaircraft Guns, Combat Move)."""
    assert fight(land({"tank": 1}, {"antiaircraft gun": 1}), Fixed({})).captured
    dice = Fixed({L(T, 1, "aa"): [6]})
    out = fight(land({"tank": 1, "fighter": 1}, {"antiaircraft gun": 1}), dice)
    assert out.winner == "attacker" and out.captured and dice.unused() == {}


def test_superfortresses_are_not_fired_at():
    """Superfortresses: "An enemy antiaircraft gun can roll one die against only each attacking fighter"."""
    dice = Fixed({L(T, 1, "aa"): [1], L(T, 1, "attacker"): [1, 1], L(T, 1, "defender"): [6]})
    out = fight(land({"fighter": 1, "bomber": 1, "tank": 1}, {"antiaircraft gun": 1, "infantry": 1},
                     aa_immune=frozenset({"bomber"})), dice)
    assert lost(out, "attacker") == ["fighter"]


# --- amphibious assaults ------------------------------------------------------------------------


def test_every_battleship_bombards_once_and_victims_do_not_fire_back():
    """Battleship Bombardment: "Each battleship fires once" (no per-unit cap, DIGEST §5 REV.7);
    Shore Bombardment: "(the enemy units do not fire back)"; FAQ: first opening fire only."""
    dice = Fixed({L(T, 1, "bombard"): [4, 4], L(T, 1, "attacker"): [6], L(T, 1, "defender"): [6],
                  L(T, 2, "attacker"): [1], L(T, 2, "defender"): [6]})
    out = fight(land({}, {"infantry": 3}, seaborne={"infantry": 1}, bombard=("battleship", "battleship")), dice)
    assert out.winner == "attacker" and out.rounds == 2
    assert lost(out, "defender") == ["infantry"] * 3


def test_a_bombardment_that_leaves_no_defender_ends_the_battle_before_the_land_units_roll():
    """Shore Bombardment: "(the enemy units do not fire back)"; General Combat, Attacker or Defender
    Loses All Units: with every defender destroyed in opening fire the combat is over, so the
    landing force rolls no die at an empty territory."""
    dice = Fixed({L(T, 1, "bombard"): [4]})  # no attacker or defender dice: rolling them would fail
    out = fight(land({}, {"infantry": 1}, seaborne={"infantry": 2}, bombard=("battleship",)), dice)
    assert out.winner == "attacker" and out.rounds == 1 and out.captured
    assert lost(out, "defender") == ["infantry"]


def test_no_land_unit_retreats_from_an_amphibious_assault_but_air_does():
    """Amphibious Assaults, Land Combat: "attacking land units cannot retreat (not even if they came
    from adjacent territories or moved there over land)"; air units may retreat."""
    dice = Fixed({L(T, 1, "attacker"): [6, 6, 6], L(T, 1, "defender"): [6, 6],
                  L(T, 2, "attacker"): [1, 1], L(T, 2, "defender"): [6, 6]})
    out = fight(land({"tank": 1, "fighter": 1}, {"infantry": 2}, seaborne={"infantry": 1}), dice,
                Orders(retreat=RetreatCondition("after_round", 1)))
    assert out.retreated == {"United Kingdom": {"fighter": 1}}
    assert out.winner == "attacker" and out.captured
    assert A42.overland_can_retreat_from_amphibious and not R.overland_can_retreat_from_amphibious


def test_heavy_bombers_roll_two_dice_in_an_attack():
    """Weapons Developments, 6: "They roll two dice each in an attack ... but still only a single die on defense"."""
    dice = Fixed({L(T, 1, "attacker"): [6, 6, 1], L(T, 1, "defender"): [6]})  # tank, then the bomber's two
    out = fight(land({"bomber": 1, "tank": 1}, {"infantry": 1}, attack_dice={"United Kingdom": {"bomber": 2}}), dice)
    assert out.winner == "attacker"


# --- strategic bombing and rockets --------------------------------------------------------------


def test_raid_aa_gun_fires_at_each_bomber_and_loss_is_capped_per_bomber_and_by_treasury():
    """Strategic Bombing Raids: "an enemy antiaircraft gun fires on each attacking bomber ... each
    bomber can inflict no more IPC loss than the territory's income value" (FAQ "Per bomber"); the
    owner pays the lesser of the loss and its treasury (DIGEST §5 REV.1)."""
    dice = Fixed({"raid/Germany/aa": [1, 6, 6], "raid/Germany/damage": [6, 3]})
    out = bombing_raid("Germany", 4, 0, 3, dice, R, aa_guns=1, treasury=100)
    assert out.bombers_lost == 1 and out.damage_rolled == 9 and out.damage_applied == 4 + 3 and out.ipcs_lost == 7
    poor = bombing_raid("Germany", 10, 0, 1, Fixed({"raid/Germany/aa": [6], "raid/Germany/damage": [5]}), R,
                        aa_guns=1, treasury=2)
    assert poor.ipcs_lost == 2


def test_raid_without_an_aa_gun_is_not_fired_at():
    """Revised complexes have no built-in AA: only "defending antiaircraft guns" fire."""
    dice = Fixed({"raid/Karelia S.S.R./damage": [2]})
    out = bombing_raid("Karelia S.S.R.", 2, 0, 1, dice, R, aa_guns=0, treasury=10)
    assert out.ipcs_lost == 2 and not any(e.step == "aa" for e in out.events)


def test_heavy_bombers_roll_two_damage_dice_still_capped_by_income_value():
    """Heavy Bombers: "inflict two dice of IPC loss ... It still cannot inflict more loss than the
    territory's income value"."""
    dice = Fixed({"raid/Germany/aa": [6, 6], "raid/Germany/damage": [6, 6, 1, 2]})
    out = bombing_raid("Germany", 10, 0, 2, dice, R, aa_guns=1, treasury=50, damage_dice=2)
    assert out.damage_applied == 10 + 3


def test_rocket_strike_one_die_capped_by_income_and_treasury():
    """Rocket Strikes: no defence; at most the target's income value, "or as many as the player has"."""
    out = rocket_strike("Western Europe", "United Kingdom", 8, 30, Fixed({"rocket/Western Europe/United Kingdom": [6]}))
    assert out.ipcs_lost == 6
    assert rocket_strike("Germany", "Karelia S.S.R.", 2, 30, Fixed({"rocket/Germany/Karelia S.S.R.": [5]})).ipcs_lost == 2


# --- the odds calculator follows the same rules --------------------------------------------------


def test_odds_sub_against_destroyer_victim_fires_back():
    """Per round: sub hits 1/3, the destroyer fires back (hit or not) 1/2: A 1/6, draw 1/6, D 1/3."""
    odds = battle_odds(sea({"submarine": 1}, {"destroyer": 1}))
    assert odds.attacker_win == pytest.approx(1 / 4) and odds.draw == pytest.approx(1 / 4)
    assert odds.defender_win == pytest.approx(1 / 2)


def test_odds_sub_against_transport_victim_does_not_fire():
    """Sub hits 1/3 (the transport never fires); else the transport hits on 1: 2/3 × 1/6."""
    odds = battle_odds(sea({"submarine": 1}, {"transport": 1}))
    assert odds.attacker_win == pytest.approx(3 / 4) and odds.defender_win == pytest.approx(1 / 4)


def test_odds_aa_gun_with_infantry_against_fighter_and_tank():
    """Targeted AA in round 1, then the AA gun leaves the strip: only the infantry defends."""
    odds = battle_odds(land({"fighter": 1, "tank": 1}, {"antiaircraft gun": 1, "infantry": 1}))
    total = odds.attacker_win + odds.defender_win + odds.draw + odds.stalemate + odds.retreat
    assert total == pytest.approx(1.0) and odds.stalemate == 0
    assert odds.expected_survivors["defender"].get("antiaircraft gun") == pytest.approx(1.0)
