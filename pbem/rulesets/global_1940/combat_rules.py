"""The battle rules of Axis & Allies 1940 Global (2nd edition, out of the box), each field with its source.

Citations: the AMS guide where it restates the box with an E/P page (DIGEST §1.2 "Combat"), and
TripleA's ww2global40_2nd_edition.xml (its game properties and unit attachments) where no seed
states the rule; README.md lists those.
"""

from pbem.engine.combat.rules import CombatRules

COMBAT_RULES = CombatRules(
    # Surprise strike (E16): "Only when no enemy destroyer is present"; "Attacking subs hit on ≤2,
    # defending subs on ≤1" - their own values; "The step repeats every round".
    sub_surprise_attacker=True,
    sub_surprise_defender=True,
    sub_surprise_attack_value=2,
    sub_surprise_defense_value=1,
    surprise_cancelled_by_destroyer=True,
    # "Casualties are removed at once (capital ships still need 2 hits)" (DIGEST §5 AMS.4).
    surprise_casualties_fire_back=False,
    surprise_repeats_every_round=True,
    surprise_uses_unit_values=True,
    surprise_victims_fire_back_with_own_destroyer=False,
    # "if there are subs and no enemy destroyer, subs make surprise strikes and/or submerge before
    # general combat" (E12, 3.b.ii): the choice is made instead of the strike.
    submerge_timing="instead_of_surprise_strike",
    submerge_cancelled_by_destroyer=True,
    # Submarine: "cannot hit or be hit by air without a destroyer" (unit table).
    subs_can_hit_air=False,
    # E19/E31: "Subs cannot ever hit air units" - they roll, as in 1942, and the hits are lost
    fire_without_targets=True,
    allied_ships_take_sub_hits=False,
    air_hits_subs="with_friendly_destroyer",
    # AAA: "Each AAA unit ... may fire up to 3 shots, but each airplane can only be shot at once";
    # "Hits on 1"; "Fires once, before round 1"; "Can take hits".
    aa_shots_per_unit=3,
    aa_one_shot_per_air_unit=True,
    aa_hit=1,
    aa_first_round_only=True,
    # TripleA "Choose AA Casualties": the owner of the aircraft chooses.
    aa_casualty_chooser="aircraft_owner",
    aa_can_be_casualty=True,
    # No seed says what AAA alone does; as in 1942 Second Edition, whose AAA it is, AAA with no combat
    # units is destroyed (README.md).
    aa_destroyed_when_alone=True,
    # TripleA "Unescorted Transport Dies", "Transport Casualties Restricted"; AMS: "Chosen last".
    defenceless_transports=True,
    transports_chosen_last=True,
    # Capital ships (battleships, carriers) stay damaged until a naval base repairs them at the start of
    # their owner's turn: TripleA "Two HitPoint Units Require Repair Facilities", "Units Repair Hits
    # Start Turn" (AMS: "Capital ship (2 hits; repaired at a naval base)").
    two_hit_repair="at_naval_base",
    # Combined arms (E17/P17): "infantry + artillery: the infantry attacks at 2"; "mech + artillery:
    # the mech attacks at 2" (the mech is tagged infantry); one artillery supports one.
    artillery_supports=1,
    artillery_bonus=1,
    air_can_capture=False,  # "Air units cannot capture."
    # Bombardment (E18): "at most one per land unit being offloaded"; "Cruisers hit on 3,
    # battleships on 4. Casualties go to the casualty strip and still defend".
    bombard_cap_per_seaborne_unit=True,
    bombard_first_round_only=True,
    unloading_ships_bombard=True,
    bombard_casualties_fire_back=True,
    # Bombardments (AMS guide, E18): "Casualties are moved to the casualty strip", of any defending unit.
    bombard_targets="any",
    # Bombardment: no order is written for battleships and cruisers; weakest first as every roll.
    bombard_strongest_first=False,
    # No calling off: neither the box rules the AMS guide cites (E14, E18) nor the guide allow it.
    amphibious_call_off="never",
    # Amphibious assault: "Seaborne units cannot retreat. Overland units and air units may".
    seaborne_can_retreat=False,
    overland_can_retreat_from_amphibious=True,
    # Bombing raids (E16/E17): after the air battle, "each facility fires its built-in AA: 1d6 per
    # bomber, hitting on 1"; "Each surviving bomber rolls 1d6 of damage" - plus 2 for a strategic
    # bomber in the box (TripleA bomber "bombingBonus" 2; the +1s of AMS are house rules).
    sbr_model="complex_rolls_per_bomber",
    sbr_aa_hit=1,
    sbr_damage_dice=1,
    sbr_damage_bonus=2,
    # "Damage caps come from the facility tables" (units.yaml max_damage: major 20, minor 6).
    sbr_damage_cap_per_ipc=None,
    sbr_cap_per_bomber=False,
    sbr_loss="damage",
    # "Any number of fighters may escort or intercept"; "One air battle per territory, one round.
    # Fighters attack and defend at 1".
    escort_attack=1,
    interceptor_defense=1,
    air_battle_rounds=1,
    escorts="always",
    sbr_aa_before_air_battle=False,
    sbr_aa_casualties_at_once=False,
    # "strategic and tactical bombers attack at 0 (unmodified)" in the air battle (E16/E17).
    bombers_fire_in_air_battle=False,
    # E17: one round of combat, "Fighters attack and defend at 1": the interceptors hit fire back, as
    # "hit defending units can still fire back before being eliminated" in every battle (the guide's E/P).
    interceptors_fire_back=True,
)
