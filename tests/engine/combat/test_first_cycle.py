"""Round-1-only profiles (`Battle.first_cycle_profiles`) and units that fire once in opening fire and
are lost (`Battle.sacrifices`): the engine mechanics of Revised's Atlantic Wall, Marines, Kaiten
Torpedoes and Kamikaze Attacks (shared/rules/revised.txt, Appendix 3 and its FAQ), in `fight` and
in the odds calculator."""

from __future__ import annotations

import dataclasses

import pytest

from combat_helpers import Fixed, L
from pbem.engine.combat import Battle, Force, Orders, Sacrifice, fight
from pbem.engine.combat.model import CasualtiesChosen, DiceRolled
from pbem.odds import _solve, battle_odds
from pbem.engine.combat.engine import Engine
from test_revised_combat import UNITS, R, land, sea

S, T = "SZ 7", "Western Europe"
ATLANTIC_WALL = {"Germany": {"infantry": dataclasses.replace(UNITS["infantry"], defense=3)}}
MARINES = {"United Kingdom": {"infantry": dataclasses.replace(UNITS["infantry"], attack=2)}}


def values(outcome, step):
    return {(e.round, g.group.unit, g.group.value, g.group.count) for e in outcome.events
            if isinstance(e, DiceRolled) and e.step == step for g in e.groups}


def lost(outcome, side):
    return [c.unit for e in outcome.events if isinstance(e, CasualtiesChosen) and e.side == side for c in e.casualties]


# --- first-cycle profiles ---------------------------------------------------------------------


def test_first_cycle_defence_only_in_round_one():
    """Atlantic Wall: "all your infantry defend on a 3 during the first cycle of combat"."""
    dice = Fixed({L(T, 1, "attacker"): [6, 6], L(T, 1, "defender"): [3],
                  L(T, 2, "attacker"): [6], L(T, 2, "defender"): [3], L(T, 3, "attacker"): [1],
                  L(T, 3, "defender"): [6]})
    out = fight(land({}, {"infantry": 1}, seaborne={"tank": 2}, first_cycle_profiles=ATLANTIC_WALL), dice)
    assert values(out, "defender") == {(1, "infantry", 3, 1), (2, "infantry", 2, 1), (3, "infantry", 2, 1)}
    assert lost(out, "attacker") == ["tank"] and out.winner == "attacker" and dice.unused() == {}


def test_first_cycle_attack_is_not_raised_by_artillery():
    """Marines: "Your infantry attacks on a 2 in the first cycle"; FAQ: "Can artillery support
    Marines? No. Marines already attack with a 2" - from round 2 the artillery supports again."""
    dice = Fixed({L(T, 1, "attacker"): [6, 6, 6], L(T, 1, "defender"): [6, 6, 6],
                  L(T, 2, "attacker"): [1, 1, 1], L(T, 2, "defender"): [6, 6, 6]})
    out = fight(land({"artillery": 1}, {"infantry": 3}, seaborne={"infantry": 2}, first_cycle_profiles=MARINES), dice)
    assert values(out, "attacker") == {
        (1, "infantry", 2, 2), (1, "artillery", 2, 1),
        (2, "infantry", 2, 1), (2, "infantry", 1, 1), (2, "artillery", 2, 1),
    }
    assert out.winner == "attacker"


def test_odds_keep_round_one_apart():
    """A defender certain to hit in round 1 only: 1 infantry (1) against 1 infantry (6, then 2)."""
    sure = {"Germany": {"infantry": dataclasses.replace(UNITS["infantry"], defense=6)}}
    odds = battle_odds(land({}, {"infantry": 1}, seaborne={"infantry": 1}, first_cycle_profiles=sure))
    assert odds.draw == pytest.approx(1 / 6) and odds.defender_win == pytest.approx(5 / 6)
    plain = battle_odds(land({}, {"infantry": 1}, seaborne={"infantry": 1}))
    assert plain.attacker_win > 0.1


@pytest.mark.parametrize("profiles", [ATLANTIC_WALL, MARINES])
def test_land_fast_path_agrees_with_the_general_walk(profiles):
    battle = land({"tank": 2, "artillery": 1}, {"infantry": 4, "tank": 1}, seaborne={"infantry": 3},
                  first_cycle_profiles=profiles)
    engine = Engine(battle, Orders(hold_territory=False), Orders())
    fast, _, _, _ = _solve(engine, False)
    slow, _, _, _ = _solve(engine, False, fast_path=False)
    for side in ("attacker", "defender", "draw"):
        assert sum(p for s, p in fast.items() if s.over == side) == pytest.approx(
            sum(p for s, p in slow.items() if s.over == side), abs=1e-12)
    plain = battle_odds(land({"tank": 2, "artillery": 1}, {"infantry": 4, "tank": 1}, seaborne={"infantry": 3}))
    changed = battle_odds(battle)
    assert (changed.attacker_win > plain.attacker_win) == (profiles is MARINES)


# --- sacrifices -------------------------------------------------------------------------------


def test_kamikaze_fires_in_opening_fire_hits_only_sea_units_and_is_lost():
    """Kamikaze Attacks: "attacks during the opening fire step ... only an enemy sea unit can be
    chosen as a casualty. That air unit automatically becomes an opening fire casualty"; FAQ: it
    "can't absorb a second hit"."""
    battle = sea({"destroyer": 1}, {"aircraft carrier": 1, "fighter": 1},
                 sacrifices=(Sacrifice("attacker", "United Kingdom", "fighter", 1, 3),))
    dice = Fixed({L(S, 1, "sacrifice-attacker"): [3], L(S, 1, "attacker"): [6], L(S, 1, "defender"): [6],
                  L(S, 2, "attacker"): [1], L(S, 2, "defender"): [6]})
    out = fight(battle, dice, defender_orders=Orders(order_of_loss=("fighter", "aircraft carrier")))
    assert lost(out, "defender") == ["aircraft carrier", "fighter"]
    assert lost(out, "attacker") == []  # never a casualty a hit could choose
    assert out.sacrificed == {"United Kingdom": {"fighter": 1}}
    assert out.attacker_lost == {"United Kingdom": {"fighter": 1}}
    assert out.attacker_survivors == {"United Kingdom": {"destroyer": 1}} and out.winner == "attacker"
    assert dice.unused() == {}


def test_kamikaze_hits_subs_and_fires_once():
    """FAQ: "Can Kamikaze Attacks hit subs? Yes"; it fires in round 1 only."""
    battle = sea({"destroyer": 1}, {"submarine": 2},
                 sacrifices=(Sacrifice("attacker", "United Kingdom", "fighter", 2, 3),))
    dice = Fixed({L(S, 1, "sacrifice-attacker"): [1, 5], L(S, 1, "surprise-defender"): [6, 6],
                  L(S, 1, "attacker"): [6], L(S, 2, "surprise-defender"): [6], L(S, 2, "attacker"): [1]})
    out = fight(battle, dice)
    assert out.defender_lost == {"Germany": {"submarine": 2}} and out.rounds == 2 and dice.unused() == {}


def test_kaiten_defends_in_opening_fire_and_is_lost():
    """Kaiten Torpedoes: the submarine "defends on a 3 ... automatically becomes an opening fire
    casualty"; the other submarine fires in opening fire as usual."""
    battle = sea({"destroyer": 2}, {"submarine": 1}, sacrifices=(Sacrifice("defender", "Germany", "submarine", 1, 3),))
    dice = Fixed({L(S, 1, "surprise-defender"): [6], L(S, 1, "sacrifice-defender"): [3],
                  L(S, 1, "attacker"): [6, 6],  # the hit destroyer fires back (step 3: a destroyer is present)
                  L(S, 2, "surprise-defender"): [6], L(S, 2, "attacker"): [1]})
    out = fight(battle, dice)
    assert dice.unused() == {}
    assert values(out, "sacrifice-defender") == {(1, "submarine", 3, 1)}
    assert out.defender_lost == {"Germany": {"submarine": 2}}  # the kaiten and the sub hit in round 2
    assert out.sacrificed == {"Germany": {"submarine": 1}}
    assert out.attacker_lost == {"United Kingdom": {"destroyer": 1}}


def test_only_sacrifices_attack():
    battle = Battle(S, "sea", "United Kingdom", (), (Force("transport", "Germany", 1),), UNITS, R,
                    sacrifices=(Sacrifice("attacker", "United Kingdom", "fighter", 1, 3),))
    out = fight(battle, Fixed({L(S, 1, "sacrifice-attacker"): [2]}))
    assert out.winner == "draw" and out.defender_lost == {"Germany": {"transport": 1}}
    odds = battle_odds(battle)
    assert odds.draw == pytest.approx(0.5) and odds.defender_win == pytest.approx(0.5)
    assert odds.expected_ipc_loss["attacker"] == UNITS["fighter"].cost


def test_sacrifices_only_at_sea():
    with pytest.raises(ValueError):
        land({"tank": 1}, {"infantry": 1}, sacrifices=(Sacrifice("attacker", "United Kingdom", "fighter", 1, 3),))
