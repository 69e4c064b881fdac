"""Sea battles and amphibious assaults under fixed dice (1942 Second Edition rulebook)."""

from __future__ import annotations

from combat_helpers import UNITS, Fixed, L, sea
from pbem.engine.combat import Battle, Force, Orders, RetreatCondition, fight
from pbem.engine.combat.casualties import Category, LossPlan
from pbem.engine.combat.model import CasualtiesChosen, DiceRolled, Retreated, Submerged
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES

S = "SZ 5"
U = "Ukraine"


def losses(outcome, side):
    return [(c.unit, c.effect, c.reason) for e in outcome.events if isinstance(e, CasualtiesChosen) and e.side == side for c in e.casualties]


def test_attacking_sub_surprise_strike_hits_on_two_and_victim_does_not_fire():
    """General Combat step 2 (p. 16): attacking subs hit on '2' or less; Surprise Strike casualties
    'are removed from the game' before step 3 and do not return fire."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [2]})
    out = fight(sea({"submarine": 1}, {"cruiser": 1}), dice)
    assert out.winner == "attacker" and out.rounds == 1
    assert [label for label, _ in dice.asked] == [L(S, 1, "surprise-attacker")]


def test_defending_sub_surprise_strike_hits_on_one():
    """Step 2: 'Defending submarines that roll a 1 score a hit'; the attacker removes the unit."""
    dice = Fixed({L(S, 1, "surprise-defender"): [1]})
    out = fight(sea({"cruiser": 1}, {"submarine": 1}), dice)
    assert out.winner == "defender"
    dice2 = Fixed({L(S, 1, "surprise-defender"): [2], L(S, 1, "attacker"): [6], L(S, 2, "surprise-defender"): [1]})
    assert fight(sea({"cruiser": 1}, {"submarine": 1}), dice2).winner == "defender"


def test_sub_picked_by_attacking_surprise_strike_still_strikes():
    """Step 2 and DIGEST A42.3: attacking sub hits go behind the casualty strip; defending subs
    then roll; casualties are removed once both have fired - so both subs can sink."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1], L(S, 1, "surprise-defender"): [1]})
    out = fight(sea({"submarine": 1}, {"submarine": 1}), dice)
    assert out.winner == "draw"


def test_surprise_strike_repeats_every_round():
    """Step 2: 'As long as there are attacking and/or defending submarines and no opposing
    destroyers, this step is repeated during each round of combat.'"""
    dice = Fixed({L(S, 1, "surprise-attacker"): [6], L(S, 1, "defender"): [6], L(S, 2, "surprise-attacker"): [1]})
    out = fight(sea({"submarine": 1}, {"cruiser": 1}), dice)
    assert out.winner == "attacker" and out.rounds == 2


def test_destroyer_cancels_enemy_surprise_strike_and_subs_fire_normally():
    """Step 2 (p. 16): 'if your opponent has a destroyer in the battle, your ... submarines cannot
    submerge or make a Surprise Strike' and fire in step 3 or 4; the attacker's own sub still
    strikes because the defender has no destroyer."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [6], L(S, 1, "attacker"): [6], L(S, 1, "defender"): [1]})
    out = fight(sea({"submarine": 1, "destroyer": 1}, {"submarine": 1}, retreat_to=("SZ 6",)), dice, Orders(retreat=RetreatCondition("after_round", 1)))
    assert dice.asked == [(L(S, 1, "surprise-attacker"), 1), (L(S, 1, "attacker"), 1), (L(S, 1, "defender"), 1)]
    assert losses(out, "attacker") == [("submarine", "destroyed", "default")]


def test_subs_cannot_hit_air_units():
    """Submarine profile 'Cannot Hit Air Units' (p. 29) and step 2 '(submarines cannot hit air units)';
    fighters on a carrier defend in the air even against subs only (Aircraft Carrier profile)."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1, 1], L(S, 1, "defender"): [6, 6]})
    out = fight(sea({"submarine": 2}, {"aircraft carrier": 1, "fighter": 2}), dice)
    chosen = next(e for e in out.events if isinstance(e, CasualtiesChosen) and e.side == "defender")
    assert [c.unit for c in chosen.casualties] == ["aircraft carrier"] and chosen.unassigned_hits == 1
    # fighters cannot hit subs without a friendly destroyer, subs cannot hit fighters: stalemate
    assert out.winner == "none" and out.defender_survivors == {"United Kingdom": {"fighter": 2}}
    # with a destroyer present the subs fire in step 3 and the carrier's fighters roll in step 4
    dice2 = Fixed({L(S, 1, "attacker"): [1, 1], L(S, 1, "defender"): [6, 6, 6, 6], L(S, 2, "defender"): [6, 6]})
    out2 = fight(sea({"submarine": 2}, {"destroyer": 1, "aircraft carrier": 1, "fighter": 2}), dice2)
    rolled = next(e for e in out2.events if isinstance(e, DiceRolled) and e.side == "defender")
    assert [(g.group.unit, g.group.count) for g in rolled.groups] == [("aircraft carrier", 1), ("destroyer", 1), ("fighter", 2)]
    assert out2.defender_lost == {"United Kingdom": {"destroyer": 1, "aircraft carrier": 1}}


def test_air_hits_subs_only_with_friendly_destroyer():
    """Submarine profile 'Cannot Be Hit by Air Units ... unless there is a destroyer friendly to the
    air units in the battle' (p. 29)."""
    dice = Fixed({L(S, 1, "attacker"): [6, 1], L(S, 1, "defender"): [6]})
    out = fight(sea({"fighter": 1, "destroyer": 1}, {"submarine": 1}), dice)
    assert out.winner == "attacker" and out.defender_lost == {"United Kingdom": {"submarine": 1}}
    rolled = next(e for e in out.events if isinstance(e, DiceRolled) and e.side == "attacker")
    assert {g.group.fire_class for g in rolled.groups} == {"any"}


def test_defenceless_transports_and_mutually_unhittable_units():
    """Defenseless Transports sidebar (p. 17): 'if the defender has only transports and submarines
    remaining, and the attacker has only air units remaining ... the transports are defenseless' and
    are destroyed at once; subs and air then cannot hit each other and combat ends (Condition A)."""
    dice = Fixed({L(S, 1, "surprise-defender"): [6]})
    out = fight(sea({"fighter": 2}, {"submarine": 1, "transport": 2}), dice)
    assert ("transport", "destroyed", "defenceless transports") in losses(out, "defender")
    assert out.defender_survivors == {"United Kingdom": {"submarine": 1}}
    assert out.winner == "none" and out.attacker_survivors == {"Germany": {"fighter": 2}}


def test_transports_chosen_last_then_defenceless():
    """Step 4 (p. 17): 'hits can only be assigned to transports if there are no other eligible
    units', even against the owner's order; a lone transport is then defenceless.  The destroyer is
    lost by that rule, not by the owner's order, and its reason says so."""
    dice = Fixed({L(S, 1, "attacker"): [1], L(S, 1, "defender"): [6]})
    out = fight(sea({"cruiser": 1}, {"transport": 1, "destroyer": 1}), dice, Orders(), Orders(order_of_loss=("transport",)))
    assert losses(out, "defender") == [("destroyer", "destroyed", "rule: transports chosen last"),
                                       ("transport", "destroyed", "defenceless transports")]
    assert out.winner == "attacker" and out.rounds == 1


def test_transport_taken_when_no_other_eligible_unit():
    """Step 2 note: transports 'can only be chosen as a casualty if there are no other eligible
    units' - a sub's hit cannot go on the fighter, so the transport is lost."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1], L(S, 1, "defender"): [6]})
    battle = sea({"submarine": 1}, {"transport": 1, "fighter": 1})
    out = fight(battle, dice, Orders(retreat=RetreatCondition("after_round", 1)), Orders())
    assert losses(out, "defender")[0] == ("transport", "destroyed", "rule: transports chosen last")


def test_as_many_hits_as_possible_overrides_order_of_loss():
    """Step 3 (p. 17): 'As many hits as possible must be assigned' - the defender would lose both
    fighters first, but the sub's hit can only go on a ship, so one fighter and the destroyer go."""
    dice = Fixed({L(S, 1, "attacker"): [6, 1, 1], L(S, 1, "defender"): [6, 6, 6]})
    battle = sea({"submarine": 1, "cruiser": 1, "destroyer": 1}, {"destroyer": 1, "fighter": 2}, retreat_to=("SZ 6",))
    out = fight(battle, dice, Orders(retreat=RetreatCondition("after_round", 1)), Orders(order_of_loss=("fighter", "destroyer")))
    assert losses(out, "defender") == [
        ("fighter", "destroyed", "directive"),
        ("destroyer", "destroyed", "rule: as many hits as possible must be assigned"),
    ]


def test_rulebook_example_cruiser_hit_goes_on_the_fighter():
    """Step 3 worked example (p. 17): a cruiser and two subs score three hits against a destroyer,
    a carrier and a fighter: the cruiser's hit must go on the fighter, the sub hits on the ships.
    Whatever order the defender prefers, all three are lost and no hit is wasted."""
    cats = [Category(u, "UK", False, False, UNITS[u]) for u in ("destroyer", "aircraft carrier", "fighter")]
    for order in (("destroyer", "aircraft carrier", "fighter"), ("fighter", "destroyer", "aircraft carrier"), ("destroyer", "fighter")):
        plan = LossPlan(cats, Orders(order_of_loss=order), keep_one=False, combat_value=[True] * 3, transports_last=True, aa_can_be_casualty=True)
        taken = plan.assign([1, 1, 1], {"any": 1, "not_air": 2})
        assert sorted((cats[t.category].unit, t.count) for t in taken) == [("aircraft carrier", 1), ("destroyer", 1), ("fighter", 1)]
    # a naive owner-order assignment of the cruiser hit to the destroyer would lose a sub hit:
    plan = LossPlan(cats, Orders(order_of_loss=("destroyer", "aircraft carrier")), keep_one=False, combat_value=[True] * 3, transports_last=True, aa_can_be_casualty=True)
    assert sum(t.count for t in plan.assign([1, 1, 1], {"any": 1, "not_air": 2})) == 3


def test_battleship_takes_two_hits_and_is_repaired_after_combat():
    """Battleship profile 'Two Hits to Destroy' (p. 28): a first hit only damages it (taken first by
    default, costing nothing lasting); a battleship surviving with one hit is repaired after combat."""
    dice = Fixed({L(S, 1, "attacker"): [6, 1], L(S, 1, "defender"): [2]})
    out = fight(sea({"battleship": 1, "destroyer": 1}, {"destroyer": 1}), dice)
    assert losses(out, "attacker") == [("battleship", "damaged", "default: two-hit units first")]
    assert out.winner == "attacker" and out.attacker_lost == {}
    assert out.damaged == {"Germany": {"battleship": 1}} and out.repaired
    dice2 = Fixed({L(S, 1, "attacker"): [6], L(S, 1, "defender"): [1, 1]})
    out2 = fight(sea({"battleship": 1}, {"destroyer": 2}), dice2)
    assert out2.winner == "defender" and out2.attacker_lost == {"Germany": {"battleship": 1}}


def test_defending_battleship_hit_by_surprise_strike_stays_damaged():
    """Battleship profile: 'If a battleship is hit once, even by a submarine's Surprise Strike ...'
    the damage lasts until the end of the combat (step 2)."""
    dice = Fixed({L(S, 1, "surprise-attacker"): [1], L(S, 1, "defender"): [6], L(S, 2, "surprise-attacker"): [2]})
    out = fight(sea({"submarine": 1}, {"battleship": 1}), dice)
    assert out.winner == "attacker" and out.rounds == 2


def test_defending_sub_submerges_instead_of_striking():
    """Step 2 (p. 16): subs 'can choose to either make a Surprise Strike die roll or submerge';
    submerged subs leave the battle and stay in the zone (standing order: always)."""
    dice = Fixed({})
    out = fight(sea({"cruiser": 1}, {"submarine": 1}), dice, Orders(), Orders(submerge="always"))
    assert dice.asked == [] and out.submerged == {"United Kingdom": {"submarine": 1}}
    assert out.winner == "attacker" and any(isinstance(e, Submerged) for e in out.events)


def test_destroyer_prevents_submerging():
    """Step 2: with an opposing destroyer the subs 'cannot submerge'."""
    dice = Fixed({L(S, 1, "attacker"): [1], L(S, 1, "defender"): [6]})
    out = fight(sea({"destroyer": 1}, {"submarine": 1}), dice, Orders(), Orders(submerge="always"))
    assert out.submerged == {} and out.winner == "attacker"


def amphibious(bombard: tuple[str, ...], seaborne: int, overland: dict[str, int], defend: dict[str, int]) -> Battle:
    attackers = (Force("infantry", "Germany", seaborne, seaborne=True),) + tuple(Force(u, "Germany", n) for u, n in overland.items())
    return Battle(U, "land", "Germany", attackers, tuple(Force(u, "Soviet Union", n) for u, n in defend.items()), UNITS, COMBAT_RULES, bombard=bombard, retreat_to=("Poland",))


def test_bombardment_hits_and_casualties_fire_back():
    """Amphibious Assaults step 2 (p. 15): battleships hit on 4 or less, cruisers on 3 or less; the
    defender's casualties 'will be able to defend during the land combat step before they are
    eliminated'."""
    dice = Fixed({L(U, 1, "bombard"): [4, 4], L(U, 1, "attacker"): [6, 6], L(U, 1, "defender"): [6, 6], L(U, 2, "attacker"): [1, 1], L(U, 2, "defender"): [6]})
    out = fight(amphibious(("battleship", "cruiser"), 2, {}, {"infantry": 2}), dice)
    rolled = next(e for e in out.events if isinstance(e, DiceRolled) and e.step == "bombard")
    assert [(g.group.unit, g.group.value, g.hits) for g in rolled.groups] == [("cruiser", 3, 0), ("battleship", 4, 1)]
    assert (L(U, 1, "defender"), 2) in dice.asked  # the bombarded infantry still rolled
    assert (L(U, 2, "defender"), 1) in dice.asked
    assert out.winner == "attacker" and out.captured


def test_bombardment_capped_at_one_ship_per_seaborne_unit():
    """Amphibious Assaults step 2: 'limited to one ship per land unit being offloaded'."""
    dice = Fixed({L(U, 1, "bombard"): [6], L(U, 1, "attacker"): [1], L(U, 1, "defender"): [6]})
    fight(amphibious(("battleship", "battleship", "cruiser"), 1, {}, {"infantry": 1}), dice)
    assert (L(U, 1, "bombard"), 1) in dice.asked


def test_seaborne_units_cannot_retreat():
    """Amphibious Assaults step 3: 'Attacking seaborne units cannot retreat'; overland units and
    aircraft retreat together and the seaborne units fight on."""
    dice = Fixed({L(U, 1, "attacker"): [6, 6], L(U, 1, "defender"): [6, 6], L(U, 2, "attacker"): [6], L(U, 2, "defender"): [1, 6]})
    out = fight(amphibious((), 1, {"tank": 1}, {"infantry": 2}), dice, Orders(retreat=RetreatCondition("after_round", 1)))
    retreat = next(e for e in out.events if isinstance(e, Retreated))
    assert retreat.units == (("Germany", "tank", 1),) and retreat.stayed == (("Germany", "infantry", 1),)
    assert out.winner == "retreat" and out.attacker_lost == {"Germany": {"infantry": 1}}
    assert out.attacker_survivors == {"Germany": {"tank": 1}}
