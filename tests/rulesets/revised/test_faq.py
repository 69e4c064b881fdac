"""Axis & Allies Revised FAQ rulings that change how the rules apply (shared/rules/revised.txt, FAQ;
DIGEST §1.3 "Other FAQ rulings"). Each docstring quotes the question and answer."""

from __future__ import annotations

from tests.engine.combat.combat_helpers import Fixed, L
from pbem.engine.combat import Battle, Force, Orders, RetreatCondition, fight
from pbem.engine.combat.model import CasualtiesChosen, Submerged
from pbem.engine.orders import DefencePolicy, StandingOrders
from pbem.io.rulesets import load_ruleset
from pbem.rulesets.revised.combat_rules import COMBAT_RULES as R
from tests.engine.scenario import codes, play, state, units_at, validate

REV = "revised"
UNITS = dict(load_ruleset(REV).units)
S = "SZ 7"


def sea(attack: dict[str, int], defend: dict[str, int]) -> Battle:
    return Battle(S, "sea", "United Kingdom", tuple(Force(u, "United Kingdom", n) for u, n in attack.items()),
                  tuple(Force(u, "Germany", n) for u, n in defend.items()), UNITS, R, retreat_to=("SZ 8",))


def lost(outcome, side):  # type: ignore[no-untyped-def]
    return [c.unit for e in outcome.events if isinstance(e, CasualtiesChosen) and e.side == side for c in e.casualties]


def rolled(dice: Fixed) -> list[str]:
    return [label for label, _ in dice.asked]


# --- submarines -------------------------------------------------------------------------------


def test_subs_fire_only_in_opening_fire_and_a_destroyer_never_stops_them() -> None:
    """Q. Subs have always been confusing. Can you summarize the changes? A. "Every sub, regardless of
    whether it's on the attacking or defending side, fires in the Opening Fire step of combat. That's
    the only time a sub ever fires." ... "Nothing, not even a destroyer, ever stops a sub from rolling
    its die ... What a destroyer does do is let you keep your units that were sunk by enemy subs on the
    battle board until step 6, allowing them to fire back"."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1], L(S, 1, "surprise-defender"): [6], L(S, 1, "defender"): [6]})
    out = fight(sea({"submarine": 1}, {"destroyer": 1, "submarine": 1}), dice, Orders(retreat=RetreatCondition("after_round", 1)),
                Orders(order_of_loss=("destroyer",)))
    # Both subs roll in opening fire, never again in the fire steps; the hit destroyer fires back.
    assert rolled(dice)[:2] == [L(S, 1, "surprise-attacker"), L(S, 1, "surprise-defender")]
    assert L(S, 1, "attacker") not in rolled(dice)
    assert lost(out, "defender") == ["destroyer"]


def test_sub_hit_on_destroyer_and_carrier_one_marked_both_fire_back() -> None:
    """Q. My sub attacks an enemy destroyer and aircraft carrier and scores a hit in the Opening Fire
    step. What happens? A. "One of the two enemy ships is designated as taking the hit ... but neither
    is removed from the battle board yet. Both get to shoot back. ... In step 6, the casualty is removed.\""""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1], L(S, 1, "defender"): [6, 6]})
    out = fight(sea({"submarine": 1}, {"destroyer": 1, "aircraft carrier": 1}), dice, Orders(retreat=RetreatCondition("after_round", 1)))
    assert (L(S, 1, "defender"), 2) in dice.asked
    assert len(lost(out, "defender")) == 1 and out.defender_survivors["Germany"] and sum(out.defender_survivors["Germany"].values()) == 1


def test_a_single_sub_cannot_sink_an_undamaged_battleship_in_one_round() -> None:
    """Q. My sub attacks an enemy battleship. Can I sink it with my Opening Fire ...? A. "It always takes
    two hits to sink a battleship. ... If only one sub attacks, the battleship is guaranteed to get a
    return shot ... If the battleship was hit in the first round and its return shot missed, then the
    sub could sink it by hitting it again on the second round. The battleship would not get an attack
    on that second round because it sinks right after the sub's attack.\""""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1], L(S, 1, "defender"): [6], L(S, 2, "surprise-attacker"): [1]})
    out = fight(sea({"submarine": 1}, {"battleship": 1}), dice)
    assert out.winner == "attacker" and out.rounds == 2
    assert L(S, 2, "defender") not in rolled(dice) and dice.unused() == {}


def test_a_defending_sub_fires_then_may_submerge_every_round() -> None:
    """Q. An enemy sub attacks my sub. If I shoot back during the Opening Fire step, can I still
    submerge in the Press Attack or Retreat step? A. "Yes." Q. ... Do they get to fire during the
    Opening Fire step of every round, or only the first round? A. "Every round.\""""
    dice = Fixed({L(S, 1, "surprise-attacker"): [6], L(S, 1, "surprise-defender"): [6]})
    out = fight(sea({"submarine": 1}, {"submarine": 1}), dice, Orders(), Orders(submerge="always"))
    assert rolled(dice) == [L(S, 1, "surprise-attacker"), L(S, 1, "surprise-defender")]
    assert any(isinstance(e, Submerged) and e.side == "defender" for e in out.events)
    dice = Fixed({L(S, r, s): [6] for r in (1, 2) for s in ("surprise-attacker", "surprise-defender")} | {L(S, 3, "surprise-attacker"): [1], L(S, 3, "surprise-defender"): [6]})
    assert fight(sea({"submarine": 1}, {"submarine": 1}), dice).rounds == 3


def test_a_sub_destroyed_in_opening_fire_does_not_fire_again() -> None:
    """Q. If I have a destroyer in combat and my defending submarine fires during Opening Fire and then
    is itself destroyed during Opening Fire, will it be able to fire when defending units get to fire?
    A. "No. Submarines can only fire once per cycle.\""""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1], L(S, 1, "surprise-defender"): [6], L(S, 1, "defender"): [6]})
    out = fight(sea({"submarine": 1}, {"submarine": 1, "destroyer": 1}), dice,
                Orders(retreat=RetreatCondition("after_round", 1)), Orders(order_of_loss=("submarine",)))
    assert (L(S, 1, "defender"), 1) in dice.asked and lost(out, "defender") == ["submarine"]


def test_subs_cannot_hit_a_lone_fighter_and_take_its_fire_before_submerging() -> None:
    """Q. What happens if a lone fighter attacks a sea zone that has four enemy subs in it? A.
    "Submarines can only hit sea units. They must suffer a round of fire from the fighter before they
    can submerge.\""""
    dice = Fixed({L(S, 1, "surprise-defender"): [1, 1, 1, 1], L(S, 1, "attacker"): [3]})
    out = fight(sea({"fighter": 1}, {"submarine": 4}), dice, Orders(), Orders(submerge="always"))
    assert lost(out, "attacker") == [] and lost(out, "defender") == ["submarine"]
    assert out.submerged == {"Germany": {"submarine": 3}}


def test_a_sub_submerged_on_the_uk_turn_resurfaces_at_the_end_of_its_noncombat_move() -> None:
    """Q. On the UK player's first turn, he attacks my German sub with a fighter. He rolls and misses.
    My sub submerges. When does it resurface? A. "At the end of the UK player's noncombat movement.\""""
    st = state(turn="United Kingdom", ruleset=REV)
    body = ("combat_move:\n  - {units: 1 fighter, from: United Kingdom, to: SZ 8}\n"
            "noncombat_move:\n  - {units: 1 fighter, from: SZ 8, to: United Kingdom}\n")
    germany = {"Germany": StandingOrders("Germany", DefencePolicy(submerge=True), explicit=True)}
    result = play(st, "United Kingdom", body, standing=germany, dice={
        "battle/SZ 8/round-1/surprise-defender": [6], "battle/SZ 8/round-1/attacker": [6]})
    assert result.log.battles[0]["outcome"].submerged == {"Germany": {"submarine": 1}}
    assert units_at(result.state, "SZ 8", "Germany") == {"submarine": 1}
    assert not result.state.pending.get("submerged")


# --- transports and carriers ------------------------------------------------------------------


def test_no_blitz_from_a_transport() -> None:
    """Q. Is it legal to blitz from transports? A. "No. 'Being carried on a transport counts as a land
    unit's entire move.'\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("Western Europe", "Germany", "SZ 7"),
               units={"SZ 7": {"United Kingdom": {"transport": 1}}})
    body = ("combat_move:\n  - {units: 1 tank, from: United Kingdom, to: SZ 7}\n"
            "  - {units: 1 tank, from: SZ 7, to: Western Europe}\n  - {units: 1 tank, from: Western Europe, to: Germany}\n")
    assert codes(validate(st, "United Kingdom", body)) == ["move.already-moved"]


def test_a_lone_transport_may_move_into_a_hostile_zone_and_retreat_after_defensive_fire() -> None:
    """Q. What happens when two opposing transports are in the same sea zone with no other units? A.
    "The moving transport can't attack. That doesn't mean it can't make a combat move by itself into a
    hostile space. When it does, if it survives the defensive fire step, then it can retreat.\""""
    dice = Fixed({L(S, 1, "defender"): [2]})
    out = fight(sea({"transport": 1}, {"transport": 1}), dice, Orders(retreat=RetreatCondition("after_round", 1)))
    assert L(S, 1, "attacker") not in rolled(dice)
    assert out.winner == "retreat" and out.retreated == {"United Kingdom": {"transport": 1}}


def test_units_need_not_all_offload() -> None:
    """Q. Must I offload all the units from a transport? A. "No. Units may stay on board when other units
    offload.\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("SZ 7",),
               units={"SZ 7": {"United Kingdom": {"transport": 1, "infantry": 1, "tank": 1}}})
    result = play(st, "United Kingdom", "noncombat_move:\n  - {units: 1 infantry, from: SZ 7, to: United Kingdom}\n")
    assert units_at(result.state, "SZ 7", "United Kingdom") == {"transport": 1, "tank": 1}


def test_a_carrier_may_sail_into_battle_leaving_its_fighters_in_the_air() -> None:
    """Q. Consider a carrier with two fighters ... He wants to send the carrier into battle but wants to
    send the two fighters to a different territory as a noncombat move. Can that be done? A. "Yes. The
    only time fighters need to be 'on' carriers is at the end of the noncombat move.\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("SZ 7",),
               units={"SZ 7": {"United Kingdom": {"aircraft carrier": 1, "fighter": 2}}})
    body = ("combat_move:\n  - {units: 1 aircraft carrier, from: SZ 7, to: SZ 8}\n"
            "noncombat_move:\n  - {units: 2 fighters, from: SZ 7, to: United Kingdom}\n")
    assert validate(st, "United Kingdom", body) == []
    result = play(st, "United Kingdom", body, dice={"battle/SZ 8/round-1/surprise-defender": [6], "battle/SZ 8/round-1/attacker": [1]})
    assert result.log.battles[0]["outcome"].attacker_survivors == {"United Kingdom": {"aircraft carrier": 1}}
    assert units_at(result.state, "United Kingdom", "United Kingdom")["fighter"] == 4
    # Fighters that go along are ordered to: they fly beside the carrier and attack.
    along = "combat_move:\n  - {units: '1 aircraft carrier, 2 fighters', from: SZ 7, to: SZ 8}\n"
    result = play(st, "United Kingdom", along, dice={"battle/SZ 8/round-1/surprise-defender": [6], "battle/SZ 8/round-1/attacker": [6, 6, 1]})
    assert units_at(result.state, "SZ 8", "United Kingdom") == {"aircraft carrier": 1, "fighter": 2}


def test_fighters_land_at_the_end_of_noncombat_so_the_carrier_cannot_carry_them_on() -> None:
    """Q. A fighter leaves an aircraft carrier and attacks a transport in an adjacent sea zone. After the
    battle, the fighter returns to the aircraft carrier. Can the aircraft carrier then move its two spaces
    with the fighter? A. "No. Fighters land at the very end of noncombat movement. To land on the
    carrier, the fighter must fly to the sea zone where the carrier will be at the end of noncombat
    movement.\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("SZ 7", "SZ 6", "SZ 3", "SZ 8"),
               units={"SZ 7": {"United Kingdom": {"aircraft carrier": 1, "fighter": 1}},
                      "SZ 6": {"Germany": {"transport": 1}}})
    attack = "combat_move:\n  - {units: 1 fighter, from: SZ 7, to: SZ 6}\n"
    stays = attack + "noncombat_move:\n  - {units: 1 fighter, from: SZ 6, to: SZ 7}\n  - {units: 1 aircraft carrier, from: SZ 7, to: SZ 2, via: [SZ 8]}\n"
    assert codes(validate(st, "United Kingdom", stays)) == ["air.landing"]
    # The fighter flies to where the carrier will be, whichever move is written first.
    follows = attack + "noncombat_move:\n  - {units: 1 fighter, from: SZ 6, to: SZ 3}\n  - {units: 1 aircraft carrier, from: SZ 7, to: SZ 3, via: [SZ 6]}\n"
    assert validate(st, "United Kingdom", follows) == []
    result = play(st, "United Kingdom", follows, dice={"battle/SZ 6/round-1/attacker": [1], "battle/SZ 6/round-1/defender": [6]})
    assert units_at(result.state, "SZ 3", "United Kingdom") == {"aircraft carrier": 1, "fighter": 1}
    assert not result.log.defaults_used


def test_an_allys_fighter_on_a_moving_carrier_is_cargo() -> None:
    """Q. What happens if I make a combat move with my aircraft carrier and I have another power's
    fighter on board? A. "The fighter must remain on board as cargo. It can't take part in combat, and
    it is destroyed if the carrier is destroyed.\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("SZ 7", "SZ 6"),
               units={"SZ 7": {"United Kingdom": {"aircraft carrier": 1}, "United States": {"fighter": 1}},
                      "SZ 6": {"Germany": {"destroyer": 1}}})
    body = "combat_move:\n  - {units: 1 aircraft carrier, from: SZ 7, to: SZ 6}\n"
    result = play(st, "United Kingdom", body, dice={"battle/SZ 6/round-1/attacker": [6], "battle/SZ 6/round-1/defender": [1],
                                                  "battle/SZ 6/round-2/attacker": [6], "battle/SZ 6/round-2/defender": [1]})
    assert units_at(result.state, "SZ 6", "United States") == {} and units_at(result.state, "SZ 7", "United States") == {}


def test_fighters_land_on_a_carrier_in_a_cleaned_zone() -> None:
    """Q. Can I land my fighter on my aircraft carrier that is now in a sea zone that was hostile at the
    start of my turn? A. "Yes. Fighters can land on aircraft carriers in 'cleaned' sea zones.\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("SZ 7", "SZ 6"),
               units={"SZ 7": {"United Kingdom": {"aircraft carrier": 1, "battleship": 1}},
                      "SZ 6": {"Germany": {"transport": 1}}})
    body = ("combat_move:\n  - {units: '1 aircraft carrier, 1 battleship', from: SZ 7, to: SZ 6}\n"
            "noncombat_move:\n  - {units: 1 fighter, from: United Kingdom, to: SZ 6}\n")
    result = play(st, "United Kingdom", body, dice={"battle/SZ 6/round-1/attacker": [1, 6], "battle/SZ 6/round-1/defender": [6]})
    assert units_at(result.state, "SZ 6", "United Kingdom").get("fighter") == 1


def test_japanese_planes_land_where_germany_captured_last_turn() -> None:
    """Q. If Germany takes over Persia, can Japanese planes land there on Japan's very next move? A. "Yes.\""""
    st = state(turn="Japan", ruleset=REV, clear=("Persia",), control={"Persia": "Germany"},
               units={"Persia": {"Germany": {"infantry": 1}}, "India": {"Japan": {"fighter": 1}}},)
    assert validate(st, "Japan", "noncombat_move:\n  - {units: 1 fighter, from: India, to: Persia}\n") == []


# --- combat -----------------------------------------------------------------------------------


def test_a_fighter_cannot_fight_at_sea_and_on_the_island_in_one_turn() -> None:
    """Q. Can a fighter take part in a naval battle in a sea zone and then in a battle for the island in
    that sea zone? A. "No. The island is not part of the sea zone; it's a different map space.\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("SZ 7", "SZ 6"), units={"SZ 6": {"Germany": {"transport": 1}}})
    body = ("combat_move:\n  - {units: 1 fighter, from: United Kingdom, to: SZ 6}\n"
            "  - {units: 1 fighter, from: SZ 6, to: Norway}\n")
    assert codes(validate(st, "United Kingdom", body)) == ["move.already-moved"]


def test_a_loaded_transport_may_leave_a_potential_battle_load_elsewhere_and_assault() -> None:
    """Q. Can a transport move out of a potential combat situation in one sea zone into a friendly sea
    zone, load a unit, move to a third (also friendly) sea zone, and offload the land unit into hostile
    territory for an amphibious assault? A. "This move is legal. All of the transport's activity takes
    place in the combat move.\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("SZ 7", "SZ 6", "SZ 12", "Algeria"),
               units={"SZ 6": {"United Kingdom": {"transport": 1}, "Germany": {"submarine": 1}},
                      "Algeria": {"Germany": {"infantry": 1}}}, control={"Algeria": "Germany"})
    body = ("combat_move:\n  - {units: 1 transport, from: SZ 6, to: SZ 7}\n"
            "  - {units: 1 infantry, from: United Kingdom, to: SZ 7}\n"
            "  - {units: 1 transport, from: SZ 7, to: SZ 12}\n"
            "  - {units: 1 infantry, from: SZ 12, to: Algeria}\n")
    assert validate(st, "United Kingdom", body) == []
    result = play(st, "United Kingdom", body, dice={"battle/Algeria/round-1/attacker": [1], "battle/Algeria/round-1/defender": [6]})
    assert result.state.control["Algeria"] == "United Kingdom" and units_at(result.state, "SZ 12", "United Kingdom") == {"transport": 1}
    # Its movement is still 2 in all, and it cannot move on from a hostile zone.
    far = body.replace("to: SZ 12}", "to: SZ 11, via: [SZ 12]}").replace("from: SZ 12, to: Algeria", "from: SZ 11, to: Algeria")
    assert "move.too-far" in codes(validate(st, "United Kingdom", far))
    stopped = ("combat_move:\n  - {units: 1 transport, from: SZ 6, to: SZ 7}\n  - {units: 1 battleship, from: SZ 2, to: SZ 8}\n"
               "  - {units: 1 transport, from: SZ 7, to: SZ 8}\n  - {units: 1 transport, from: SZ 8, to: SZ 2}\n")
    assert "move.already-moved" in codes(validate(st, "United Kingdom", stopped))


# --- retreats ---------------------------------------------------------------------------------


def test_a_fighter_without_movement_left_is_lost_when_its_side_retreats() -> None:
    """Q. Say a fighter uses its entire movement allowance to move to a battle in a sea zone, either along
    with a carrier or with the intent to move a carrier there in noncombat movement. What happens if the
    attacking force retreats while the fighter is still alive? A. "The retreating fighter, with no
    remaining movement and suddenly no carrier on which to land, is lost.\""""
    st = state(turn="United Kingdom", ruleset=REV, clear=("SZ 7", "SZ 12", "SZ 10", "SZ 9"),
               units={"SZ 12": {"United Kingdom": {"aircraft carrier": 1}}, "SZ 7": {"Germany": {"battleship": 1}},
                      "Eastern United States": {"United Kingdom": {"fighter": 1}}})
    body = ("combat_move:\n  - {units: 1 aircraft carrier, from: SZ 12, to: SZ 7}\n"
            "  - {units: 1 fighter, from: Eastern United States, to: SZ 7, via: [SZ 10, SZ 9, SZ 12]}\n"
            "battles:\n  SZ 7: {retreat: {to: SZ 12, when: after round 1}}\n")
    result = play(st, "United Kingdom", body, dice={"battle/SZ 7/round-1/attacker": [6, 6], "battle/SZ 7/round-1/defender": [6]})
    assert units_at(result.state, "SZ 12", "United Kingdom") == {"aircraft carrier": 1}
    assert "fighter" not in units_at(result.state, "SZ 7", "United Kingdom")


def test_fighters_whose_carrier_sank_move_one_space_to_an_uncontested_landing() -> None:
    """Q. An enemy sub attacks my aircraft carrier with one of my ally's fighters on it. The carrier
    sinks. What happens to the fighter? A. "The fighter must land in a safe place after the combat phase
    ends. In effect, the fighter has a movement range of 1 to reach a friendly land space, island, or
    aircraft carrier during the attacker's turn. This territory or sea zone must not have been contested
    during the current turn.\""""
    st = state(turn="Germany", ruleset=REV, clear=("SZ 7", "SZ 6"),
               units={"SZ 7": {"United Kingdom": {"aircraft carrier": 1}, "United States": {"fighter": 1}},
                      "SZ 6": {"United Kingdom": {"aircraft carrier": 1}}})
    body = ("combat_move:\n  - {units: 1 submarine, from: SZ 8, to: SZ 7}\n  - {units: 1 submarine, from: SZ 5, to: SZ 6}\n"
            "battles:\n  SZ 7: {retreat: {to: SZ 8, when: after round 1}}\n  SZ 6: {retreat: {to: SZ 5, when: after round 1}}\n")
    result = play(st, "Germany", body, dice={
        "battle/SZ 7/round-1/surprise-attacker": [1], "battle/SZ 7/round-1/defender": [6],
        "battle/SZ 6/round-1/surprise-attacker": [6], "battle/SZ 6/round-1/defender": [6]})
    # The carrier in SZ 6 was attacked this turn: the fighter lands in the United Kingdom instead.
    assert units_at(result.state, "SZ 6", "United States") == {}
    assert units_at(result.state, "United Kingdom", "United States") == {"fighter": 1}


def test_each_combat_is_resolved_completely_before_the_next() -> None:
    """Q. I know combat in each territory or sea zone is resolved separately, but can I partially resolve
    one combat, move to the next, and so on, bouncing between combats before they're completed? A. "No.
    Each combat is resolved completely before moving on to the next.\""""
    from pbem.dice import FixedDice
    from pbem.engine.turn import run_turn
    from pbem.io.rulesets import rules_for
    from tests.engine.scenario import orders

    st = state(turn="Soviet Union", ruleset=REV, clear=("West Russia", "Ukraine S.S.R."),
               units={"West Russia": {"Germany": {"infantry": 1}}, "Ukraine S.S.R.": {"Germany": {"infantry": 1}},
                      "Russia": {"Soviet Union": {"tank": 1}}, "Caucasus": {"Soviet Union": {"tank": 1}}},
               control={"West Russia": "Germany", "Ukraine S.S.R.": "Germany"})
    _, parsed = orders("Soviet Union", "combat_move:\n  - {units: 1 tank, from: Russia, to: West Russia}\n"
                                       "  - {units: 1 tank, from: Caucasus, to: Ukraine S.S.R.}\n", ruleset=REV)
    ruleset = load_ruleset(REV)
    rules, combat = rules_for(ruleset)
    dice = FixedDice({f"battle/{t}/round-{r}/{s}": [6] if r == 1 else ([3] if s == "attacker" else [6])
                      for t in ("West Russia", "Ukraine S.S.R.") for r in (1, 2) for s in ("attacker", "defender")})
    result = run_turn(ruleset, rules, combat, st, parsed, {}, ruleset.option_defaults(), dice)
    assert result.problems == []
    spaces = [roll.label.split("/")[1] for roll in dice.log if roll.label.startswith("battle/")]
    assert len(spaces) == 8 and spaces[:4] == [spaces[0]] * 4 and spaces[4:] == [spaces[4]] * 4 and spaces[0] != spaces[4]
