"""The battle rules of Axis & Allies Europe (1999), each field with its Gameplay Manual source.

Sections are those of shared/rules/europe_1999.txt: Resolving Naval Combat (steps 1-6), Resolving
Land Combat, Special Kinds of Battles (Amphibious Assaults, Strategic Bombing Raids) and the Combat
Units profiles.  "DIGEST" points to shared/rules/DIGEST.md §5 EUR where the text needed a reading.
"""

from pbem.engine.combat.rules import CombatRules

COMBAT_RULES = CombatRules(
    # Naval Combat step 2: "Attacking submarines may usually fire before any other unit during each
    # round of combat"; Submarines: "Defending submarines do not have a first-strike capability."
    sub_surprise_attacker=True,
    sub_surprise_defender=False,
    sub_surprise_attack_value=2,  # "For every "2" or less rolled, the defender suffers a hit"
    sub_surprise_defense_value=2,
    surprise_uses_unit_values=True,
    # "The presence of an enemy destroyer in the battle negates all submarines' first-strike ability";
    # Destroyers: "If all destroyers in a battle are taken as casualties ... submarines regain their
    # first-strike capability".
    surprise_cancelled_by_destroyer=True,
    # "These casualties are not placed on the Casualties area ... They do not get a chance to counterattack."
    surprise_casualties_fire_back=False,
    surprise_victims_fire_back_with_own_destroyer=False,
    # Step 6: "Repeat steps 2 to 5" - the first strike comes every round.
    surprise_repeats_every_round=True,
    # Step 2: "Submarines may submerge instead of attacking"; step 4: "Defending submarines may submerge
    # instead of firing back".
    submerge_timing="attacker_at_strike_defender_instead_of_return_fire",
    # Step 2: a destroyer negates the first strike, "But not their ability to submerge".
    submerge_cancelled_by_destroyer=False,
    # Submarines: "Submarines may never attack or defend against air units."
    subs_can_hit_air=False,
    # Submarines: "Submarines may never attack or defend against air units": none rolls against air alone
    fire_without_targets=False,
    # German Submarines vs. Allied Ships: "If one of the Allies attacks a German submarine while other
    # Allied naval units are present in the same sea zone ... the combined Allied forces may chose any
    # one of their ships as a casualty"; the attacker's order of loss chooses.
    allied_ships_take_sub_hits=True,
    # "Air units may not attack a submarine unless a friendly destroyer is also present in the battle."
    air_hits_subs="with_friendly_destroyer",
    # Antiaircraft Gun: "The AA gunner rolls one die for each attacking aircraft"; "No matter how many AA
    # guns are in a territory, only one die per aircraft is rolled for that territory".
    aa_shots_per_unit=None,
    aa_one_shot_per_air_unit=True,
    aa_hit=1,
    # Land Combat sequence: the AA gun fires once, before the first round (reference chart step 2,
    # "Repeat steps 3 thru 5").
    aa_first_round_only=True,
    # "one plane is shot down and removed (owner's choice)".
    aa_casualty_chooser="aircraft_owner",
    # AA guns "are taken over when located in a territory captured by the enemy"; never casualties.
    aa_can_be_casualty=False,
    aa_destroyed_when_alone=False,
    # Naval Combat step 1: the transport "may be selected as a casualty"; it defends at 1 - no
    # defenceless-transport rule, no "transports last" rule.
    defenceless_transports=False,
    transports_chosen_last=False,
    # Battleships: "If it does not receive a second hit, it is considered repaired and turned upright at
    # the end of the turn" (Action Sequence 6).
    two_hit_repair="end_of_turn",
    # Artillery: "Increases each matching infantry to an attack roll of 2" (setup chart); attack only.
    artillery_supports=1,
    artillery_bonus=1,
    # Combat Results: "You may not capture a territory with air units alone."
    air_can_capture=False,
    # Amphibious Assaults step 1: each battleship and destroyer in the zone fires once; no cap per landed unit.
    bombard_cap_per_seaborne_unit=False,
    bombard_first_round_only=True,
    unloading_ships_bombard=True,  # no warship carries land units in this game
    # "The defender chooses his/her casualties ... (These units may fire during the defender's normal
    # counterattack.)"
    bombard_casualties_fire_back=True,
    # Amphibious Assaults step 1: "The defender chooses his/her casualties (if any)".
    bombard_targets="any",
    # Amphibious Assaults step 1: "The attacker rolls one die for each battleship ... The attacker then
    # rolls one die for each destroyer".
    bombard_strongest_first=True,
    # Amphibious Assaults, Note: "After a naval battle, the attacker is allowed to call off the
    # Amphibious Assault. He may not redirect it to another territory."
    amphibious_call_off="after_sea_battle",
    # "all land units (including those that may have come from adjacent territories) lose their option
    # of retreating. Air units may retreat as normal."
    seaborne_can_retreat=False,
    overland_can_retreat_from_amphibious=False,
    # Strategic Bombing Raids step 4: "The defending player fires his AA gun by rolling one die against
    # each attacking aircraft (bombers and any fighter escorts). Each roll of "1" scores a hit"; no gun, no fire.
    sbr_model="aa_gun_rolls_per_bomber",
    sbr_aa_hit=1,
    # Step 5: "surviving bomber(s) each roll one die. The total rolled ... is the number of IPCs the
    # defender must immediately surrender to the bank"; "as many IPCs as he has" - no territory cap.
    sbr_damage_dice=1,
    sbr_damage_bonus=0,
    sbr_damage_cap_per_ipc=None,
    sbr_cap_per_bomber=False,
    sbr_loss="treasury",
    # Step 4 B-C: defending fighters hit on "2" or lower; escorts return fire with "1"; "This battle is
    # now over (after one round)".  Escorts and interceptors are part of the rules, not an option.
    escort_attack=1,
    interceptor_defense=2,
    air_battle_rounds=1,
    escorts="always",
    # Step 4: AA fire first (A), then the fighters (B, C), then the attacker removes its casualties (D).
    sbr_aa_before_air_battle=True,
    # The AA gun's victims are out before the dogfight: the Strategic Bombing Raid Example has "The AA
    # gun scored one hit and Germany sacrifices fighter A", and then "The German player responds with
    # his remaining fighter" - one escort die, not two. Step 4 notes the AA's hits and has the attacker
    # remove casualties in D, which would let the escort hit by the AA fire too; the example, and
    # Pacific's same procedure ("that number of units are immediately removed"), say otherwise.
    sbr_aa_casualties_at_once=True,
    bombers_fire_in_air_battle=False,  # the escorts fight the interceptors (sbr_aa_before_air_battle)
    # Strategic Bombing Raids step 4: the defending fighters fire (B) before the escorts (C): none is hit yet.
    interceptors_fire_back=False,
)
