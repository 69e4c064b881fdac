"""Axis & Allies Europe (1999): every choice the engine leaves open, with its Gameplay Manual section.

Combat choices (submarines, AA guns, bombardment, bombing raids) are in `combat_rules.py` beside
this file; unit profiles in `units.yaml`; map and setup in `map.yaml` and `setup.yaml`; the rules
that are code (the Soviet Patriotic War, the bomber's cost, the cash advance) in `special.py`.
Sections are those of shared/rules/europe_1999.txt, which has no page markers; pages are given
where the manual names them itself.
"""

from pbem.engine.rules import CapitalRules, EconomyRules, MovementRules, ProductionRules, Rules, RuleHooks, VictoryCheck
from pbem.rulesets.europe_1999.special import (
    advance_placement_with_allies,
    cash_advance,
    conversion_phase,
    conversion_rule,
    may_convert,
    placement_limit,
    shared_unit,
    starting_treasury,
    unit_cost,
)

RULES = Rules(
    movement=MovementRules(
        # Non-combat Movement: naval units "may not be moved into enemy-occupied sea zones"; any enemy
        # ship occupies one (transports too; submerged submarines "are not considered to be present").
        hostile_sea_zone_tags=frozenset({"surface_warship", "submarine", "transport"}),
        # The manual gives submarines no way through enemy-occupied zones.
        subs_ignore_hostile_zones=False,
        noncombat_sea_may_end_beside=frozenset(),
        subs_end_noncombat_in_hostile_zones=False,
        subs_end_noncombat_beside_destroyers=False,
        # No rule reveals submerged submarines: they are gone for the turn (Submarines).
        destroyers_reveal_submerged_subs=False,
        # Combat Units, The Blitz: armor moves through an "empty, enemy-controlled territory"; any enemy
        # unit stops it (an AA gun or complex alone is no combat unit but still occupies it).
        blitz_blocked_by_domains=frozenset({"land", "structure", "air"}),
        # Non-combat Movement: air units "may not land in territory just captured during your turn".
        air_may_land_in_captured=False,
        # Antiaircraft Gun: AA guns "may not be moved into an enemy-occupied territory as an attacking
        # land unit": they move in non-combat movement only.
        aa_moves_in_combat=False,
        # Antiaircraft Gun: guns "may fire once at any enemy plane flying over that territory during the
        # Combat Movement sequence"; "During the Non-Combat Movement sequence, enemy aircraft moving over
        # a territory protected by an AA gun may not be fired upon" - but Resolving Land Combat, step 6
        # A: "Retreating planes, however, are still subject to enemy antiaircraft gunfire if they pass
        # over territories with AA guns" (as in Pacific).
        aa_fires_at_overflight="combat_move_and_retreat",
        # Aircraft Carriers: "If a fighter lands upon your aircraft carrier during your turn, you may not
        # move the carrier for the remainder of that turn": landings happen as moves are made.
        fighters_land_after_noncombat=False,
        # Aircraft Carriers: the fighters of a sunk carrier land one space away on a site "controlled by
        # you (or under Allied control) since the beginning of the turn"; battles there do not matter.
        stranded_air_avoids_contested=False,
        # Strategic Bombing Raids: the manual says only that interceptors "may not also defend in a
        # regular land attack in that same territory"; of their territory's capture, nothing - so as
        # the stranded fighters of a sunk carrier, one space to land.
        interceptors_of_captured_territory="move_one_space",
        # Combat Results, Air Units: "Attacking planes may not remain or land in a space where a battle
        # just took place", and The Gameboard calls land territories and sea zones "spaces"; but
        # Fighters: "If you move a fighter its full four-space range into battle with the intent of
        # landing it on a carrier in that battle ...".  The manual contradicts itself: the option
        # landing_at_sea_battle decides (default: they land, as the Fighters section and Pacific's
        # later wording of Combat Results, "a land territory, island or island group", have it).
        attacking_air_lands_at_sea_battle="option",
        # Aircraft Carriers: "It must also take off before you move the carrier. If the fighter doesn't
        # take off before you move the carrier, the fighter is treated as cargo for the remainder of
        # your turn and may not fly, fight or be used as a casualty" (the example: the fighter aboard
        # "is lost as well" with its carrier).  Fighters that fight are ordered to move themselves.
        carrier_air_in_combat_move="cargo",
        carrier_air_in_noncombat_move="cargo",
        # Aircraft Carriers: "If a fighter lands upon your aircraft carrier during your turn, you may not
        # move the carrier for the remainder of that turn."
        carrier_moves_after_landing=False,
        # Non-Combat Movement: fighters "land on any friendly aircraft carrier within range": none is built yet.
        air_lands_for_new_carriers=False,
        # Transports: "The land unit(s) may be picked up before, during or after the transport moves",
        # "pick up one infantry unit, move one zone and pick up an anti-aircraft unit, move into
        # another zone and unload both units in the same move".
        transport_combat_move_in_legs=True,
        # Amphibious Assaults: "Transports that have been in battle may either load or unload (but not
        # both) on the turn during which the battle took place. Transports that retreat from a sea
        # battle during an Amphibious Assault may not unload on that turn."
        transport_after_combat="load_or_offload",
        # Amphibious Assaults: "Each transport can only unload into one territory"; nothing lets the
        # assault's transport unload again: it is done for the turn.
        offloads_again_after_assault=False,
        # Transports: "A transport that starts a turn with enemy ships in the same sea zone may not load
        # or unload in that sea zone. It may move out of an enemy-filled sea zone and into a friendly or
        # empty zone, where it may load or unload normally."
        transport_from_hostile_start="never",
        # "Transports may not attack but may defend in sea zones" is read as: no attack roll. They have a
        # place on the attacker's side of the battle board, may be its casualties and may retreat, and no
        # rule keeps one from moving in alone (as Revised's FAQ lets it: fired at, it may retreat).
        transports_attack_alone=True,
        # Attacker retreats: land units to "an adjacent friendly territory that was under the owner's control
        # at the start of the turn"; ships to a zone with no enemy unit now (the hostile zone tags).
        retreat_to_friendly_at_start=frozenset({"land"}),
        sea_retreat_via_path=False,
        # The Gameboard: "No naval units may pass through the neutral Turkish sea zone" - the Bosphorus
        # (map.yaml's canal, opened only by Turkey, which nobody controls) stays shut; no option.
        closed_straits={},
        canals_open_to_submarines=frozenset(),  # no canal is open to submarines alone
        combat_air_patrol=False,
        damaged_carriers_hold_no_air=False,  # no damage outlasts a battle's end here, or carriers take one hit
        air_lands_where_captured={},  # no power lands where it captured this turn
    ),
    capitals=CapitalRules(
        # Capturing an Enemy Capital: "the capturing player immediately takes all of the IPCs that the
        # losing player has on hand".
        capital_plunder=True,
        # Liberating a Former Allied Territory: "If the original owner's capital is in German hands at the
        # time that the other territory is captured", the liberator holds it - decided at that moment.
        liberation_deferred_to_end_of_turn=False,
        liberation_needs_capital=True,
        # Capturing an Enemy Capital: "On your turn, you may not purchase units nor receive IPC income."
        no_income_without_capital=True,
        no_purchase_without_capital=True,
        # Capturing a Capital stops buying and collecting only: the Patriotic War (noncombat move) goes on.
        phases_skipped_without_capital=frozenset(),
        # plunder every time a capital falls; no capital moves (the AMS house rules change both)
        plunder_once=False,
        exile={},
    ),
    production=ProductionRules(
        # Place New Units: "You may place as many units as you like in your home territory. You may not
        # place more units in a captured territory with an Industrial Complex than the IPC income of that
        # territory"; the example places 2 in Archangel and 1 in Stalingrad, "not limited ... since they
        # are Soviet territories" (DIGEST §5 EUR.5: any complex in the power's original territory).
        production_limit="unlimited_at_home",
        # Industrial Complex: placement only at complexes "that the player has controlled"; an ally's
        # complex is never used (Liberating: the liberator uses one only while it controls the territory).
        place_at_ally_complex="never",
        # Industrial Complex: "They may not be built or destroyed during the game."
        new_complexes=False,
        new_complex_min_ipc=1,
        max_complexes_per_territory=1,
        new_complexes_on_islands=True,  # no rule keeps a complex off an island
        # The manual says nothing of units bought but not placed: they are lost, not refunded.
        refund_unplaced=False,
        # No damage markers: bombing takes IPCs from the owner (Strategic Bombing Raids).
        repair_cost_per_point=0,
        # Place New Units: "Newly purchased fighter planes may not be placed directly on aircraft carriers."
        new_fighters_on_carriers="never",
        existing_air_onto_new_carriers=False,  # no fighter is placed on a carrier at all
        facilities_anywhere=False,  # no facilities but complexes
        own_recapture_downgrades=True,  # no facility is downgraded by capture here
        factories_removed_on_return=frozenset(),
        never_repair=frozenset(),
    ),
    economy=EconomyRules(
        # The Battle of the Atlantic: "Germany, however, does not receive that income because the convoy
        # is now considered sunk and unusable."
        convoy_income_to_captor=False,
        # Attacking unoccupied convoy centers: ships "with an attack value may enter or pass through
        # Convoy centers to take control of them"; an occupied one needs a battle won with a warship left.
        convoy_captured_in_passing=True,
        # Attacking occupied Convoy centers: "If all defending units are sunk and/or submerged, and the
        # attacker has at least one war ship remaining": a submarine left beside defending aircraft it
        # cannot hit (Naval Combat E) takes nothing, unlike Pacific's.
        convoy_taken_in_stalemate_by_submarines=False,
        # Non-combat Movement: naval units "*may not* be moved into enemy-occupied sea zones or
        # enemy-controlled Convoy centers".
        convoy_open_in_noncombat=False,
        # The Battle of the Atlantic: ships "enter or pass through" convoy centres to take them.
        subs_take_convoy_in_place=False,
        # Collect Income, The Middle East: "Germany receives the Middle East IPCs directly from the
        # Allies, not from the bank"; "The loss of Middle Eastern countries does not lower the Allied
        # players' income".
        tribute_paid_by_enemies=True,
        countries_without_income=frozenset(),
        convoy_disruption=None,  # no convoy zones on this board
    ),
    victory=VictoryCheck(
        # Object of the Game; Capturing an Enemy Capital: held "at the beginning of his next turn".
        kind="capital_held",
        checked_after=None,
        capitals_not_won=frozenset(),
        points=None,
        held_for_a_round=False,  # the capital held to the next turn is kind capital_held
    ),
    kamikaze=None,
    politics=None,
    # the engine's generic sections, in this rulebook's words
    citations={
        "General Combat, step 6": "Resolving Combat, 6 A: The attacker retreats",
        "General Combat, Step 6, Condition B": "Resolving Combat, 6 A: The attacker retreats",
        # the phases as this rulebook's Action Sequence names them
        "Purchase Units": "Action Sequence 1, Purchase Combat Units",
        "Combat Move": "Action Sequence 2, Combat Movement",
        "Noncombat Move": "Action Sequence 4, Non-Combat Movement",
        "Mobilize New Units": "Action Sequence 5, Place New Units",
    },
    hooks=RuleHooks(
        # The Soviet Patriotic War (Non-combat Movement), see special.py.
        may_convert=may_convert,
        conversion_phase=conversion_phase,
        conversion_rule=conversion_rule,
        # Combat Units, Bombers: the cost is a game option (15 or 25).
        unit_cost=unit_cost,
        # Industrial Production Certificates, Special Cash Advance: a round 0 before the first turn.
        cash_advance=cash_advance,
        # Combat Units, Antiaircraft Gun: any Ally moves an Allied AA gun in the Middle East, once a round.
        shared_unit=shared_unit,
        # The manual's contradictions that are game options (README.md): the Soviet starting income,
        # Canada's placement limit, whose units the cash advance's purchases are placed beside.
        starting_treasury=starting_treasury,
        placement_limit=placement_limit,
        advance_placement_with_allies=advance_placement_with_allies,
    ),
)
