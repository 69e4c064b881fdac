"""Axis & Allies 1942 Second Edition: every choice the engine leaves open, with its rulebook section.

Combat choices (submarines, anti-aircraft artillery, bombardment, defenceless transports, bombing
raids) are in `combat_rules.py` beside this file; unit profiles in `units.yaml`; map and setup in
`map.yaml` and `setup.yaml`.
"""

from pbem.engine.rules import CapitalRules, EconomyRules, MovementRules, ProductionRules, Rules, VictoryCheck

RULES = Rules(
    movement=MovementRules(
        # "Hostile sea zones contain enemy surface warships (this does not include enemy submarines and
        # transports)" (Combat Move).
        hostile_sea_zone_tags=frozenset({"surface_warship"}),
        # Submarines "may pass through sea zones with enemy warships unless an enemy destroyer is present"
        # (Submarines).
        subs_ignore_hostile_zones=True,
        # p. 8 and Transports: "for purposes of determining the status of a sea zone, submarines and
        # transports are ignored"; "Sea units can also end their noncombat movement in a sea zone
        # containing only enemy transports"; Noncombat Move: "submarines can move through and even into
        # hostile sea zones", stopping at enemy destroyers.  (The "a transport may not end beside
        # a lone enemy submarine" is in no passage of the rulebook, which ignores submarines here.)
        noncombat_sea_may_end_beside=frozenset({"transport", "submarine"}),
        subs_end_noncombat_in_hostile_zones=True,
        # "a submarine must end its movement when it enters a sea zone containing one or more enemy
        # destroyers" (Noncombat Move; Destroyers: "whether combat or noncombat"): it ends there.
        subs_end_noncombat_beside_destroyers=True,
        # Submerged submarines leave the battle and do not stay on the board as such in 1942.
        destroyers_reveal_submerged_subs=False,
        # "A tank that encounters enemy units, including antiaircraft artillery units or an industrial
        # complex, in the first territory ... must stop" (Tanks and Blitzing, pg. 13).
        blitz_blocked_by_domains=frozenset({"land", "structure", "air"}),
        # Air units must land in a territory "friendly at the start of your turn" (Noncombat Move).
        air_may_land_in_captured=False,
        # Antiaircraft artillery "can move only during the Noncombat Move phase" (Unit Profiles, pg. 24).
        aa_moves_in_combat=False,
        # AAA fires "only when the air units attack a territory, not when they fly over it" (Air Units).
        aa_fires_at_overflight="never",
        # Moves apply in order: a fighter lands on a carrier in its zone at the time of its move.
        fighters_land_after_noncombat=False,
        # Aircraft Carriers: a fighter whose carrier sank lands one space away, battle or not.
        stranded_air_avoids_contested=False,
        # Noncombat Move: "fighter interceptors whose original territory is now under enemy control ...
        # are allowed movement of up to one space to find a friendly territory or carrier".
        interceptors_of_captured_territory="move_one_space",
        # Fighters: an attacking fighter "can retreat to a friendly territory, island, or carrier within
        # range if it survives combat" - no word against the carrier of its own battle.
        attacking_air_lands_at_sea_battle="always",
        # Combat Move Phase, Aircraft Carriers: "Any fighters belonging to an aircraft carrier launch
        # before the carrier moves and move independently of the carrier.  These fighters can make a
        # combat move from the carrier's sea zone, or they can remain in the sea zone until the
        # Noncombat Move phase"; Fighters: each "launches before combat (even if it is not
        # participating in combat)".  Those that attack with it are ordered with it.
        carrier_air_in_combat_move="in_the_air",
        # In noncombat move a fighter left aboard rides along, as if it flew beside its carrier.
        carrier_air_in_noncombat_move="along",
        # Fighters (unit profile): "Your aircraft carrier can move to a sea zone where one of your
        # fighters has ended its move ... but cannot move any farther that turn"; Noncombat Move: "both
        # units must END their movement in the same sea zone".
        carrier_moves_after_landing=False,
        # Air Units: "if you declared that a new carrier will be mobilized to provide a safe landing zone for a fighter".
        air_lands_for_new_carriers=True,
        # A transport makes one combat move (engine behaviour kept for 1942).
        transport_combat_move_in_legs=False,
        # Noncombat Move: transports "can load or offload cargo, unless they loaded, moved, offloaded, or
        # were involved in combat" earlier in the turn.
        transport_after_combat="nothing",
        # Transports, bridging: "once it offloads, it cannot move, load, or offload again that turn";
        # an assault's transport is held to the same.
        offloads_again_after_assault=False,
        # Sea Units Starting in Hostile Sea Zones: "you cannot load units while in a hostile sea zone",
        # nothing more; after combat `transport_after_combat` rules it.
        transport_from_hostile_start="as_any",
        # Transports, No Combat Value: they "may not attack without being accompanied by at least one unit
        # with an attack value", but for an assault from a friendly zone free of enemy submarines.
        transports_attack_alone=False,
        # Condition B: "In the case of sea units, that space must have been friendly at the start of the turn."
        retreat_to_friendly_at_start=frozenset({"sea"}),
        sea_retreat_via_path=False,
        # Optional rule, Turkish Straits: "no sea units may move into or out of sea zone 16" (air may).
        closed_straits={"turkish_straits_closed": ("SZ 16",)},
        canals_open_to_submarines=frozenset(),  # no canal is open to submarines alone
        combat_air_patrol=False,
        damaged_carriers_hold_no_air=False,  # no damage outlasts a battle's end here, or carriers take one hit
        air_lands_where_captured={},  # no power lands where it captured this turn
    ),
    capitals=CapitalRules(
        # Capturing a capital takes "all unspent IPCs" of its original controller (Capitals).
        capital_plunder=True,
        # Liberation becomes capture if the original controller's capital "is in enemy hands at the end
        # of the turn" (Liberating a Territory, pg. 19; DIGEST §5 A42.5).
        liberation_deferred_to_end_of_turn=True,
        liberation_needs_capital=True,
        # A power without its capital "cannot collect income ... and cannot buy new units".
        no_income_without_capital=True,
        no_purchase_without_capital=True,
        # Capturing capitals stops buying and collecting only; no phase is skipped (no rule gives anything in them).
        phases_skipped_without_capital=frozenset(),
        # plunder every time a capital falls; no capital moves (the AMS house rules change both)
        plunder_once=False,
        exile={},
    ),
    production=ProductionRules(
        # Each complex mobilizes up to the territory's IPC value, sea zones included, minus damage.
        production_limit="territory_ipc",
        # "You can never mobilize units at an industrial complex of a friendly power".
        place_at_ally_complex="never",
        # A new complex needs a territory "with an income value of at least 1" held since turn start.
        new_complex_min_ipc=1,
        max_complexes_per_territory=1,
        new_complexes_on_islands=True,  # no rule keeps a complex off an island
        new_complexes=True,
        # Mobilize New Units: fighters go "on an aircraft carrier owned by your power ... either a new one currently being
        # mobilized, or an existing one already in place"; never on a friendly power's carrier.
        new_fighters_on_carriers="own_carriers",
        existing_air_onto_new_carriers=False,  # Mobilize New Units speaks of new fighters only
        facilities_anywhere=False,  # no facilities but complexes
        own_recapture_downgrades=True,  # no facility is downgraded by capture here
        factories_removed_on_return=frozenset(),
        never_repair=frozenset(),
        # Units bought but not placed are returned and refunded (Mobilize New Units).
        refund_unplaced=True,
        # Repairs cost 1 IPC per damage point, paid in the Purchase phase.
        repair_cost_per_point=1,
    ),
    # No convoy centres and no tribute spaces on this board.
    economy=EconomyRules(convoy_income_to_captor=False, convoy_captured_in_passing=False, convoy_taken_in_stalemate_by_submarines=False, tribute_paid_by_enemies=False,
                         convoy_open_in_noncombat=True, subs_take_convoy_in_place=False,
                         countries_without_income=frozenset(), convoy_disruption=None),
    victory=VictoryCheck(
        kind="victory_cities",
        # Victory is checked "at the end of the round, after the U.S. turn" (Check for Victory).
        checked_after="United States",
        capitals_not_won=frozenset(),
        points=None,
        held_for_a_round=False,  # counted once, at the end of the round
    ),
    kamikaze=None,
    politics=None,
    # Page numbers the rulebook itself gives in its cross-references ("see Tanks and Blitzing,
    # pg. 13") and where its page ends fall in the text.
    citations={
        "Tanks and Blitzing": "Tanks and Blitzing, pg. 13",
        "Unit Profiles": "Unit Profiles, pg. 24",
        "Canals": "Canals, pg. 9",
        "Neutral Territories": "Neutral Territories, pg. 9",
        "Order of Play": "Order of Play, pg. 10",
        "General Combat, step 6": "General Combat, step 6 (Attacker Retreats, pg. 18)",
    },
)
