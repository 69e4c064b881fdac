"""Strategic bombing raids (1942 Second Edition, Conduct Combat step 1, p. 14)."""

from __future__ import annotations

from combat_helpers import Fixed
from pbem.engine.combat.sbr import bombing_raid
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES as R


def test_complex_rolls_one_die_per_bomber_and_survivors_roll_damage():
    """p. 14: 'Each industrial complex rolls one die against each bomber ... For each 1 rolled, a
    bomber is immediately removed. Any surviving bombers each roll one die.'"""
    dice = Fixed({"raid/Germany/aa": [1, 4, 6], "raid/Germany/damage": [5, 3]})
    out = bombing_raid("Germany", 5, 0, 3, dice, R)
    assert out.bombers_lost == 1 and out.damage_rolled == 8 and out.damage_applied == 8


def test_damage_capped_at_twice_ipc_minus_existing_damage():
    """p. 14: 'An industrial complex cannot receive more total damage than twice the IPC value of the
    territory ... Any excess damage is not applied.'"""
    dice = Fixed({"raid/Karelia/aa": [6, 6], "raid/Karelia/damage": [6, 6]})
    out = bombing_raid("Karelia", 2, 1, 2, dice, R)
    assert out.damage_rolled == 12 and out.damage_applied == 3


def test_all_bombers_shot_down_roll_no_damage():
    """p. 14: only surviving bombers roll for damage."""
    dice = Fixed({"raid/Japan/aa": [1]})
    out = bombing_raid("Japan", 8, 0, 1, dice, R)
    assert out.bombers_lost == 1 and out.damage_applied == 0
    assert [label for label, _ in dice.asked] == ["raid/Japan/aa"]


def test_escorts_and_interceptors_one_round_air_battle():
    """Optional rule (p. 14): bombers and escorts fire at 1, each 1 removes an interceptor; surviving
    interceptors fire at 2 and the attacker chooses casualties; escorts do not bomb and are not fired
    on by the complex."""
    dice = Fixed(
        {
            "raid/Germany/escort": [1, 6, 6],  # 2 bombers + 1 escort at 1: one interceptor down
            "raid/Germany/interceptor": [2],  # the surviving interceptor hits at 2
            "raid/Germany/aa": [6, 6],
            "raid/Germany/damage": [2, 2],
        }
    )
    out = bombing_raid("Germany", 5, 0, 2, dice, R, escorts=1, interceptors=2)
    assert out.interceptors_lost == 1 and out.escorts_lost == 1 and out.bombers_lost == 0
    assert out.damage_applied == 4
    assert (("raid/Germany/aa", 2)) in dice.asked


def test_europe_aa_fires_at_escorts_first_and_its_victims_miss_the_dogfight():
    """Europe 1999, Strategic Bombing Raids step 4: A. the AA gun rolls "against each attacking aircraft
    (bombers and any fighter escorts)"; B. defending fighters hit on 2; C. escorts hit on 1 and the
    fighters hit "are immediately removed"; D. the attacker removes his casualties (escorts first
    here). The AA gun's victims are out before the dogfight, as the Strategic Bombing Raid Example
    plays it ("Germany sacrifices fighter A" ... "responds with his remaining fighter"); step 5: each
    surviving bomber rolls a die, no cap but the treasury."""
    from pbem.rulesets.europe_1999.combat_rules import COMBAT_RULES as EUR

    dice = Fixed({"raid/Germany/aa-all": [1, 6, 6], "raid/Germany/interceptor": [2, 6], "raid/Germany/damage": [6]})
    out = bombing_raid("Germany", 2, 0, 2, dice, EUR, escorts=1, interceptors=2, aa_guns=1, treasury=30)
    assert (out.escorts_lost, out.bombers_lost, out.interceptors_lost) == (1, 1, 0)
    assert out.damage_rolled == 6 and out.damage_applied == 6 and out.ipcs_lost == 6  # more than the IPC value 2
    assert [label for label, _ in dice.asked] == ["raid/Germany/aa-all", "raid/Germany/interceptor", "raid/Germany/damage"]


def test_europe_raid_takes_no_more_than_the_treasury():
    """Europe 1999, Strategic Bombing Raids step 5: "If the owner of the bombed territory does not have
    enough IPCs to cover the penalty, the owner surrenders as many IPCs as he has to the bank"."""
    from pbem.rulesets.europe_1999.combat_rules import COMBAT_RULES as EUR

    dice = Fixed({"raid/Moscow/aa-all": [6], "raid/Moscow/damage": [5]})
    out = bombing_raid("Moscow", 2, 0, 1, dice, EUR, aa_guns=1, treasury=3)
    assert out.damage_applied == 5 and out.ipcs_lost == 3
