"""The battle rules of Axis & Allies Pacific (2001), each field with its rulebook source.

Sections are those of shared/rules/pacific_2001.txt: Phase 4, Resolve Combat (land and naval combat,
Amphibious Assaults, Strategic Bombing Raids, Multi-player Forces) and the Combat Units profiles.
The naval sequence is Europe's almost word for word; where Pacific's wording differs it is quoted.
"DIGEST" points to shared/rules/DIGEST.md §5 PAC where the text needed a reading.
"""

from pbem.engine.combat.rules import CombatRules

COMBAT_RULES = CombatRules(
    # Submarines: "Attacking submarines have a deadly first-strike capability that is negated only by
    # the presence of an enemy destroyer. Defending submarines do not have a first-strike capability."
    sub_surprise_attacker=True,
    sub_surprise_defender=False,
    sub_surprise_attack_value=2,  # "For every "2" or less rolled, the defender suffers a hit"
    sub_surprise_defense_value=2,
    surprise_uses_unit_values=True,
    # Naval combat step 2: "The presence of an enemy destroyer in the battle negates all submarines'
    # first-strike ability"; the Submarine Combat Example: once the destroyer is gone "the Japanese
    # submarine now gets a first shot".
    surprise_cancelled_by_destroyer=True,
    # Naval combat step 2: casualties are removed immediately and "do not get a chance to counterattack".
    surprise_casualties_fire_back=False,
    surprise_victims_fire_back_with_own_destroyer=False,
    # Naval combat step 6: "Repeat steps 2-5" - the first strike comes every round.
    surprise_repeats_every_round=True,
    # Naval combat step 2: a sub "may submerge instead of attacking"; step 4: "Defending submarines may
    # submerge instead of firing back".
    submerge_timing="attacker_at_strike_defender_instead_of_return_fire",
    # A destroyer negates the first strike only (DIGEST §5 PAC.9: subs still submerge).
    submerge_cancelled_by_destroyer=False,
    # Submarines: "Submarines may never attack or defend against air units. (But they may submerge.)"
    subs_can_hit_air=False,
    # Aircraft Carrier Movement Example: "The sub cannot fire back because it may not attack air units"
    fire_without_targets=False,
    # Japanese Submarines vs. Allied Ships: "If an Allied player attacks a Japanese submarine while other
    # Allied naval units are present in the same sea zone - and the Japanese sub successfully returns
    # fire - then the Allies may choose any one of their ships as the casualty"; the attacker's order
    # of loss chooses.
    allied_ships_take_sub_hits=True,
    # "Air units may not attack a submarine unless a friendly destroyer is also present in the battle."
    air_hits_subs="with_friendly_destroyer",
    # Land combat step 2: AA fires "one die against each attacking aircraft"; only one die per aircraft
    # per territory, whatever the number of guns.
    aa_shots_per_unit=None,
    aa_one_shot_per_air_unit=True,
    aa_hit=1,
    # Land combat: AA fires first (step 2); step 6 repeats steps 3 to 5 only.
    aa_first_round_only=True,
    # "one plane is shot down and removed (owner's choice)".
    aa_casualty_chooser="aircraft_owner",
    # "Antiaircraft guns and Industrial Complexes may not be chosen as casualties"; captured with the
    # territory (Phase 5, C).
    aa_can_be_casualty=False,
    aa_destroyed_when_alone=False,
    # Naval combat step 1: an attacking transport "may be selected as a casualty should the attacking
    # force be required to eliminate a unit"; "Transports may not attack, but may defend" (at 1).
    defenceless_transports=False,
    transports_chosen_last=False,
    # Battleships need two hits in the same battle and are uprighted in Phase 8.
    two_hit_repair="end_of_turn",
    # Artillery: "For each artillery unit attacking, one Infantry or Marine unit may increase its attack
    # strength by 1"; "no dice roll adjustments made when artillery and infantry units are defending".
    artillery_supports=1,
    artillery_bonus=1,
    # Phase 5: "You may not capture a territory with air units alone."
    air_can_capture=False,
    # Amphibious Assaults step 2: battleships and destroyers bombard once, only if no naval battle was
    # fought in the zone; no cap per landed unit.
    bombard_cap_per_seaborne_unit=False,
    bombard_first_round_only=True,
    # Amphibious Assaults step 2: "Japanese destroyers unloading infantry may not provide a support shot."
    unloading_ships_bombard=False,
    # Step 2: the defender puts bombardment casualties in the casualty area and they fire back.
    bombard_casualties_fire_back=True,
    # Amphibious Assaults step 2: "The defender chooses his casualties (if any)".
    bombard_targets="any",
    # Amphibious Assaults step 2: "The attacker rolls one die for each battleship ... The attacker
    # then rolls one die for each destroyer".
    bombard_strongest_first=True,
    # Amphibious Assaults, Note: "After a naval battle, the attacker is allowed to call off the
    # Amphibious Assault. He may not redirect it to another territory."
    amphibious_call_off="after_sea_battle",
    # Amphibious Assaults: land units from adjacent territories may join, "but all land units lose the
    # option to retreat"; air units may retreat after at least one round.
    seaborne_can_retreat=False,
    overland_can_retreat_from_amphibious=False,
    # Strategic Bombing Raid step 4: AA fires first, "at each attacking aircraft", bombers and escorts
    # alike; each 1 is a hit; no gun, no fire.
    sbr_model="aa_gun_rolls_per_bomber",
    sbr_aa_hit=1,
    # Step 6: each surviving bomber rolls one die; the defender surrenders the total to the bank, or all
    # he has - there is no cap by territory value.  Japan's VP loss is the engine's (VictoryPoints).
    sbr_damage_dice=1,
    sbr_damage_bonus=0,
    sbr_damage_cap_per_ipc=None,
    sbr_cap_per_bomber=False,
    sbr_loss="treasury",
    # Step 5, the dogfight: defending fighters hit on 2 or less, escorts on 1; one round.  Escorts and
    # defending fighters are part of the rules, not an option.
    escort_attack=1,
    interceptor_defense=2,
    air_battle_rounds=1,
    escorts="always",
    # Step 4 then step 5: AA fire first, then the dogfight.
    sbr_aa_before_air_battle=True,
    # Step 4: "Each roll of 1 scores a hit and that number of units are immediately removed"; the
    # dogfight (step 5) is fought by the survivors.
    sbr_aa_casualties_at_once=True,
    bombers_fire_in_air_battle=False,  # the escorts fight the interceptors (sbr_aa_before_air_battle)
    # Strategic Bombing Raids: the defending fighters fire before the escorts: none is hit yet.
    interceptors_fire_back=False,
)
