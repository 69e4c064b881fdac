"""Land battles under fixed dice, each test citing the 1942 Second Edition rulebook."""

from __future__ import annotations

from combat_helpers import Fixed, L, Seeded, land
from pbem.engine.combat import Force, Orders, RetreatCondition, fight
from pbem.engine.combat.model import CasualtiesChosen, DiceRolled, Retreated

U = "Ukraine"
AFTER_1 = Orders(hold_territory=True, retreat=RetreatCondition("after_round", 1))


def casualties(outcome, side):
    return [
        (c.unit, c.reason)
        for e in outcome.events
        if isinstance(e, CasualtiesChosen) and e.side == side
        for c in e.casualties
    ]


def test_attacker_hits_on_attack_value_or_less():
    """General Combat step 3 (p. 17): 'An attacking unit scores a hit if you roll its attack value
    or less'; step 4: the defender likewise at its defense value.  Infantry attack 1, defend 2."""
    dice = Fixed({L(U, 1, "attacker"): [1], L(U, 1, "defender"): [3]})
    out = fight(land({"infantry": 1}, {"infantry": 1}), dice)
    assert out.winner == "attacker" and out.rounds == 1 and out.captured
    assert out.defender_lost == {"Soviet Union": {"infantry": 1}}
    assert out.attacker_survivors == {"Germany": {"infantry": 1}}
    assert not dice.unused()


def test_fire_is_simultaneous_and_both_can_die():
    """General Combat (p. 16): attacking and defending units 'are considered to fire at the same
    time'; a defender hit on step 3 still rolls in step 4.  Defense 2 hits on a 2."""
    dice = Fixed({L(U, 1, "attacker"): [1], L(U, 1, "defender"): [2]})
    out = fight(land({"infantry": 1}, {"infantry": 1}), dice)
    assert out.winner == "draw" and not out.captured
    assert out.attacker_survivors == {} and out.defender_survivors == {}


def test_misses_lead_to_another_round():
    """Step 6, Press attack (p. 18): combat rounds continue while both sides have units."""
    dice = Fixed({L(U, 1, "attacker"): [4], L(U, 1, "defender"): [5], L(U, 2, "attacker"): [1], L(U, 2, "defender"): [6]})
    out = fight(land({"infantry": 1}, {"infantry": 1}), dice)
    assert out.rounds == 2 and out.winner == "attacker"


def test_artillery_supports_one_infantry_on_attack():
    """Artillery profile (p. 26): each artillery raises one attacking infantry to 2 (one-for-one),
    attack only.  Dice are grouped by value: infantry at 1, then artillery and supported infantry at 2."""
    dice = Fixed({L(U, 1, "attacker"): [2, 2, 2], L(U, 1, "defender"): [6, 6, 6, 6]})
    out = fight(land({"infantry": 2, "artillery": 1}, {"infantry": 4}, retreat_to=("Poland",)), dice, AFTER_1)
    rolled = next(e for e in out.events if isinstance(e, DiceRolled) and e.side == "attacker")
    shape = [(g.group.unit, g.group.value, g.group.count, g.group.note, g.hits) for g in rolled.groups]
    assert shape == [
        ("infantry", 1, 1, "", 0),
        ("artillery", 2, 1, "", 1),
        ("infantry", 2, 1, "supported by artillery", 1),
    ]


def test_artillery_gives_no_support_on_defense():
    """Artillery profile: support is 'when attacking' only; defending infantry stay at 2."""
    dice = Fixed({L(U, 1, "attacker"): [6], L(U, 1, "defender"): [6, 6, 6]})
    out = fight(land({"tank": 1}, {"infantry": 2, "artillery": 1}, retreat_to=("Poland",)), dice, AFTER_1)
    rolled = next(e for e in out.events if isinstance(e, DiceRolled) and e.side == "defender")
    assert [(g.group.unit, g.group.value, g.group.count) for g in rolled.groups] == [("artillery", 2, 1), ("infantry", 2, 2)]


def test_aaa_three_shots_each_capped_by_air_units_first_round_only():
    """AAA profile, Air Defense (p. 25): dice = min(3 × AAA, attacking air units), hit on 1, the
    attacker chooses the casualties, 'fire only once, before the first round of combat'."""
    dice = Fixed(
        {
            L(U, 1, "aa"): [1, 6, 6, 1],
            L(U, 1, "attacker"): [6, 6, 6, 6],
            L(U, 1, "defender"): [6, 6],
            L(U, 2, "attacker"): [1, 1, 1, 1],
            L(U, 2, "defender"): [6, 6],
        }
    )
    out = fight(land({"fighter": 3, "bomber": 1, "infantry": 2}, {"infantry": 2, "antiaircraft artillery": 2}), dice, Orders(order_of_loss=("bomber",)), Orders())
    assert ("battle/Ukraine/round-1/aa", 4) in dice.asked
    assert all(not label.endswith("round-2/aa") for label, _ in dice.asked)
    # the infantry ranked ahead of the fighter by default cannot be hit by AA fire: that is the reason given
    assert casualties(out, "attacker")[:2] == [("bomber", "directive"), ("fighter", "rule: the units ranked ahead cannot be hit by these dice")]
    assert out.winner == "attacker" and out.captured


def test_aaa_dice_capped_by_three_per_gun():
    """AAA profile: 'three times the number of AAA units, or the number of attacking air units,
    whichever is the lesser' - one AAA against five fighters rolls three dice."""
    dice = Fixed({L(U, 1, "aa"): [6, 6, 6], L(U, 1, "attacker"): [1] * 5, L(U, 1, "defender"): [6]})
    fight(land({"fighter": 5}, {"infantry": 1, "antiaircraft artillery": 1}), dice)
    assert (L(U, 1, "aa"), 3) in dice.asked


def test_aaa_alone_is_destroyed_without_combat():
    """AAA profile and General Combat (p. 16): a territory with only AAA and no combat units needs no
    combat - 'remove any antiaircraft artillery units'; the AAA does not fire."""
    dice = Fixed({})
    out = fight(land({"tank": 1, "fighter": 1}, {"antiaircraft artillery": 1}), dice)
    assert dice.asked == [] and out.rounds == 0
    assert out.winner == "attacker" and out.captured
    assert out.defender_lost == {"Soviet Union": {"antiaircraft artillery": 1}}


def test_aaa_can_be_taken_as_casualty_and_dies_when_left_alone():
    """AAA profile 'No Combat Value: It can, however, be taken as a casualty'; once no defending
    combat unit is left, the AAA is destroyed (it cannot fight after the first round)."""
    dice = Fixed({L(U, 1, "attacker"): [1], L(U, 1, "defender"): [6]})
    out = fight(land({"tank": 1}, {"infantry": 1, "antiaircraft artillery": 1}), dice, Orders(), Orders(hold_territory=False))
    assert out.winner == "attacker" and out.captured
    assert ("antiaircraft artillery", "aa alone") in casualties(out, "defender")
    dice2 = Fixed({L(U, 1, "attacker"): [1], L(U, 1, "defender"): [6], L(U, 2, "attacker"): [6], L(U, 2, "defender"): [6], L(U, 3, "attacker"): [1], L(U, 3, "defender"): [6]})
    out2 = fight(land({"tank": 1}, {"infantry": 1, "antiaircraft artillery": 1}), dice2, Orders(), Orders(order_of_loss=("antiaircraft artillery",)))
    assert casualties(out2, "defender")[0] == ("antiaircraft artillery", "directive")
    assert out2.rounds == 3


def test_air_units_cannot_capture():
    """Step 7, Conclude Combat (p. 18): 'Air units cannot capture a territory.'"""
    dice = Fixed({L(U, 1, "attacker"): [1], L(U, 1, "defender"): [6]})
    out = fight(land({"fighter": 1}, {"infantry": 1}), dice)
    assert out.winner == "attacker" and not out.captured


def test_defender_loses_cheapest_first_and_any_survivor_holds():
    """Casualties are the defender's choice (step 3, p. 17); a territory stays the defender's while
    any of its units survives, air units too (step 7), so the default keeps the stronger fighter
    rather than a land unit: both infantry die first (issue 13: defaults a strong player chooses)."""
    dice = Fixed({L(U, 1, "attacker"): [1, 1, 6, 6], L(U, 1, "defender"): [6, 6, 6]})
    out = fight(land({"tank": 4}, {"infantry": 2, "fighter": 1}, retreat_to=("Poland",)), dice, AFTER_1)
    assert casualties(out, "defender") == [("infantry", "default"), ("infantry", "default")]
    assert out.defaults_used[0].startswith("attacker order of loss: default")


def test_hold_territory_is_a_flag_of_its_own_and_keeps_the_last_land_unit():
    """A player who wants the club convention asks for it: the last land unit goes after the fighter,
    and the report says the fighter went for that, not because it was the cheapest."""
    dice = Fixed({L(U, 1, "attacker"): [1, 1, 6, 6], L(U, 1, "defender"): [6, 6, 6]})
    out = fight(land({"tank": 4}, {"infantry": 2, "fighter": 1}, retreat_to=("Poland",)), dice, AFTER_1,
                Orders(hold_territory=True))
    assert casualties(out, "defender") == [("infantry", "default"), ("fighter", "default: one land unit kept")]
    dice = Fixed({L(U, 1, "attacker"): [1, 1, 6, 6], L(U, 1, "defender"): [6, 6, 6]})
    out = fight(land({"tank": 4}, {"infantry": 2, "fighter": 1}, retreat_to=("Poland",)), dice, AFTER_1,
                Orders(order_of_loss=("infantry", "fighter"), hold_territory=True))
    assert casualties(out, "defender") == [("infantry", "directive"), ("fighter", "directive: one land unit kept")]


def test_an_explicit_order_of_loss_is_followed_as_written():
    """An attacker who lists its order of loss loses units in that order, even the last land unit."""
    dice = Fixed({L(U, 1, "attacker"): [6, 6], L(U, 1, "defender"): [1, 6]})
    out = fight(land({"infantry": 1, "fighter": 1}, {"infantry": 2}), dice,
                Orders(order_of_loss=("infantry", "fighter"), retreat=AFTER_1.retreat))
    assert casualties(out, "attacker") == [("infantry", "directive")]


def test_allies_defend_together():
    """Multinational Forces (p. 21): units of one side in a territory defend together; casualties
    may be any of them."""
    battle = land({"tank": 2}, {"infantry": 1}, extra_defenders=(Force("fighter", "United Kingdom", 1),))
    dice = Fixed({L(U, 1, "attacker"): [1, 1], L(U, 1, "defender"): [6, 1]})
    out = fight(battle, dice)
    rolled = next(e for e in out.events if isinstance(e, DiceRolled) and e.side == "defender")
    assert [(g.group.unit, g.group.value) for g in rolled.groups] == [("infantry", 2), ("fighter", 4)]
    assert out.winner == "attacker"
    assert out.defender_lost == {"Soviet Union": {"infantry": 1}, "United Kingdom": {"fighter": 1}}
    assert out.attacker_lost == {"Germany": {"tank": 1}}


def test_attacker_retreats_after_round_to_allowed_space():
    """Step 6, Condition B (p. 18): the attacker (never the defender) may retreat all units together
    to one adjacent friendly space from which an attacking unit moved."""
    dice = Fixed({L(U, 1, "attacker"): [6, 6], L(U, 1, "defender"): [6, 6, 6]})
    orders = Orders(retreat=RetreatCondition("after_round", 1), retreat_to="Poland")
    out = fight(land({"infantry": 1, "tank": 1}, {"infantry": 3}, retreat_to=("Romania", "Poland")), dice, orders)
    assert out.winner == "retreat" and out.retreated_to == "Poland" and out.rounds == 1
    assert out.retreated == {"Germany": {"infantry": 1, "tank": 1}}
    assert any(isinstance(e, Retreated) for e in out.events)


def test_retreat_when_attackers_at_most():
    """Condition B (p. 18) as a standing order: retreat once two or fewer attackers remain."""
    dice = Fixed({L(U, 1, "attacker"): [6, 6, 6], L(U, 1, "defender"): [1, 6, 6]})
    orders = Orders(retreat=RetreatCondition("when_attackers_at_most", 2))
    out = fight(land({"infantry": 3}, {"infantry": 3}, retreat_to=("Poland",)), dice, orders)
    assert out.winner == "retreat" and out.retreated == {"Germany": {"infantry": 2}}


def test_low_luck_pools_strength_and_rolls_for_the_remainder():
    """Low Luck (game option, not a rulebook rule): 3 tanks = strength 9 → 1 sure hit, and one die
    hitting on 3 or less for the remaining 3 points."""
    dice = Fixed({L(U, 1, "attacker"): [3], L(U, 1, "defender"): [5]})
    out = fight(land({"tank": 3}, {"infantry": 3}, retreat_to=("Poland",)), dice, AFTER_1, low_luck=True)
    rolled = next(e for e in out.events if isinstance(e, DiceRolled) and e.side == "attacker")
    assert rolled.low_luck and rolled.guaranteed_hits == 1 and rolled.hits == 2
    defend = next(e for e in out.events if isinstance(e, DiceRolled) and e.side == "defender")
    assert defend.hits == 1 and defend.guaranteed_hits == 1  # 3 infantry × 2 = 6: one sure hit, no die


def test_seeded_battles_end_and_conserve_units():
    """General Combat (p. 16-18): every unit ends as a survivor or a loss, never both."""
    for seed in range(30):
        out = fight(land({"infantry": 3, "artillery": 1, "tank": 2, "fighter": 1}, {"infantry": 4, "tank": 1, "antiaircraft artillery": 1}), Seeded(str(seed)))
        a = {u: out.attacker_survivors.get("Germany", {}).get(u, 0) + out.attacker_lost.get("Germany", {}).get(u, 0) for u in ("infantry", "artillery", "tank", "fighter")}
        assert a == {"infantry": 3, "artillery": 1, "tank": 2, "fighter": 1}
        assert out.winner in ("attacker", "defender", "draw")


def test_aaa_survives_when_the_last_attackers_die_with_the_last_defenders():
    """AAA profile (p. 25): AAA with no combat units is destroyed when its territory 'is attacked'.
    When the attacker's last unit dies in the same round as the last defending combat unit, nothing
    attacks any more: the AAA stays and the defender holds the territory (not a draw)."""
    dice = Fixed({L(U, 1, "attacker"): [1], L(U, 1, "defender"): [2]})
    out = fight(land({"infantry": 1}, {"infantry": 1, "antiaircraft artillery": 1}), dice)
    assert out.winner == "defender" and not out.captured
    assert out.defender_survivors == {"Soviet Union": {"antiaircraft artillery": 1}}
    assert ("antiaircraft artillery", "aa alone") not in casualties(out, "defender")
