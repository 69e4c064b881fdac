"""The points outside combat where the rule systems differ, as one typed record.

The choices come in groups by concern (movement, capitals, production, economy, victory, and the hooks that are
code), so a ruleset states each group once, in its own `rules.py`.  No choice in a group has a
default: a ruleset states each, with its rulebook citation; only the hooks (rules one system has and
another lacks) default to None.  The engine reads these fields and never asks which ruleset is running.  Combat choices
live in `pbem.engine.combat.rules.CombatRules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping

if TYPE_CHECKING:
    from pbem.engine.objectives import NationalObjective
    from pbem.engine.technology import Technology
    from pbem.engine.tokens import VictoryTokens


@dataclass(frozen=True)
class FreeUnits:
    """`count` `unit`s of `owner`, placed for nothing in one of `spaces` (the mover's placement
    orders may choose; otherwise the first).  `once`: a key that acts once per game - the engine
    keeps used keys in `GameState.pending["once"]`, and a grant of 0 units just uses the key up.
    `reason` names the rule in the turn report."""

    owner: str
    unit: str
    count: int
    spaces: tuple[str, ...]
    reason: str
    once: str | None = None
    # the units arrive fighting: attackers in their space's battle this turn, with no move left (AMS
    # Chinese partisans "engage in combat wherever they are spawned and may not be moved")
    fights: bool = False


@dataclass(frozen=True)
class Interjection:
    """A once-per-game move `power` makes on another power's turn, between that power's combat
    move and its combat: the first of `power`'s standing `conditional_moves` whose `when_attacked`
    space is attacked, a noncombat move of one step into that friendly space or out of it (leaving
    at least one friendly unit behind).  `once`: its key in `GameState.pending["once"]`; `reason`
    names the rule in the turn report; `air_to_sea`: whether air units may make it into a sea zone
    (Revised's FAQ on Enigma Decoded: no)."""

    power: str
    once: str
    reason: str
    air_to_sea: bool


# What a moving carrier does with its owner's air units still aboard (MovementRules)
CarrierAirInCombat = Literal["in_the_air", "cargo"]
CarrierAirInNoncombat = Literal["along", "cargo"]


@dataclass(frozen=True)
class MovementRules:
    """Moving units in combat and noncombat move: hostile zones, blitzes, landing, carriers, transports, straits."""

    hostile_sea_zone_tags: frozenset[str]  # enemy units with any of these tags make a sea zone hostile
    subs_ignore_hostile_zones: bool  # subs move through hostile zones unless an enemy destroyer is there
    # a noncombat sea move may end beside enemy units with these tags (None: beside no enemy unit
    # that makes the zone hostile); and may submarines end theirs in a hostile zone without destroyer?
    noncombat_sea_may_end_beside: frozenset[str]
    subs_end_noncombat_in_hostile_zones: bool
    # ... and where an enemy destroyer is, which stops them?  True (1942, Noncombat Move: "a submarine
    # must end its movement when it enters a sea zone containing one or more enemy destroyers" - it
    # stops there); False (1940: "If a destroyer is present, then the sub must stop and combat will
    # result" - a zone no noncombat move ends in).
    subs_end_noncombat_beside_destroyers: bool
    destroyers_reveal_submerged_subs: bool  # a destroyer entering a zone with submerged enemy subs stops there
    blitz_blocked_by_domains: frozenset[str]  # enemy units of these domains stop a blitzing tank
    air_may_land_in_captured: bool  # may air units land in a territory captured this turn?
    aa_moves_in_combat: bool
    # AA guns fire at aircraft flying over hostile territories, not only at attackers: never (1942), in
    # combat move and on the way back (Revised), or in combat move only (no rule system of ours).
    # combat_move_and_retreat: in combat move, and on the way back of aircraft that retreated from a
    # battle, never at other noncombat flights (Europe and Pacific: "Retreating planes, however, are
    # still subject to enemy antiaircraft gunfire if they pass over territories with AA guns"; "enemy
    # aircraft moving over a territory protected by an AA gun may not be fired upon" in noncombat move).
    aa_fires_at_overflight: Literal["never", "combat_move", "combat_move_and_return", "combat_move_and_retreat"]
    # Fighters land at the very end of noncombat move (Revised FAQ): a fighter ordered to a sea zone
    # needs a carrier with room there once every noncombat move is made, and a carrier moving in
    # noncombat move never carries a fighter that moved this turn.  False: moves apply in order and a
    # fighter lands on the carrier in its zone at the time of the move (1942 engine behaviour).
    fighters_land_after_noncombat: bool
    # Defending air units whose carrier sank move one space to land: may that space be one where
    # there is a battle this turn?  True: not (Revised FAQ: it "must not have been contested").
    stranded_air_avoids_contested: bool
    # Fighters that intercepted a bombing raid over a territory captured that turn: "move_one_space" to
    # a friendly territory or carrier, or are lost (1942: "fighter interceptors whose original territory
    # is now under enemy control ... movement of up to one space"; 1940, E17), or "lost" (Pacific: "If
    # that territory was captured this turn they cannot land and are lost").
    interceptors_of_captured_territory: Literal["move_one_space", "lost"]
    # May air units that attacked this turn land on a carrier in a sea zone where a battle was fought
    # this turn?  "always" (1942, Revised, 1940, Pacific), "never", or "option": the game option
    # landing_at_sea_battle decides (Europe, where Combat Results forbids landing "in a space where a
    # battle just took place", a space being a land territory or a sea zone, while the Fighters section
    # speaks of "landing it on a carrier in that battle").  Land territories where a battle was fought
    # are enemy or captured this turn, so `air_may_land_in_captured` rules them.
    attacking_air_lands_at_sea_battle: Literal["always", "never", "option"]
    # What a carrier's own air units still aboard do when it moves in combat move (an ally's are
    # cargo either way; those that fight are ordered to move themselves, or with it: `units: "1
    # aircraft carrier, 2 fighters"`): "in_the_air", they launched and stay in its starting zone
    # for a move of their own (1942, Revised FAQ); "cargo", they did not take off, so they ride
    # along, neither fight nor are hit, and go down with it (Europe, Pacific).
    carrier_air_in_combat_move: CarrierAirInCombat
    # The same in noncombat move: "along", they move with it and may still fly what they have left
    # (1942's engine behaviour); "cargo", they are cargo for the rest of the turn and fly no more.
    carrier_air_in_noncombat_move: CarrierAirInNoncombat
    # May a carrier move after a fighter landed on it this turn?  False (Europe, Aircraft Carriers):
    # "If a fighter lands upon your aircraft carrier during your turn, you may not move the carrier
    # for the remainder of that turn."
    carrier_moves_after_landing: bool
    # May an air unit end its move at sea where a carrier bought this turn will be placed (and count
    # on one in its combat-move landing plan)?  True: 1942 ("a new carrier will be mobilized"), the
    # Revised FAQ, 1940 (E14); False: Europe and Pacific, where fighters land only "on any friendly
    # aircraft carrier within range" and new fighters never go aboard one.
    air_lands_for_new_carriers: bool
    # May a transport that moved in combat move, out of a hostile zone, move on with the movement it
    # has left (after loading, say) in more combat moves?  True: Revised FAQ; False: one move each.
    transport_combat_move_in_legs: bool
    # What a transport that moved or fought in combat may do in noncombat move: nothing (1942), or
    # load or offload in place, one of the two, unless it retreated (Revised, DIGEST §5 REV.4).
    transport_after_combat: Literal["nothing", "load_or_offload"]
    # May a transport whose cargo made an amphibious assault offload more into that same territory
    # in noncombat move?  True: Revised FAQ ("one unit may offload during an amphibious assault,
    # while another may offload into the same territory during the noncombat move"); False: an
    # assault's transport is done for the turn.
    offloads_again_after_assault: bool
    # A transport that starts the turn in a sea zone with enemy ships: "as_any" - once the zone is
    # clear it loads and offloads there as any transport that fought (1942: "you cannot load units
    # while in a hostile sea zone", no more); "never" - it "may not load or unload in that sea zone"
    # that turn, though it may where it moves to (Europe, Transports); "assault_only" - the same,
    # "unless an Amphibious Assault is being made" from it (Pacific, Transports).
    transport_from_hostile_start: Literal["as_any", "never", "assault_only"]
    # May transports make a combat move into a sea zone with enemy units when none of the mover's
    # units with an attack value is there with them?  False (1942, Transports: they "may not attack
    # without being accompanied by at least one unit with an attack value, unless they are conducting
    # an amphibious assault from a friendly sea zone that is free of enemy submarines"); True (Revised
    # FAQ: "That doesn't mean it can't make a combat move by itself into a hostile space").
    transports_attack_alone: bool
    # Where the attacker's retreat space must have been friendly when the turn began, not only when
    # it retreats: "sea" (1942, Condition B: "In the case of sea units, that space must have been
    # friendly at the start of the turn"; 1940, E20), "land" (Europe and Pacific, Attacker retreats:
    # "an adjacent friendly territory that was under the owner's control at the start of the turn"),
    # or neither (Revised: "a single adjacent friendly space").
    retreat_to_friendly_at_start: frozenset[Literal["land", "sea"]]
    # May ships retreat to any adjacent zone an attacking ship passed through on its way, not only the
    # one it entered the battle from?  True (Pacific, Naval combat A: "from which any of the attacking
    # naval units moved through or came from"); False elsewhere ("from which ... came").
    sea_retreat_via_path: bool
    closed_straits: dict[str, tuple[str, ...]]  # game option -> sea zones no sea unit may enter or leave
    # canals and straits (map names) submarines of any power pass whoever holds them (1940: "subs of
    # any power may pass Gibraltar")
    canals_open_to_submarines: frozenset[str]
    # Combat air patrol (Pacific, Phase 6): fighters that have not moved may fly from a territory to
    # an adjacent sea zone free of enemies (noncombat move, `mission: cap`) and stay in the air there
    # until the owner's next turn, stopping enemy naval units but submarines; at the start of that
    # turn they land next to or in the zone (orders `cap_landing:`) or are lost.
    combat_air_patrol: bool
    # A damaged carrier (two hits, CombatRules.two_hit_repair keeping the damage) "cannot launch or land
    # aircraft, and aircraft on it are cargo when it is attacked" (1940).
    damaged_carriers_hold_no_air: bool
    # Where a power's air units land in a territory captured this turn though `air_may_land_in_captured`
    # forbids it: power -> those territories (1940, China (P10): "China may build units and land its
    # fighter in any unoccupied Chinese territory, including on the same turn that it takes control").
    air_lands_where_captured: Mapping[str, frozenset[str]]


@dataclass(frozen=True)
class CapitalRules:
    """What holding, losing and liberating a capital or territory does."""

    capital_plunder: bool  # capturing a capital takes the loser's unspent IPCs
    liberation_deferred_to_end_of_turn: bool  # liberate-or-capture decided at end of turn (A42)
    # A liberated territory returns to its original owner only while that owner holds its capital
    # (else the liberator keeps it); False: always (Pacific states no exception).
    liberation_needs_capital: bool
    no_income_without_capital: bool
    no_purchase_without_capital: bool
    # AMS, Capitols: "The capture of a player's capitol results in the plunder of that player's IPCs
    # only the first time the capitol is taken. Subsequent recapture ... results in the player's IPCs
    # being destroyed."
    plunder_once: bool
    # Political exile (AMS): country -> the territory that becomes its capital for the rest of the game
    # when it loses its own ("When London falls, the UK capitol moves to Ottawa"); the engine keeps
    # the moves made in GameState.pending["exiles"]
    exile: Mapping[str, str]
    # phases a power whose capital is in enemy hands skips, so that what a rule gives in them is not
    # given (Revised: the former owner "skips all but the combat move, conduct combat, and noncombat
    # move phases" - no Lend-Lease in purchase, no Chinese Divisions in mobilize, no Russian Winter in
    # collect income); empty where the rulebook only stops buying and collecting
    phases_skipped_without_capital: frozenset[str]


@dataclass(frozen=True)
class ProductionRules:
    """Where and how many new units are placed, and what damage costs to repair."""

    # territory_ipc: a complex mobilizes up to its territory's IPC value (less damage);
    # unlimited_at_home: without limit in the power's own original territories, up to the territory's
    # value in captured ones (Europe, Place New Units)
    # unlimited_at_starting_complexes: without limit at a complex of the opening setup in the power's
    # own original territory, up to the territory's value at any other (Pacific, Phase 7).
    # facility: up to the complex's own `production` (units.yaml), less damage (1940 Global: a major
    # complex 10, a minor one 3).
    production_limit: Literal["territory_ipc", "unlimited_at_home", "unlimited_at_starting_complexes", "facility"]
    place_at_ally_complex: Literal["never", "if_ally_capital_lost"]
    new_complexes: bool  # may industrial complexes be bought at all? (Europe: "may not be built")
    new_complex_min_ipc: int
    max_complexes_per_territory: int
    new_complexes_on_islands: bool  # may a complex be built on an island?  (1940: not - TripleA unitPlacementRestrictions)
    refund_unplaced: bool
    repair_cost_per_point: int
    # Where new fighters may be placed at sea: aboard the power's own carriers, new or already there
    # (1942), aboard carriers placed in the same turn only (Revised FAQ), or never (Europe).
    new_fighters_on_carriers: Literal["own_carriers", "new_carriers", "never"]
    # May fighters already on the board board a carrier mobilized this turn, from the territory of the
    # complex beside its zone (orders' onto_new_carriers:)?  Revised FAQ: "An existing fighter that is
    # in the territory containing the industrial complex ... can immediately be moved onto a newly
    # built carrier", an ally's too; the other systems place only new fighters on carriers.
    existing_air_onto_new_carriers: bool
    # Facilities that produce nothing (1940's air and naval bases; AMS's pill boxes and radar towers)
    # go in any territory the power has held since the start of its turn, and count against no
    # production limit ("Facilities can be built at any eligible location", E23); False: a rule
    # system without them.
    facilities_anywhere: bool
    # A power retaking its own original territory from the enemy downgrades the facilities there as any
    # captor does (units.yaml captured_as); False: it keeps their level (AMS: "A player liberating
    # his/her own territory may choose whether to downgrade facilities there" - it keeps them)
    own_recapture_downgrades: bool
    # Countries whose original territories, coming back to them, lose the production facilities found
    # there (1940, China (P10): "If another power builds any production facility in China and that
    # territory is later liberated, the production facility is removed from the game").
    factories_removed_on_return: frozenset[str]
    # Powers that repair no damage (1940, China: "It can use an operative air base ... but it cannot use
    # a naval base or repair damage to any base", Pacific 1940 FAQ quoted by the AMS guide).
    never_repair: frozenset[str]


@dataclass(frozen=True)
class EconomyRules:
    """Income beyond the territories a power holds: convoy centres and tribute spaces (map data
    `convoy: true` and `tribute: true` mark them)."""

    # Does a power that captures an enemy's convoy centre collect its value?  False (Europe, Battle
    # of the Atlantic): "Germany, however, does not receive that income because the convoy is now
    # considered sunk"; the centre counts for its original owner, or for an ally that took it while
    # that owner's capital was in enemy hands (the Exception to Liberating a Former Allied Territory).
    convoy_income_to_captor: bool
    # Ships that take a convoy centre: those with an attack value that enter or pass through it in
    # combat move while no enemy unit is there, or win a battle there and keep a warship.
    convoy_captured_in_passing: bool
    # A sea battle there that ends with neither side able to hit the other (only submarines and
    # aircraft left): does an attacker with a surfaced submarine left take the convoy zone?  True
    # (Pacific, Phase 5, Following a Battle: "the attacker may take control of the convoy route or
    # center if he has submarines present that have not submerged"); False (Europe, Convoy centers:
    # only "if all defending units are sunk and/or submerged"; or no convoy zones to take).
    convoy_taken_in_stalemate_by_submarines: bool
    # May naval units enter an enemy's convoy centre in noncombat move?  False (Europe, Non-combat
    # Movement: "may not be moved into enemy-controlled ... Convoy centers"); True (Pacific, Phase 5:
    # "Moving through in noncombat does not remove enemy markers").
    convoy_open_in_noncombat: bool
    # May a submarine that starts in an empty enemy convoy zone spend a move staying to take it
    # (Pacific, Phase 5), before moving on?  Orders write it as a step into its own zone (via:).
    subs_take_convoy_in_place: bool
    # Tribute spaces (Europe's Middle East): worth nothing to the side that holds them at the start;
    # when an enemy holds them, the original owner's side pays it their value out of its treasuries
    # at the captor's collect income, in the order the original owner's standing `tribute_payers` give.
    tribute_paid_by_enemies: bool
    # Countries (Power.countries) that never collect income (Pacific's China: "China has no IPCs. Their
    # infantry units are built automatically"); what they control counts for nobody.
    countries_without_income: frozenset[str]
    # 1940, Convoy Disruption: enemy warships in a convoy zone (map `convoy_zone`) beside a collecting
    # country's territories roll their units' `convoy_dice`; None: no such loss
    convoy_disruption: "ConvoyDisruption | None"


@dataclass(frozen=True)
class ConvoyDisruption:
    """What the convoy dice cost: every die its face ("face"; TripleA "Convoy Blockades Roll Dice For
    Cost"), or only dice of 3 or less, their face (the AMS guide's reading).  A zone's loss is at most
    the value of the collecting country's territories beside it, and no territory loses more than its
    own value over all zones (E24)."""

    counted: Literal["face", "three_or_less"]


@dataclass(frozen=True)
class VictoryPoints:
    """A power scores victory points from its income and wins at a total (Pacific's Japan: one VP
    "for every ten IPCs collected", 22 to win); it loses one for every full `per_ipcs` IPCs it hands
    over to bombing raids or to the captor of its capital.  Its enemies win when it scores none in
    a turn (`enemies_win_on_none`).  The engine keeps the total in GameState.pending["victory_points"]."""

    power: str
    per_ipcs: int
    to_win: int
    enemies_win_on_none: bool
    floor: int = 0  # the total never falls below this


@dataclass(frozen=True)
class Airborne:
    """Airborne assaults (AMS, Combat Phase: "up to 2 infantry units positioned on each territory with
    an operational airstrip may attack hostile territories up to 2 spaces away (and up to 3 spaces away
    if there is an operational airbase). These paratrooper units are vulnerable to enemy AAA as if they
    were being transported on one air unit, and all airborne assaults must be supported by a ground
    attack and/or an amphibious assault").  Orders: a combat move with `mission: airborne`."""

    units: frozenset[str]  # the unit types that jump (AMS: infantry)
    per_base: int  # how many a base sends a turn
    base_tag: str  # the facility they jump from (operational, held since the turn began)
    reach: int  # spaces, counted as air units fly
    farther_from: str | None  # a facility (unit name) that adds one space (AMS: "air base")
    needs_support: bool  # another land unit must attack the same territory, overland or from the sea


@dataclass(frozen=True)
class Neutrals:
    """Neutral territories (ruleset.yaml `bystanders:`) that powers may take (1940, E10/E11/E15): a
    friendly neutral by a noncombat move of land units into it, gaining its value and its standing
    army; an unfriendly or strict neutral by attacking it in combat; and an attack on one may turn
    the other territories of its kind."""

    # bystander -> powers that take its territories by moving land units in during noncombat move
    # ("A friendly neutral ... can be moved into by one of the powers the neutral favors during the
    # non-combat phase")
    taken_by_moving_in: Mapping[str, frozenset[str]]
    # bystander -> powers that may attack its territories (relation "war" with them)
    attackable_by: Mapping[str, frozenset[str]]
    # bystander -> attacking side -> the bystander its other territories become ("Any attack by
    # either side on a strict neutral will cause all other strict neutrals to become pro the other side")
    turn_when_attacked: Mapping[str, Mapping[str, str]]
    # "While a power is neutral, it cannot move land or air units into or through neutral territories":
    # only a power at war with some other power enters or attacks them
    only_powers_at_war: bool
    # bystander -> the power whose enemies may attack it (1940: the Dutch are the United Kingdom's:
    # "Attacking the Dutch is a DOW against the UK" - so only a power at war with the UK attacks them)
    at_war_with_enemies_of: Mapping[str, str] = field(default_factory=dict)
    # air units never fly over a neutral territory on the way (they may attack one)
    no_overflight: bool = False


@dataclass(frozen=True)
class Politics:
    """Powers of opposing sides are not always at war (1940 Global): only powers at war fight; a
    territory of a power at peace with the mover is closed to it (no entry, no overflight, as a
    neutral's: "A territory is neutral if no power controls it, or controlled by a power on the
    other side with which you are not yet at war"), and its units in a sea zone are ignored.  War
    begins by a declaration in a power's orders (`declare_war:`), at the start of its combat move.
    The engine keeps the powers at war in GameState.pending["war"] (sorted pairs)."""

    at_war: frozenset[frozenset[str]]  # pairs of powers at war when the game begins
    # may_declare_war(options, power, target, round=, at_war=, control=, facts=, present=, phase=) -> None,
    # or why the declaration is refused (a power's own political restrictions; None: always allowed);
    # `control`: territory -> controller now, `facts`: GameState.pending["facts"], `present`: space ->
    # the powers with a unit there, `phase`: "combat_move" (every declaration's) or "collect_income" (a
    # declaration refused at combat move but open then is made at the turn's Collect Income phase)
    may_declare_war: Callable[..., str | None] | None = None
    # on_declare(options, power, target, at_war=) -> (other pairs of powers the declaration puts at
    # war, facts it establishes): a declaration that brings others with it (1940: "A DOW on UK or
    # ANZAC is a DOW on both") and what later rules ask about it (an unprovoked declaration).  The
    # engine keeps facts in GameState.pending["facts"].
    on_declare: Callable[..., tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] | None = None
    neutrals: Neutrals | None = None  # None: neutral territories are closed to every power
    # moving_in_declares(options, power, entered=, at_war=) -> powers the mover is at war with now that
    #   its units entered these territories (1940: "Movement of Allied units into China is a DOW
    #   against Japan"), asked after each phase of movement
    moving_in_declares: Callable[..., tuple[str, ...]] | None = None
    # after_combat(options, power, attacked=, control_at_start=, control=, at_war=, order=, facts=) -> (territory, new holder[,
    #   army's new owner]) entries: territories that change hands, with the old holder's units there
    #   (or those units alone, to the third element), once the battles are fought (1940: Mongolia's
    #   territories go to the Soviet Union when Japan attacks beside them; an attacked unfriendly
    #   neutral's army joins the other side)
    after_combat: Callable[..., tuple[tuple[str, ...], ...]] | None = None
    # facts_after_combat(options, power, attacked=, control_at_start=, control=) -> facts of the game
    #   (GameState.pending["facts"]) the mover's battles establish, asked before after_combat, which
    #   reads them (`facts=`): 1940, "if the USSR attacks Korea or any Japan-controlled territory
    #   bordering the Mongolian territories while Mongolia is still a strict neutral, then Mongolia
    #   will remain neutral" - for the rest of the game
    facts_after_combat: Callable[..., tuple[str, ...]] | None = None
    # territories whose capture by the other side is remembered for good, as the fact
    # "taken by <side>: <territory>", for rules that ask whether it ever happened (1940: the US and
    # the USSR may declare war once an Axis power "captures London", even if London is freed again)
    remembered_captures: frozenset[str] = frozenset()


class PurchaseLimits(dict[str, int]):
    """A country's purchase limits this turn (RuleHooks.purchase_limits) and why, for the refusal."""

    def __init__(self, limits: Mapping[str, int], reason: str = "") -> None:
        super().__init__(limits)
        self.reason = reason


@dataclass(frozen=True)
class Kamikaze:
    """Suicide attacks on enemy ships, a fixed number per game (Pacific, Kamikaze: "Japan is allowed
    to make six Kamikaze attacks during the game ... only ... in sea zones that contain the Kamikaze
    symbol" - map `kamikaze: true`).  After an enemy's combat move, `power`'s standing orders
    (`kamikaze:`) say how many strike which ships that moved into such a zone; each hits on `hit` or
    less and its hit goes on its chosen ship.  With a naval battle there they strike in its first
    round and the ships they sink still fire; without one they count as a naval battle (no
    bombardment from that zone).  The engine keeps the tokens left in GameState.pending["kamikaze"]."""

    power: str
    tokens: int
    hit: int
    unit: str  # the profile (units.yaml) the battle's dice are rolled for
    target_tags: frozenset[str]  # units with any of these tags may be chosen (never submarines)
    # do ships a kamikaze sinks in a naval battle's first round still fire in it?  (Pacific: "Any
    # ships sunk as a result still get to return fire"; 1940: "Ships sunk are removed immediately and
    # do not take part in general combat")
    victims_fire_back: bool
    # strike only in a zone where the kamikaze power's units are attacked or an amphibious assault sails
    # from (1940: "triggered when an Ally attacks Japanese units there, or declares an amphibious
    # assault from such a zone"; TripleA "Kamikaze Suicide Attacks Only Where Battles Are"), at the
    # attacker's surface warships there; False: wherever enemy ships move in (Pacific)
    only_where_attacked: bool
    # do they strike before the submarines' surprise strikes, so that a destroyer they sink no longer
    # stops them?  (1940, E12 Conduct Combat: "i. ... all kamikaze attacks occur before general
    # combat", then "ii. If sea combat involving subs and no enemy destroyers, then subs perform
    # surprise strikes"); False: in the same step (Pacific: "during the first round of combat", and
    # the ships they sink still fire, so the order changes nothing)
    before_surprise_strike: bool


@dataclass(frozen=True)
class Scramble:
    """Defending air units that rise from an air base into an adjacent sea zone the mover attacks or
    assaults from (1940, E16: "the defender may scramble up to 3 fighters and/or tac bombers from each
    operative air base ... into an adjacent sea zone").  The base's owner's standing orders
    (`scramble:`) say from where, into which zones and how many; scrambled units defend there, never
    retreat, and return to their base afterwards (one space to land if it fell, or lost)."""

    per_base: int  # air units a base sends out in one turn
    base_tag: str  # the structure that lets them rise (units.yaml tag)


@dataclass(frozen=True)
class VictoryCheck:
    """When the game asks whether a side has won."""

    # victory_cities: counted after `checked_after`'s turn; capital_held: a power that, at the start of
    # its turn, controls an enemy capital and its own wins for its side (Europe, Object of the Game:
    # "occupy ... and hold it until your next turn")
    # tokens: Rules.tokens, counted at the end of every power's turn (AMS)
    kind: Literal["victory_cities", "capital_held", "tokens"]
    checked_after: str | None  # the power after whose turn victory cities are counted
    # capital_held: countries whose capital wins nothing when held (Pacific: Japan wins by "India, New
    # South Wales or USA", not by China's Szechwan)
    capitals_not_won: frozenset[str]
    points: VictoryPoints | None  # a second way to win, by victory points
    # victory_cities: the condition must hold "for a complete round of play" (1940 Global): checked at
    # the end of every turn, it wins at the end of the same power's turn a round after it was first met,
    # if it held at the end of every turn between; `checked_after` is then unused.  The engine keeps
    # when it was first met in GameState.pending["victory_held"].
    held_for_a_round: bool


@dataclass(frozen=True)
class RuleHooks:
    """The few rules that are really code, as functions of the ruleset's own module; each is optional
    (None: the rule does not exist in that system)."""

    # battle_modifiers(options, units, kind=, attacker=, defenders=, attacking_units=, original_owner=,
    #   controller=, island=, super_submarines=, attacking_subs_moved_in=, round=, seaborne=, aa_owners=) -> object with
    #   .profiles (owner -> unit -> UnitType), .aa_hit, .aa_immune  (e.g. National Advantages)
    # movement_profiles(options, units, power) -> unit -> UnitType
    # income_adjustment(options, collecting_power, submarines_by_power) -> IPCs lost
    # free_units(options, event, **facts) -> list[FreeUnits]: units a rule gives for nothing at a
    #   point of the turn.  Events and their facts (all by keyword):
    #   "start_of_turn": power, world - before anything else of the turn (AMS: partisans, the set-up's
    #     conditional factory upgrades; a unit tagged upgrade raises the facility in its space);
    #   "mobilize": power, control (territory -> controlling country), control_at_start, board - in the mobilize phase;
    #   "attacked": space, attacker, defenders (owners of defending units), controller,
    #     original_owner - before a land battle is fought (the units join the defence);
    #   "defended": space, attacker, winner, attacker_lost (owner -> unit -> count), controller,
    #     original_owner - after a land battle;
    #   "captured": space, by (the new controller), previous, original_owner - a territory changed hands.
    battle_modifiers: Callable[..., Any] | None = None
    movement_profiles: Callable[..., dict[str, Any]] | None = None
    income_adjustment: Callable[..., int] | None = None
    free_units: Callable[..., list["FreeUnits"]] | None = None
    # movement_bonus(options, power, profile, phase=, frm=, to=, start=, moved=, arrived_this_phase=, board=, control=, world=,
    #   group=) - group: the profiles of every unit of the move (AMS Blitz Tactics: artillery towed by mechanized infantry)
    #   -> (extra spaces, spaces the whole path must stay within or None): extra movement for one
    #   move of one unit; `start` is where it began the turn, `moved` what it has used,
    #   `arrived_this_phase` whether it already moved in this phase (and so ended a move at `frm`).
    movement_bonus: Callable[..., tuple[int, frozenset[str] | None]] | None = None
    # move_after_battle(options, power, profile, kind=, rounds=, winner=) -> spaces a surviving attacking
    #   unit may still move in noncombat move after its battle (0: none, the usual rule).
    move_after_battle: Callable[..., int] | None = None
    # declarations(options, power) -> {name: phase}: once-per-game declarations the power may make
    #   in its orders (`declare: [name]`), each taking effect in that phase of its turn ("collect_income").
    #   A declaration lasts until the start of the declaring power's next turn: the engine keeps it
    #   in `GameState.pending["declared"]` (name -> power) and, while it lasts, hands the other
    #   hooks the option `<name>_declared: True` (e.g. Revised's Russian Winter).
    declarations: Callable[..., dict[str, str]] | None = None
    # extra_cargo(options, power, profile) -> (units, rider tags) or None: a unit that is no transport
    #   but carries that many land units having one of those tags, loading and offloading as
    #   transports do (e.g. Revised's Tokyo Express: a Japanese destroyer carries one infantry).
    extra_cargo: Callable[..., tuple[int, frozenset[str]] | None] | None = None
    # may_bomb(options, power, profile) -> bool: a unit that is no bomber but may fly a strategic
    #   bombing raid (e.g. Revised's Luftwaffe Dive-Bombers: German fighters).  The raid's dice are
    #   the combat code's business; this only lets the move be ordered.
    may_bomb: Callable[..., bool] | None = None
    # free_air_steps(options, power, board, control) -> set of (space, space): steps the power's air
    #   units make for nothing (control: territory -> controller now); e.g. Revised's Island Bases,
    #   between an island the Allies hold and its sea zone.
    free_air_steps: Callable[..., frozenset[tuple[str, str]]] | None = None
    # setup_changes(options, ruleset, control) -> (units to add as (space, owner, unit), problems as
    #   text): what game options change in the opening setup (e.g. Revised's Colonial Garrison: a
    #   British industrial complex in a territory the option names).  `pbem.io.state.initial_state`
    #   applies it when given the options and rules.
    setup_changes: Callable[..., tuple[list[tuple[str, str, str]], list[str]]] | None = None
    # structure_move(options, power, profile) -> spaces a structure of the power (an industrial
    #   complex) may move overland in noncombat move (0: none, the usual rule; e.g. Revised's Mobile
    #   Industry).  Never in combat move, never aboard a transport, one complex per territory.
    structure_move: Callable[..., int] | None = None
    # may_convert(options, power, owner, profile, original_owner=, controller=) -> bool: in its purchase
    #   phase `power` may turn a unit of the friendly `owner` standing in a territory (original owner,
    #   controller now) into one of its own, fresh (e.g. Revised's Lend-Lease); orders `convert:`.
    may_convert: Callable[..., bool] | None = None
    # conversion_rule(options, power) -> (the rule's name, what it lets `power` take over), for the
    #   refusals of `convert:` (e.g. Europe: "The Soviet Patriotic War", British and American units in
    #   Soviet territories); None: "units converted by a game option"
    conversion_rule: Callable[..., tuple[str, str] | None] | None = None
    # assaults_per_turn(options, power, profile) -> int: amphibious assaults one transport may make in
    #   a combat move, moving and loading again between them, its capacity counting all it carried
    #   in the turn (1: the usual rule; e.g. Revised's Lightning Assaults: 2).
    assaults_per_turn: Callable[..., int] | None = None
    # one_way_missions(options, power, profile) -> missions (orders' `mission:`) the unit may fly in
    #   combat move that need no landing afterwards: it is lost in the battle (e.g. Revised's
    #   Kamikaze Attacks: "kamikaze", against enemy sea units only).  The battle code prices them.
    one_way_missions: Callable[..., frozenset[str]] | None = None
    # interjections(options, power) -> list[Interjection]: moves other powers may make, by their
    #   standing orders, after `power`'s combat move (e.g. Revised's Enigma Decoded: the U.K. on
    #   Germany's turn).  Made at adjudication only: validation does not know the other's orders.
    interjections: Callable[..., list["Interjection"]] | None = None
    # commands(options, power) -> owners: other powers whose units `power` may move in its combat
    #   move (orders: `owner:` on a move; their air units may land in its noncombat move) and attack
    #   with as if they were its own (e.g. Revised's Joint Strike: the U.S. with British units).
    commands: Callable[..., frozenset[str]] | None = None
    # no_combat_declarations(options, power) -> names: declarations (Rules.declarations) that skip
    #   the declaring power's combat move and conduct combat phases in the turn they are made.
    no_combat_declarations: Callable[..., frozenset[str]] | None = None
    # conversion_phase(options, power) -> "purchase" | "noncombat": when may_convert's conversions are
    #   made (None: purchase).  In "noncombat" they come after the power's noncombat moves, so the
    #   converted units do not move this turn (e.g. Europe's Soviet Patriotic War).
    conversion_phase: Callable[..., str] | None = None
    # unit_cost(options, power, profile) -> IPCs: a unit's price where a game option changes it
    #   (None: the profile's cost; e.g. Europe's bomber, 15 or 25).
    unit_cost: Callable[..., int] | None = None
    # shared_unit(options, power, owner, profile, space=Space, controller=) -> bool: a unit of the friendly
    #   `owner` standing in `space` that `power` may move in its noncombat move (orders `owner:`), at
    #   most once a round (the engine keeps [round, space moved to, owner, unit, count] in
    #   GameState.pending["shared_moves"] and moves no more units out of a space that round than stood
    #   there before those arrived); e.g. Europe's Middle East AA guns.
    shared_unit: Callable[..., bool] | None = None
    # starting_treasury(options, power, printed) -> IPCs: a power's starting income where a game
    #   option changes the printed one (None: always the printed; e.g. Europe's Soviet 24 or 25).
    starting_treasury: Callable[..., int] | None = None
    # placement_limit(options, power, space) -> units or None: a complex's limit in this space where
    #   an option sets one (None: Rules.production decides; e.g. Europe's Canada).
    placement_limit: Callable[..., int | None] | None = None
    # cash_advance(options) -> {power: IPCs}: money given before the first turn (None or empty: none).
    #   The game then opens with a round 0 in which each power, in turn order, only buys units and
    #   places them where it already has a unit (or keeps the money), then collects its starting
    #   treasury (e.g. Europe's Special Cash Advance).
    cash_advance: Callable[..., dict[str, int]] | None = None
    # advance_placement_with_allies(options) -> bool: in that round 0, may units also be placed where
    #   only a friendly power has a unit? (None: no.)
    advance_placement_with_allies: Callable[..., bool] | None = None
    # capture_country(options, power, space, world, chosen=) -> country or None: which of a power's
    #   countries (Power.countries) places its control marker on a territory it takes that was no
    #   country of its own (None: the power's first country; e.g. Pacific's Siam and French Indo-China:
    #   India).  `chosen`: the country the mover's orders name for it (orders `markers:`), or None.
    #   A friendly original owner's territory is liberated to it before this is asked.
    capture_country: Callable[..., str | None] | None = None
    # move_restriction(options, power, units=, phase=, domain=, path=, frm=, world=) -> why a move is
    #   refused, or None: a power's own limits on where its units go (1940: what powers not at war
    #   may not do - the United States "may not move any units into or through China" while at peace
    #   with Japan, Japan "may not end sea moves within 2 sea zones of the US mainland").
    move_restriction: Callable[..., str | None] | None = None
    # battle_boosts(world, space, kind=, attackers=, defenders=, seaborne=) -> Boosts: some units of a
    #   kind fire better than the rest of their kind (combat.model.Boost; AMS wolf packs, pill boxes).
    battle_boosts: Callable[..., tuple[Any, ...]] | None = None
    # air_battle_bonus(world, space, side=, units=) -> (how many, why): of a raid's interceptors
    #   ("defender") or escorts ("attacker"), how many hit one higher in the air battle (AMS: radar
    #   towers; Jet Fighters).
    air_battle_bonus: Callable[..., tuple[int, str]] | None = None
    # confined_to(options, power) -> territories or None: the only spaces the power's units may move
    #   through or to (1940: "Chinese units stay in Chinese-emblem territories, plus Kwangtung and
    #   Burma, and cannot be transported" - no sea zone is in it).
    confined_to: Callable[..., frozenset[str] | None] | None = None
    # purchase_limits(options, country, control=) -> {unit: most} or None: the only units a country may
    #   buy this turn and how many (1940: China "builds only infantry, plus 1 artillery per turn while
    #   the Burma Road is open"); None: no limit but the treasury.  A PurchaseLimits says why too.
    purchase_limits: Callable[..., Mapping[str, int] | None] | None = None
    # placement_without_complex(options, country, control=, control_at_start=) -> territories where the
    #   country places land and air units with no complex and no limit (1940: China, in the Chinese
    #   territories it holds).
    placement_without_complex: Callable[..., frozenset[str]] | None = None
    # standing_keys(options, power) -> keys: the standing-orders keys only this system's own rules read
    #   for the power ("kaiten", "liberation_units", "choices:<option>"); any other of those keys in
    #   its standing orders is never read, and checking the file warns (pbem.engine.standing).
    standing_keys: Callable[..., frozenset[str]] | None = None
    # standing_problems(options, standing, ruleset) -> problems: what is wrong with the values of those
    #   keys, told when the file is checked rather than set aside when the rule comes (AMS France's
    #   liberation units worth more than 12 IPCs).
    standing_problems: Callable[..., list[Any]] | None = None


@dataclass(frozen=True)
class Rules:
    """A rule system's choices outside combat, one group per concern: each group is stated once, in
    full, in the ruleset's own `rules.py`."""

    movement: MovementRules
    capitals: CapitalRules
    production: ProductionRules
    economy: EconomyRules
    victory: VictoryCheck
    kamikaze: Kamikaze | None  # None: no such attacks
    politics: Politics | None  # None: opposing sides are always at war
    hooks: RuleHooks = field(default_factory=lambda: RuleHooks())
    # bonus IPCs collected with income while their conditions hold (1940 Global); () : none
    objectives: tuple["NationalObjective", ...] = ()
    scramble: Scramble | None = None  # None: no air unit rises to defend a sea zone
    airborne: Airborne | None = None  # None: no land unit flies into battle
    tokens: "VictoryTokens | None" = None  # victory objectives held as tokens (AMS); None: none
    # breakthroughs rolled on charts when earned (AMS: the first claim of a token); None: as the
    # research of pbem.engine.research, where the rule system has it
    technology: "Technology | None" = None

    # Where this rulebook puts the sections the engine names in its messages: section -> citation
    # with page ("Tanks and Blitzing" -> "Tanks and Blitzing, pg. 13").  The engine speaks of
    # sections; each ruleset adds its own page numbers.  Not a rule choice, so it may be left out.
    citations: dict[str, str] = field(default_factory=dict)

    def cite(self, rule: str) -> str:
        for section, full in self.citations.items():
            if rule.startswith(section):
                return full + rule[len(section):]
        return rule
