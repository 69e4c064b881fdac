"""Axis & Allies 1940 Global (2nd edition, out of the box): every choice the engine leaves open.

Combat choices are in `combat_rules.py`, unit profiles in `units.yaml`, map and setup in `map.yaml`
and `setup.yaml`, the political rules in `politics.py` and the national objectives in
`objectives.py`, all beside this file.  Sources: the AMS guide's restatements of the box (E/P
pages, DIGEST §1.2) and TripleA's ww2global40_2nd_edition.xml where no seed states a rule
(README.md lists each such reading).
"""

from pbem.engine.rules import (
    CapitalRules,
    ConvoyDisruption,
    EconomyRules,
    Kamikaze,
    MovementRules,
    ProductionRules,
    RuleHooks,
    Rules,
    Scramble,
    VictoryCheck,
)
from pbem.rulesets.global_1940.objectives import OBJECTIVES
from pbem.rulesets.global_1940.politics import POLITICS, capture_country, move_restriction
from pbem.rulesets.global_1940.special import CHINESE_TERRITORIES, base_move, china_area, china_placement, china_purchases, free_units

RULES = Rules(
    movement=MovementRules(
        # "A sea zone is hostile if it contains surface warships of a power you are at war with".
        hostile_sea_zone_tags=frozenset({"surface_warship"}),
        # "Only air units, and subs with no destroyer present, may pass through hostile spaces".
        subs_ignore_hostile_zones=True,
        # Subs and transports "do not block" (unit table); TripleA "Subs Can End NonCombat Move With Enemies".
        noncombat_sea_may_end_beside=frozenset({"transport", "submarine"}),
        subs_end_noncombat_in_hostile_zones=True,
        # E15/E31: "If a destroyer is present, then the sub must stop and combat will result" - no
        # noncombat move ends there (1942's submarine stops and stays).
        subs_end_noncombat_beside_destroyers=False,
        destroyers_reveal_submerged_subs=False,
        # "Blitzing is blocked by an enemy unit, an AAA unit, a production facility, an air base, a
        # naval base" (the facilities are capture_blocking structures).
        blitz_blocked_by_domains=frozenset({"land", "structure", "air"}),
        # "Air units may not land in territory captured this turn" (E22).
        air_may_land_in_captured=False,
        # AAA "Moves only in noncombat"; "AAA does not fire on aircraft that only fly over".
        aa_moves_in_combat=False,
        aa_fires_at_overflight="never",
        # Fighters land as moves are made.
        fighters_land_after_noncombat=False,
        stranded_air_avoids_contested=False,
        # Bombing raids (E17): an interceptor whose territory was captured may "move one spot to find a
        # safe landing place or be destroyed".
        interceptors_of_captured_territory="move_one_space",
        # The AMS guide's restatement of the box forbids no landing on a carrier where a battle was fought.
        attacking_air_lands_at_sea_battle="always",
        # Aircraft Carriers (the AMS guide restating the box, E15/E31): "Any fighters or tactical bombers
        # on a carrier launch before the carrier moves and they move independent of the carrier", as in
        # 1942 Second Edition, where they may also "remain in the sea zone until the Noncombat Move
        # phase"; in noncombat move they ride along, as in 1942.
        carrier_air_in_combat_move="in_the_air",
        carrier_air_in_noncombat_move="along",
        # Noncombat Move Phase (E22): "both units must end their noncombat movement in the same
        # territory; you cannot land the air unit and then move the carrier".
        carrier_moves_after_landing=False,
        # Air units (E14): "Every unit must have a place to land, including on a carrier that will be built".
        air_lands_for_new_carriers=True,
        transport_combat_move_in_legs=False,
        # "An amphibious assault is a combat move, so the transport cannot move in noncombat afterwards".
        transport_after_combat="nothing",
        # E33: "Whenever a transport offloads, it cannot move again"; an assault is a combat move (E14):
        # its transport is done for the turn.
        offloads_again_after_assault=False,
        # Transports (E14): "A transport cannot load units while in a hostile sea zone", nothing more.
        transport_from_hostile_start="as_any",
        # The AMS guide (E33) says only that transports may be chosen as casualties last.
        transports_attack_alone=True,
        # AMS guide, Retreating (E20): "In the case of sea units, that space must have been friendly at the
        # beginning of the turn."
        retreat_to_friendly_at_start=frozenset({"sea"}),
        sea_retreat_via_path=False,
        closed_straits={},
        # Straits (DIGEST §1.2): "The only exception is that submarines of any power may move through the
        # Strait of Gibraltar".
        canals_open_to_submarines=frozenset({"Strait of Gibraltar"}),
        combat_air_patrol=False,
        # Aircraft carrier (unit table): "A damaged carrier cannot launch or land aircraft, and aircraft on
        # it are cargo when it is attacked".
        damaged_carriers_hold_no_air=True,
        # China (P10): "China may build units and land its fighter in any unoccupied Chinese territory,
        # including on the same turn that it takes control of the territory".
        air_lands_where_captured={"China": CHINESE_TERRITORIES},
    ),
    capitals=CapitalRules(
        # "Capitals: the captor takes all unspent IPCs of the original owner".
        capital_plunder=True,
        liberation_deferred_to_end_of_turn=False,
        # "Liberation: the original owner regains the territory and its facilities, unless the original
        # owner's capital is held by the enemy, in which case the liberator captures it."
        liberation_needs_capital=True,
        # "A power without its capital stays in the game but collects no income and buys nothing".
        no_income_without_capital=True,
        no_purchase_without_capital=True,
        # Capitals stop buying and collecting only; the powers keep every phase.
        phases_skipped_without_capital=frozenset(),
        # plunder every time a capital falls; no capital moves (the AMS house rules change both)
        plunder_once=False,
        exile={},
    ),
    production=ProductionRules(
        # Each facility mobilizes its own number (major 10, minor 3; units.yaml), less damage.
        production_limit="facility",
        # "at complexes held since the start of the turn, never another power's".
        place_at_ally_complex="never",
        new_complexes=True,
        # TripleA: a minor complex on a territory worth 2 or more (the box's rule; AMS keeps "2+").
        new_complex_min_ipc=2,
        max_complexes_per_territory=1,
        # TripleA unitPlacementRestrictions: no complex on the islands it lists.  The list also names New
        # Guinea and Dutch New Guinea (one island of two territories on this map) and leaves out Japan
        # and Malta; no build differs (the New Guineas and Malta are worth 0, Japan has its complex).
        new_complexes_on_islands=False,
        # "the per-facility limits apply, and over-purchases are refunded" (E23).
        refund_unplaced=True,
        repair_cost_per_point=1,
        # "fighters and tac bombers may be placed on newly mobilised carriers" (E23; TripleA "Produce
        # new fighters on old carriers": also on carriers already there).
        new_fighters_on_carriers="own_carriers",
        existing_air_onto_new_carriers=False,  # E23: fighters "may be built on newly mobilized carriers": new ones only
        # "Facilities can be built at any eligible location" (E23): bases need no complex and use no production.
        facilities_anywhere=True,
        # "If you capture a major industrial complex, it is immediately downgraded" - whoever captures it
        own_recapture_downgrades=True,
        # China (P10): "If another power builds any production facility in China and that territory is
        # later liberated, the production facility is removed from the game".
        factories_removed_on_return=frozenset({"China"}),
        # China (Pacific 1940 FAQ): "it cannot use a naval base or repair damage to any base".
        never_repair=frozenset({"China"}),
    ),
    # No convoy centres of Europe's kind, no tribute.
    economy=EconomyRules(convoy_income_to_captor=False, convoy_captured_in_passing=False, convoy_taken_in_stalemate_by_submarines=False, convoy_open_in_noncombat=True,
                         subs_take_convoy_in_place=False, tribute_paid_by_enemies=False,
                         countries_without_income=frozenset(),
                         # Convoy Disruption (E24, as the guide restates it with the errata E40): a convoy
                         # zone beside a territory you control with an enemy warship in it; "Any roll of
                         # "3" or less is counted as a convoy disruption and each roll of "4" or more is
                         # ignored" ("the sub can cost up to 6 IPC"). The rulebook wins over TripleA's
                         # data, whose "Convoy Blockades Roll Dice For Cost" counts every die's face
                         # (README.md; cases/convoys.yaml).
                         convoy_disruption=ConvoyDisruption(counted="three_or_less")),
    # ruleset.yaml victory: city groups, held "for a complete round of play" (TripleA's notes: "To win
    # with the following victory conditions, a side must maintain it for a complete round of play"; the
    # XML leaves it a TODO): checked at the end of every turn.
    victory=VictoryCheck(kind="victory_cities", checked_after=None, capitals_not_won=frozenset(), points=None,
                         held_for_a_round=True),
    # Kamikaze (P16): Japan has 6 strikes "usable only in sea zones with a kamikaze symbol" (map:
    # TripleA's trigger sets them on SZ 6, 17, 19, 20, 22 and 35), "against Allied surface warships
    # (not subs, not transports)", hitting "on ≤2".
    # "Ships sunk are removed immediately and do not take part in general combat".
    kamikaze=Kamikaze(power="Japan", tokens=6, hit=2, unit="kamikaze", target_tags=frozenset({"surface_warship"}),
                      victims_fire_back=False,
                      # "triggered when an Ally attacks Japanese units there, or declares an amphibious assault from such a zone"
                      only_where_attacked=True,
                      # E12 3.b.i (kamikaze) comes before 3.b.ii (the subs' surprise strikes)
                      before_surprise_strike=True),
    politics=POLITICS,
    objectives=OBJECTIVES,
    # Scramble (E16): "the defender may scramble up to 3 fighters and/or tac bombers from each operative
    # air base on a coastal territory or island, into an adjacent sea zone"; "Scrambled units defend
    # against attacks on the zone or on amphibious assaults, even with no ships present".
    scramble=Scramble(per_base=3, base_tag="air_base"),
    hooks=RuleHooks(movement_bonus=base_move, confined_to=china_area, purchase_limits=china_purchases,
                    placement_without_complex=china_placement, move_restriction=move_restriction,
                    free_units=free_units, capture_country=capture_country),
)
