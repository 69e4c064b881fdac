"""Axis & Allies Revised: every choice the engine leaves open, with its rulebook section.

Combat choices (submarines, antiaircraft guns, bombardment, transports, bombing raids) are in
`combat_rules.py` beside this file; unit profiles in `units.yaml`; map and setup in `map.yaml` and
`setup.yaml`.  Sections are those of shared/rules/revised.txt, which has no page numbers.

Revised rules the engine has no field for yet (weapons development, antiaircraft fire at aircraft
flying over, submerged submarines, purchase after liberation, ...) are listed in README.md with
their citations; `pbem.engine.research` and `pbem.engine.antiair` hold the first two as functions.
"""

from pbem.engine.rules import CapitalRules, EconomyRules, MovementRules, ProductionRules, Rules, RuleHooks, VictoryCheck
from pbem.rulesets.revised.advantages import (
    assaults_per_turn,
    commands,
    conversion_rule,
    declarations,
    extra_cargo,
    free_air_steps,
    free_units,
    interjections,
    may_bomb,
    may_convert,
    move_after_battle,
    movement_bonus,
    movement_profiles,
    no_combat_declarations,
    one_way_missions,
    setup_changes,
    standing_keys,
    standing_problems,
    structure_move,
    u_boat_interdiction,
)
from pbem.rulesets.revised.advantages_combat import battle_advantages_with_combat

RULES = Rules(
    movement=MovementRules(
        # Spaces on the Game Board: "Sea zones are either friendly (contain friendly units) or hostile
        # (contain enemy units)"; sea units "may move through if those enemy units consist of only
        # submerged submarines" (Combat Move).  So every sea unit makes a zone hostile: warships,
        # submarines and transports (DIGEST §5 REV.6); submerged subs are the turn engine's exception.
        hostile_sea_zone_tags=frozenset({"surface_warship", "submarine", "transport"}),
        # Combat Move: "Submarines may move through hostile sea zones as if they were friendly. However,
        # enemy destroyers immediately end submarines' movement."
        subs_ignore_hostile_zones=True,
        # Noncombat Move, Sea Units: "They cannot move through hostile sea zones, except when the enemy
        # forces consist of only submerged submarines" (a lone transport makes a zone hostile here);
        # "Submarines cannot end their noncombat move in hostile sea zones."
        noncombat_sea_may_end_beside=frozenset(),
        subs_end_noncombat_in_hostile_zones=False,
        subs_end_noncombat_beside_destroyers=False,
        # Combat Move: sea units "may move through if those enemy units consist of only submerged
        # submarines. Destroyers immediately reveal submerged submarines, which ends the destroyers' movement."
        destroyers_reveal_submerged_subs=True,
        # Tanks and Blitzing: "You must stop the tank's movement when it encounters any enemy units. If
        # the units consist of only antiaircraft guns and/or an industrial complex, you take control of
        # the territory ... but you must still stop" (the capture is a battle without dice: the AA gun
        # alone does not fight, CombatRules.aa_destroyed_when_alone=False, and is captured).
        blitz_blocked_by_domains=frozenset({"land", "structure", "air"}),
        # Completing Air Units' Move: "Air units cannot land in a hostile territory or in a territory
        # you just captured."
        air_may_land_in_captured=False,
        # Antiaircraft Guns: "Antiaircraft guns can never move in this phase; they can make noncombat
        # moves only."
        aa_moves_in_combat=False,
        # Combat Move, Air Units: "Whenever an air unit moves into a hostile territory containing an
        # antiaircraft gun, the gun gets a chance to shoot it down" - also on retreat and return flights.
        aa_fires_at_overflight="combat_move_and_return",
        # FAQ, Transports and Carriers: "Fighters land at the very end of noncombat movement. To land on
        # the carrier, the fighter must fly to the sea zone where the carrier will be at the end of
        # noncombat movement."
        fighters_land_after_noncombat=True,
        # FAQ, Combat: an ally's fighter whose carrier sank "has a movement range of 1 to reach a
        # friendly land space, island, or aircraft carrier ... This territory or sea zone must not have
        # been contested during the current turn."
        stranded_air_avoids_contested=True,
        # No interceptors in Revised (CombatRules.escorts "never"): the choice is never read.
        interceptors_of_captured_territory="move_one_space",
        # Land on Aircraft Carriers: a fighter "may land on a carrier after combat (even if retreating)".
        attacking_air_lands_at_sea_battle="always",
        # FAQ, Transports and Carriers: "During the combat move, the carrier can move and leave its
        # fighters behind in the sea zone (consider them to be in the air)"; an ally's fighter aboard
        # "must remain on board as cargo".  Fighters that go along are ordered to move themselves.
        carrier_air_in_combat_move="in_the_air",
        # Special Combat Moves, Aircraft Carriers: "Fighters that you don't launch before moving the
        # aircraft carrier are cargo" - said of combat move, where the FAQ above overrides it; read
        # for noncombat move, where nothing does.
        carrier_air_in_noncombat_move="cargo",
        # Fighters land at the very end of noncombat move (fighters_land_after_noncombat), so no landing
        # ever comes before a carrier's move.
        carrier_moves_after_landing=True,
        # FAQ, Mobilize Units: a fighter "in the sea zone where the aircraft carrier is built" boards it.
        air_lands_for_new_carriers=True,
        # FAQ, Combat: a transport may "move out of a potential combat situation in one sea zone into a
        # friendly sea zone, load a unit, move to a third (also friendly) sea zone, and offload ... All of
        # the transport's activity takes place in the combat move."
        transport_combat_move_in_legs=True,
        # Noncombat Move, Transports, and the FAQ: a transport that moved or fought in combat may not
        # move again but may load OR offload in place, unless it retreated (DIGEST §5 REV.4).
        transport_after_combat="load_or_offload",
        # FAQ, Transports and Carriers: "one unit may offload during an amphibious assault, while
        # another may offload into the same territory during the noncombat move".
        offloads_again_after_assault=True,
        # Transports: "A transport may not load or offload if it is in a hostile sea zone", nothing about
        # where it began the turn.
        transport_from_hostile_start="as_any",
        # FAQ: "The moving transport can't attack. That doesn't mean it can't make a combat move by itself
        # into a hostile space"; it is fired at and may retreat.
        transports_attack_alone=True,
        # Step 7, Attacker Retreats: "a single adjacent friendly space from which at least one of the
        # attacking units moved" - friendly when it retreats.
        retreat_to_friendly_at_start=frozenset(),
        sea_retreat_via_path=False,
        # No straits can be closed: FAQ, Map: "the western entrance to the Mediterranean can't be
        # closed under any circumstance"; Revised has no Turkish straits option.
        closed_straits={},
        canals_open_to_submarines=frozenset(),  # no canal is open to submarines alone
        combat_air_patrol=False,
        damaged_carriers_hold_no_air=False,  # no damage outlasts a battle's end here, or carriers take one hit
        air_lands_where_captured={},  # no power lands where it captured this turn
    ),
    capitals=CapitalRules(
        # Capturing and Liberating Capitals: "you collect all unspent IPCs from the former owner".
        capital_plunder=True,
        # Liberating a Territory: the original controller regains it; "If the original controller's
        # capital is in enemy hands when you liberate the territory, you collect income ..." - decided
        # at the moment of liberation, not at the end of the turn as in 1942.
        liberation_deferred_to_end_of_turn=False,
        liberation_needs_capital=True,
        # Capturing and Liberating Capitals: the former owner "cannot collect income ... and cannot buy
        # new units until the capital is liberated"; Collect Income: "If your capital is under an enemy
        # power's control, you cannot collect income."
        no_income_without_capital=True,
        no_purchase_without_capital=True,
        # Capturing and Liberating Capitals: "That player skips all but the combat move, conduct combat,
        # and noncombat move phases."
        phases_skipped_without_capital=frozenset({"purchase", "mobilize", "collect_income"}),
        # plunder every time a capital falls; no capital moves (the AMS house rules change both)
        plunder_once=False,
        exile={},
    ),
    production=ProductionRules(
        # Mobilize New Units: "You can mobilize only a number of units up to the income value of the
        # territory containing the industrial complex."
        production_limit="territory_ipc",
        # Mobilize New Units: "You cannot place your new units at an industrial complex owned by a
        # friendly power, unless its capital is in enemy hands (see Liberating a Territory)."
        place_at_ally_complex="if_ally_capital_lost",
        # Mobilize: new complexes "in any territory that you have controlled since the start of your
        # turn and that has an income value of at least 1. You can never have more than one industrial
        # complex per territory."
        new_complex_min_ipc=1,
        max_complexes_per_territory=1,
        new_complexes_on_islands=True,  # no rule keeps a complex off an island
        new_complexes=True,
        # FAQ, Mobilize Units: "New fighters, however, can't be placed directly on existing carriers";
        # Mobilize New Units: "fighters can enter play on newly built aircraft carriers".
        new_fighters_on_carriers="new_carriers",
        # FAQ, Mobilize Units: "An existing fighter that is in the territory containing the industrial
        # complex ... can immediately be moved onto a newly built carrier"; "US fighters in England can
        # immediately redeploy onto the carrier" the UK builds beside it.
        existing_air_onto_new_carriers=True,
        facilities_anywhere=False,  # no facilities but complexes
        own_recapture_downgrades=True,  # no facility is downgraded by capture here
        factories_removed_on_return=frozenset(),
        never_repair=frozenset(),
        # FAQ, Mobilize Units: units bought beyond the production limit are "Technically (which means,
        # in a tournament)" destroyed; the IPCs are not given back.
        refund_unplaced=False,
        # Revised has no damage markers: bombing and rockets take IPCs from the treasury
        # (CombatRules.sbr_loss="treasury"), so there is nothing to repair.
        repair_cost_per_point=0,
    ),
    # No convoy centres and no tribute spaces on this board.
    economy=EconomyRules(convoy_income_to_captor=False, convoy_captured_in_passing=False, convoy_taken_in_stalemate_by_submarines=False, tribute_paid_by_enemies=False,
                         convoy_open_in_noncombat=True, subs_take_convoy_in_place=False,
                         countries_without_income=frozenset(), convoy_disruption=None),
    victory=VictoryCheck(
        kind="victory_cities",
        # Check for Victory: "at the end of a complete round of play (after the U.S. turn)".
        checked_after="United States",
        capitals_not_won=frozenset(),
        points=None,
        held_for_a_round=False,  # counted once, at the end of the round
    ),
    kamikaze=None,
    politics=None,
    # the engine's generic sections, in this rulebook's words
    citations={
        "General Combat, step 6": "Conduct Combat, Step 7: Press Attack or Retreat (Attacker Retreats)",
        "General Combat, Step 6, Condition B": "Conduct Combat, Step 7: Press Attack or Retreat (Attacker Retreats)",
    },
    hooks=RuleHooks(
        # National Advantages (Appendix 3), each a game option; see advantages.py.
        # (the combat-only ones - Atlantic Wall, Marines, Kaiten Torpedoes, Kamikaze Attacks - are in
        # advantages_combat.py, which adds them to battle_advantages')
        battle_modifiers=battle_advantages_with_combat,
        movement_profiles=movement_profiles,
        free_units=free_units,
        movement_bonus=movement_bonus,
        move_after_battle=move_after_battle,
        declarations=declarations,
        extra_cargo=extra_cargo,
        may_bomb=may_bomb,
        free_air_steps=free_air_steps,
        setup_changes=setup_changes,
        structure_move=structure_move,
        may_convert=may_convert,
        conversion_rule=conversion_rule,
        assaults_per_turn=assaults_per_turn,
        one_way_missions=one_way_missions,
        interjections=interjections,
        standing_keys=standing_keys,
        standing_problems=standing_problems,
        commands=commands,
        no_combat_declarations=no_combat_declarations,
        income_adjustment=lambda options, power, subs: u_boat_interdiction(options, power, subs.get("Germany", 0)),
    ),
)
