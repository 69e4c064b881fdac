"""The battle rules of Axis & Allies Revised, each field with its rulebook source.

Sections are the rulebook's (shared/rules/revised.txt has no page numbers): Phase 4 Conduct Combat
(Combat Sequence steps 1-8, Special Combats), Appendix 1 Unit Profiles, and the FAQ.  "DIGEST"
points to shared/rules/DIGEST.md §5 REV where the text needed a reading.
"""

from pbem.engine.combat.rules import CombatRules

COMBAT_RULES = CombatRules(
    # Step 2, Submarines: "Both attacking and defending submarines fire in this step"; FAQ: "Every
    # sub, regardless of whether it's on the attacking or defending side, fires in the Opening Fire
    # step of combat. That's the only time a sub ever fires."
    sub_surprise_attacker=True,
    sub_surprise_defender=True,
    # Submarine profile: "Attack: 2 (Opening fire step)", "Defense: 2"; the values come from the
    # profile (surprise_uses_unit_values), so Super Submarines (3) and Wolf Packs change them.
    sub_surprise_attack_value=2,
    sub_surprise_defense_value=2,
    surprise_uses_unit_values=True,
    # FAQ: "Nothing, not even a destroyer, ever stops a sub from rolling its die".
    surprise_cancelled_by_destroyer=False,
    # Submarine profile "Sneak Attack": "Casualties from this attack will be destroyed before they
    # can return fire, unless an enemy destroyer is present"; step 3 "Destroyers and Submarine
    # Casualties": the destroyer's player skips removing them, they fire back and go in step 6.
    surprise_casualties_fire_back=False,
    surprise_victims_fire_back_with_own_destroyer=True,
    # FAQ: "Do they get to fire during the Opening Fire step of every round ...? Every round."
    surprise_repeats_every_round=True,
    # Step 7: "Submarines on both sides may retreat during this step by submerging"; Submarine
    # profile "Submerge": "after the attacker and defender have fired"; FAQ: when attacked by a
    # sub, "In the Press Attack or Retreat step, same as always."
    submerge_timing="at_press_or_retreat",
    # Destroyer profile "Submarine Disruption": "enemy submarines cannot submerge while your
    # destroyer is present"; Submarine profile: "The presence of an enemy destroyer in combat
    # prevents a submarine from submerging."
    submerge_cancelled_by_destroyer=True,
    # Step 2: "Submarines can fire only on sea units"; FAQ: "Submarines can only hit sea units."
    subs_can_hit_air=False,
    # FAQ: "Nothing, not even a destroyer, ever stops a sub from rolling its die"
    fire_without_targets=True,
    # Only the attacking power's own units are its casualties (no rule like Europe's).
    allied_ships_take_sub_hits=False,
    # Submarine profile "Sneak Attack": "(Any sea or air unit can hit a submarine.)"
    air_hits_subs="always",
    # Step 2, Antiaircraft Guns: "The defender rolls one die (only one antiaircraft gun fires) for
    # each attacking air unit. For every roll of 1, one attacking air unit is destroyed."
    aa_shots_per_unit=None,
    aa_one_shot_per_air_unit=True,
    aa_hit=1,
    # FAQ: battleships and "The same thing applies to antiaircraft guns" - they leave the battle
    # board after their first opening fire.
    aa_first_round_only=True,
    # FAQ: "Is antiaircraft fire targeted against specific aircraft? Yes ... so that bombers will
    # be forced to take hits from AA guns" (DIGEST §5 REV.5): dice per aircraft type.
    aa_casualty_chooser="targeted",
    # AA profile: "Antiaircraft guns are never destroyed, except when a transport carrying one is
    # sunk"; step 3 "Return all antiaircraft guns to the game board".
    aa_can_be_casualty=False,
    # AA profile "Usable by Invading Forces": "If a territory is captured, any antiaircraft guns
    # there are also captured"; Blitzing: a tank meeting only AA guns and/or a complex takes control.
    aa_destroyed_when_alone=False,
    # Transport profile "No Attack Fire": "If it is the only attacking unit left, it must survive the
    # defender fires step before it can retreat"; transports defend on 1 (no defenceless rule).
    defenceless_transports=False,
    # Step 6 sidebar: casualties in any order ("You might sink a destroyer rather than a transport").
    transports_chosen_last=False,
    # Battleship Damage: "If a battleship survives a combat having taken 1 hit, return it upright
    # ... it is unharmed at the start of the next combat."
    two_hit_repair="end_of_combat",
    # Artillery Supporting Infantry: "Each infantry must be matched one-for-one with a supporting
    # artillery"; infantry attack "2 when supported by artillery"; not on defence.
    artillery_supports=1,
    artillery_bonus=1,
    # Step 8: "Air units can never capture a territory."
    air_can_capture=False,
    # Step 2, Battleship Bombardment: "Each battleship fires once" - no one-ship-per-land-unit cap
    # (DIGEST §5 REV.7).
    bombard_cap_per_seaborne_unit=False,
    # FAQ: "Battleships are removed from the battle board after their first Opening Fire attack."
    bombard_first_round_only=True,
    unloading_ships_bombard=True,  # Tokyo Express FAQ: the destroyers act "as both transports and destroyers"
    # Battleship profile "Shore Bombardment": "(the enemy units do not fire back)".
    bombard_casualties_fire_back=False,
    # Step 2: "Each battleship fires once during this step against enemy land units in the territory
    # being attacked. If there are no enemy land units present, ignore this step" (also Amphibious
    # Assaults, Land Combat, and the Battleship profile): a defending fighter takes no bombardment hit.
    bombard_targets="land",
    # Conduct Opening Fire: battleships, and destroyers with Combined Bombardment ("following the same
    # rules as for battleships"): no order is written; weakest first as every roll.
    bombard_strongest_first=False,
    # Special Combats, Amphibious Assaults: "During the conduct combat phase, that player may call off
    # the landing but cannot redirect the attack to a different territory."
    amphibious_call_off="in_combat",
    # Amphibious Assaults, Land Combat: "attacking land units cannot retreat (not even if they came
    # from adjacent territories or moved there over land)"; step 7: "Only air units can retreat".
    seaborne_can_retreat=False,
    overland_can_retreat_from_amphibious=False,
    # Strategic Bombing Raids: "an enemy antiaircraft gun fires on each attacking bomber"; no gun,
    # no fire (the complex has none).
    sbr_model="aa_gun_rolls_per_bomber",
    sbr_aa_hit=1,  # AA profile: "For every roll of 1, one attacking air unit is destroyed"
    sbr_damage_dice=1,  # "Roll one die for each surviving bomber" (Heavy Bombers: 2, per battle)
    sbr_damage_bonus=0,
    # "each bomber can inflict no more IPC loss than the territory's income value"; FAQ: "Per bomber."
    sbr_damage_cap_per_ipc=1,
    sbr_cap_per_bomber=True,
    # "The opponent must surrender that many IPCs to the bank" (no damage markers, no repairs).
    sbr_loss="treasury",
    # Strategic Bombing Raids: "it involves only attacking bombers and defending antiaircraft guns":
    # no escorts, no interceptors, no air battle.
    escort_attack=0,
    interceptor_defense=0,
    air_battle_rounds=0,
    # Strategic Bombing Raids: "it involves only attacking bombers and defending antiaircraft guns".
    escorts="never",
    sbr_aa_before_air_battle=False,
    sbr_aa_casualties_at_once=False,  # no dogfight after the AA fire in this game
    bombers_fire_in_air_battle=False,  # no air battle (escorts="never")
    # No air battle in this game (air_battle_rounds 0).
    interceptors_fire_back=False,
)
