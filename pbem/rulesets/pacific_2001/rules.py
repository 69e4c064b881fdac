"""Axis & Allies Pacific (2001): every choice the engine leaves open, with its rulebook phase.

Combat choices (submarines, AA guns, bombardment, bombing raids) are in `combat_rules.py` beside
this file; unit profiles in `units.yaml`; map and setup in `map.yaml` and `setup.yaml`; the rules
that are code (China's infantry, Japanese destroyers, air bases, the first turn, Marines, whose
marker a capture takes) in `special.py`.  Phases and sections are those of
shared/rules/pacific_2001.txt, which has no page markers.
"""

from pbem.engine.rules import (
    CapitalRules,
    EconomyRules,
    Kamikaze,
    MovementRules,
    ProductionRules,
    Rules,
    RuleHooks,
    VictoryCheck,
    VictoryPoints,
)
from pbem.rulesets.pacific_2001.special import (
    air_base_steps,
    capture_country,
    china_infantry,
    first_turn_and_marines,
    japanese_destroyer_cargo,
    naval_base_move,
)

RULES = Rules(
    movement=MovementRules(
        # Phase 6: naval units "may move into any sea zone that does not contain enemy naval units"
        # (submerged submarines excepted); transports count.
        hostile_sea_zone_tags=frozenset({"surface_warship", "submarine", "transport"}),
        subs_ignore_hostile_zones=False,
        noncombat_sea_may_end_beside=frozenset(),
        subs_end_noncombat_in_hostile_zones=False,
        subs_end_noncombat_beside_destroyers=False,
        destroyers_reveal_submerged_subs=False,
        # Tanks: "An enemy-controlled territory with nothing but AA guns is still considered occupied,
        # and may not be blitzed through."
        blitz_blocked_by_domains=frozenset({"land", "structure", "air"}),
        # Phase 6: air units land in friendly territories, "not ones captured this turn".
        air_may_land_in_captured=False,
        # Antiaircraft Gun: "may not be moved into an enemy-occupied territory as an attacking land unit".
        aa_moves_in_combat=False,
        # Phase 3: "Any air units that fly over enemy antiaircraft guns during Combat Movement are
        # subject to antiaircraft fire"; Phase 4, step 6 A: "Retreating planes, however, are still
        # subject to enemy antiaircraft gunfire if they pass over territories with AA guns"; no AA
        # fire at other flights of non-combat movement.
        aa_fires_at_overflight="combat_move_and_retreat",
        # Aircraft Carriers: "If a fighter lands on your carrier during your turn, the carrier may
        # not move again that turn": landings happen as moves are made.
        fighters_land_after_noncombat=False,
        stranded_air_avoids_contested=False,
        # Strategic Bombing Raids: "Fighter planes that were defending against the SBR must land in the
        # territory containing the Industrial Complex. If that territory was captured this turn they
        # cannot land and are lost."
        interceptors_of_captured_territory="lost",
        # Phase 5, Air Units: attacking planes may not remain or land "in a land territory, island or
        # island group where a battle just took place": sea zones are not named.
        attacking_air_lands_at_sea_battle="always",
        # Aircraft Carriers: a fighter "must also take off before you move the carrier.  If the fighter
        # doesn't take off before you move the carrier, the fighter is treated as cargo for the
        # remainder of your turn and may not fly, fight or be used as a casualty".
        carrier_air_in_combat_move="cargo",
        carrier_air_in_noncombat_move="cargo",
        carrier_moves_after_landing=False,
        # Phase 6: fighters "land on any friendly aircraft carrier within range": none is built yet.
        air_lands_for_new_carriers=False,
        # Transports: "A transport may load before, during or after moving".
        transport_combat_move_in_legs=True,
        # Transports: after combat it "may load OR unload" and may not move.
        transport_after_combat="load_or_offload",
        # Nothing lets an assault's transport unload again in non-combat movement: done for the turn.
        offloads_again_after_assault=False,
        # Transports: "A transport that starts a turn with enemy ships in the same sea zone may not load
        # or unload in that sea zone, unless an Amphibious Assault is being made."
        transport_from_hostile_start="assault_only",
        # "Transports may not attack, but may defend in sea zones" is read as: no attack roll. They have a
        # place on the attacker's side of the battle board, may be its casualties and may retreat ("with
        # any remaining surface ships or transports"), and no rule keeps one from moving in alone.
        transports_attack_alone=True,
        # Attacker retreats: land units to "an adjacent friendly territory that was under the owner's control
        # at the start of the turn"; ships to a zone with no enemy unit now (the hostile zone tags).
        retreat_to_friendly_at_start=frozenset({"land"}),
        # Naval combat A: "an adjacent friendly sea zone from which any of the attacking naval units moved
        # through or came from".
        sea_retreat_via_path=True,
        closed_straits={},
        canals_open_to_submarines=frozenset(),  # no canal is open to submarines alone
        # Phase 6, Establish Combat Air Patrol; Phase 2, CAP fighters must land.
        combat_air_patrol=True,
        damaged_carriers_hold_no_air=False,  # no damage outlasts a battle's end here, or carriers take one hit
        air_lands_where_captured={},  # no power lands where it captured this turn
    ),
    capitals=CapitalRules(
        # Capturing an Enemy Capital: "the capturing player *immediately* takes all of the IPCs that
        # the losing player has on hand".
        capital_plunder=True,
        liberation_deferred_to_end_of_turn=False,
        # Liberating a Former Allied Territory: "Your ally becomes the owner again" - no exception for
        # an ally whose capital is lost (DIGEST §5 PAC.13).
        liberation_needs_capital=False,
        # "If you do not regain your capital, you may not collect income"; "On your turn, you may not
        # purchase units" - by country: the example's Great Britain still buys for India.
        no_income_without_capital=True,
        no_purchase_without_capital=True,
        # Capturing a Capital: "you may not purchase units" and collect nothing; China's free infantry come all the same.
        phases_skipped_without_capital=frozenset(),
        # plunder every time a capital falls; no capital moves (the AMS house rules change both)
        plunder_once=False,
        exile={},
    ),
    production=ProductionRules(
        # Phase 7: "There is no limit to the number of units that can be placed into an Industrial
        # Complex that was controlled at the start of the game"; one "captured or built during the
        # game" places up to "the IPC income of that territory".
        production_limit="unlimited_at_starting_complexes",
        place_at_ally_complex="never",
        # Phase 1: "Only the U.S. may purchase Marines and Industrial Complexes" (units.yaml bought_by);
        # Phase 7: "in any territory the US controlled at the start of its turn", one per territory.
        new_complexes=True,
        new_complex_min_ipc=0,
        max_complexes_per_territory=1,
        new_complexes_on_islands=True,  # no rule keeps a complex off an island
        refund_unplaced=False,
        repair_cost_per_point=0,
        # Phase 7: "New fighters may not be placed on carriers."
        new_fighters_on_carriers="never",
        existing_air_onto_new_carriers=False,  # no fighter is placed on a carrier at all
        facilities_anywhere=False,  # no facilities but complexes
        own_recapture_downgrades=True,  # no facility is downgraded by capture here
        factories_removed_on_return=frozenset(),
        never_repair=frozenset(),
    ),
    economy=EconomyRules(
        # Convoy Centers: "Japan cannot gain IPC income by taking control of enemy convoy centers, but
        # can deny its enemies this income"; Convoy Routes: "The capturing player does not increase
        # his National Production level" (economy.income).
        convoy_income_to_captor=False,
        # Phase 5: "If, during combat movement, you move a naval unit (except a transport) through or
        # into an empty sea zone containing a convoy route or convoy center, you take control of it."
        convoy_captured_in_passing=True,
        # Phase 5, Following a Battle: "If all remaining units cannot attack each other, the attacker
        # may take control of the convoy route or center if he has submarines present that have not
        # submerged. If his only remaining units are aircraft, then control ... does not change."
        convoy_taken_in_stalemate_by_submarines=True,
        # Phase 5: "Moving through in noncombat does not remove enemy markers" - nor is it barred.
        convoy_open_in_noncombat=True,
        # Phase 5, Note: "Submarines that begin a turn in an empty sea zone containing an enemy convoy
        # route or convoy center may spend one of their two moves to remain in the sea zone and take
        # control of it before using their second move to go to an adjacent sea zone."
        subs_take_convoy_in_place=True,
        tribute_paid_by_enemies=False,
        # Capturing an Enemy Capital: "China has no IPCs. (Their infantry units are built automatically.)"
        countries_without_income=frozenset({"China"}),
        convoy_disruption=None,  # no convoy zones on this board
    ),
    victory=VictoryCheck(
        # Object of the Game: an enemy capital held "until the start of your next turn" while you hold
        # your own - for Japan "India, New South Wales or USA", not China's Szechwan.
        kind="capital_held",
        checked_after=None,
        capitals_not_won=frozenset({"China"}),
        # Object of the Game: "Accumulate 22 victory points (VPs). Japan scores one point for each 10
        # IPCs collected at the end of its turn"; the Allies win if Japan collects none (DIGEST §5
        # PAC.10: at Japan's Phase 9).  Below 0 is not stated: the track starts at 0 (PAC.12).
        points=VictoryPoints(power="Japan", per_ipcs=10, to_win=22, enemies_win_on_none=True),
        held_for_a_round=False,  # the capital's "until the start of your next turn" is kind capital_held
    ),
    # Kamikaze (Japan only): "six Kamikaze attacks during the game", only in the zones with the
    # symbol (map `kamikaze`), "an attack roll of 2", against "specific enemy surface ships", "not ...
    # against submarines" (transports are surface ships: DIGEST §5 PAC.7).
    kamikaze=Kamikaze(power="Japan", tokens=6, hit=2, unit="kamikaze", target_tags=frozenset({"surface_warship", "transport"}),
                      # "used during the first round of combat. Any ships sunk as a result still get to return fire"
                      victims_fire_back=True, only_where_attacked=False, before_surprise_strike=False),
    # Japan and the Allies are at war from the first turn.
    politics=None,
    # the engine's generic sections, in this rulebook's words
    citations={
        "General Combat, step 6": "Resolving Combat, 6 A: The attacker retreats",
        "General Combat, Step 6, Condition B": "Resolving Combat, 6 A: The attacker retreats",
        # the phases as this rulebook names them
        "Purchase Units": "Phase 1, Purchase Combat Units",
        "Combat Move": "Phase 3, Combat Movement",
        "Noncombat Move": "Phase 6, Non-Combat Movement",
        "Mobilize New Units": "Phase 7, Place New Units",
    },
    hooks=RuleHooks(
        free_units=china_infantry,
        extra_cargo=japanese_destroyer_cargo,
        free_air_steps=air_base_steps,
        movement_bonus=naval_base_move,
        capture_country=capture_country,
        battle_modifiers=first_turn_and_marines,
    ),
)
