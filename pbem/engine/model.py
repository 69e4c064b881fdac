"""The game model as frozen values: unit profiles, the board, powers and the state between turns.

The engine never mutates these; every phase returns new values. Nothing here reads files: the
`pbem.io` layer builds these objects from a ruleset's YAML data and a game's state file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping

Domain = Literal["land", "sea", "air", "structure"]
SpaceKind = Literal["land", "sea"]

# Unit tags: what a unit *can do*, named as the rulebooks say it.  The combat and movement code
# asks for tags, never for unit names, so a new rule system only writes data.
TAGS = frozenset(
    {
        "infantry",  # supported by artillery; the "additional infantry" on a transport
        "artillery",  # supports one infantry on attack
        "blitz",  # may move through one empty hostile territory
        "aa",  # anti-aircraft artillery / AA gun
        "factory",  # industrial complex
        "fighter",  # carrier-capable air unit; escort / interceptor
        "bomber",  # strategic bombing raids
        "transport",
        "submarine",
        "destroyer",  # anti-submarine warfare
        "carrier",
        "surface_warship",  # makes a sea zone hostile (1942): battleship, carrier, cruiser, destroyer
        "two_hit",  # takes two hits to destroy
        "bombard",  # may bombard in amphibious assaults at its `bombard` value
        "capture_blocking",  # (structures) stop a blitz: AAA, industrial complex
        "passed_by_blitz",  # (structures) do not stop a blitz, whatever MovementRules.blitz_blocked_by_domains says (AMS pill box, radar tower)
        "moves_noncombat_only",  # AAA in 1942
        "cannot_attack",
        "armour",  # a tank: the partner of a mechanized unit's blitz and of a tactical bomber (1940)
        "mechanized",  # mechanized infantry (1940)
        "carrier_borne",  # lands on carriers though no fighter (1940's tactical bomber)
        "air_base",  # (structures) an air base facility (1940)
        "naval_base",  # (structures) a naval base facility (1940)
        "military_base",  # (structures) AMS's smallest production facility, raided by tactical bombers too
        "pill_box",  # (structures) AMS: two infantry defend at +1 against amphibious assaults
        "radar",  # (structures) AMS: interceptors at +1
        "upgrade",  # (structures) a purchase that raises a facility one level (units.yaml upgrade_from/upgrade_to)
    }
)


@dataclass(frozen=True)
class UnitType:
    """A unit profile, as printed in the rulebook's unit profiles."""

    name: str
    domain: Domain
    cost: int
    attack: int
    defense: int
    move: int
    hits: int = 1
    tags: frozenset[str] = frozenset()
    bombard: int = 0  # hit value when bombarding (0: cannot)
    transport_capacity: int = 0  # cargo slots of a transport
    transport_size: int = 0  # slots a land unit takes aboard (0: cannot be transported)
    carrier_capacity: int = 0  # air units a carrier holds
    production: int | None = None  # units a facility mobilizes a turn, less damage (None: the ruleset's limit)
    max_damage: int | None = None  # the most damage a facility takes (None: the ruleset's bombing cap)
    # facilities (their tags) it may raid (1940: a strategic bomber complexes and bases, a tactical
    # bomber bases only); () : a unit tagged bomber raids complexes
    bombs: tuple[str, ...] = ()
    bombing_bonus: int | None = None  # added to its raid damage die (None: CombatRules.sbr_damage_bonus)
    inoperable_at: int | None = None  # a facility with this much damage stops working (1940 bases: 3)
    min_territory_ipc: int | None = None  # a new facility only on a territory worth this much (None: the ruleset's)
    original_territory_only: bool = False  # a new facility only in the builder's original territory (AMS industrial complex)
    on_islands: bool | None = None  # a new facility may stand on an island (None: the ruleset's; AMS military base: yes)
    # facilities: at most this many sharing one of its facility tags in a territory (AMS: one air strip
    # or air base, one naval base, one pill box, two radar towers); None: no limit of its own
    max_per_territory: int | None = None
    needs_facility: bool = False  # placed only where another facility stands (AMS radar tower)
    built_in_aa: bool = True  # a facility fires at the bombers raiding it (AMS pill box: "Does not contain a built-in AA gun")
    # what capture does to it: None changes hands; "destroyed" (AMS pill box); "destroyed_alone":
    # destroyed unless another facility stays in the territory (AMS radar tower)
    on_capture: str | None = None
    # an upgrade (tag "upgrade"): bought as a unit, placed where `upgrade_from` stands, which becomes
    # `upgrade_to` (AMS: "May upgrade existing facility to next highest level for 10 IPCs")
    upgrade_from: str | None = None
    upgrade_to: str | None = None
    places: tuple[str, ...] = ()  # the only units a production facility mobilizes (() : any)
    places_not: tuple[str, ...] = ()  # units it never mobilizes
    # units that take more than one of its production a turn: (unit, units' worth) pairs (AMS military
    # base: "2 infantry or 1 transport" - a transport takes both)
    place_weights: tuple[tuple[str, int], ...] = ()
    captured_as: str | None = None  # the unit a captured facility becomes (1940: a major complex a minor one)
    # attack when paired one to one with a unit having one of these tags (1940: a tactical bomber
    # with a fighter or a tank attacks at 4); 0 and (): no pairing
    paired_attack: int = 0
    paired_with: tuple[str, ...] = ()
    convoy_dice: int = 0  # dice it rolls for convoy disruption in a convoy zone (1940)
    # tags of the blitzing units that let it blitz, one partner each (1940: a mechanized infantry with a tank)
    blitz_with: tuple[str, ...] = ()
    bought_by: tuple[str, ...] | None = None  # the only countries that may buy it (None: any; (): none)
    aliases: tuple[str, ...] = ()

    def has(self, tag: str) -> bool:
        return tag in self.tags

    @property
    def lands_on_carriers(self) -> bool:
        """Fighters, and 1940's tactical bombers (`carrier_borne`)."""
        return "fighter" in self.tags or "carrier_borne" in self.tags


@dataclass(frozen=True)
class Space:
    """A territory or sea zone of the map."""

    name: str
    kind: SpaceKind
    ipc: int = 0
    original_owner: str | None = None  # None: neutral (territory) or a sea zone
    capital_of: str | None = None
    victory_city: str | None = None  # the city's name, e.g. "Berlin"
    island: bool = False
    impassable: bool = False  # impassable neutral: no entry, no overflight
    convoy: bool = False  # a convoy centre: a sea zone with an income value, taken by warships
    tribute: bool = False  # its value is paid by the original owner's side to an enemy holding it
    # A convoy route (a sea zone): the territory whose income counts only while its controller's
    # side also controls this zone (Pacific, Convoy Routes).
    convoy_route: str | None = None
    kamikaze: bool = False  # a sea zone where kamikaze may strike (Pacific)
    # a sea zone with a convoy image: enemy warships there disrupt the income of the territories
    # beside it (1940, Convoy Disruption)
    convoy_zone: bool = False
    naval_base: bool = False  # printed naval base (Pacific)
    air_base: bool = False  # printed air base (Pacific)
    aliases: tuple[str, ...] = ()

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def is_land(self) -> bool:
        return self.kind == "land"


@dataclass(frozen=True)
class Canal:
    """A canal joins two sea zones; a side may use it when it controls every listed territory."""

    name: str
    sea_zones: tuple[str, str]
    controlled_by: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    spaces: Mapping[str, Space]
    adjacency: Mapping[str, frozenset[str]]
    canals: tuple[Canal, ...] = ()

    def neighbours(self, name: str) -> frozenset[str]:
        return self.adjacency.get(name, frozenset())

    def are_adjacent(self, a: str, b: str) -> bool:
        return b in self.adjacency.get(a, frozenset())

    def canal_between(self, a: str, b: str) -> Canal | None:
        for canal in self.canals:
            if set(canal.sea_zones) == {a, b}:
                return canal
        return None


@dataclass(frozen=True)
class Country:
    """An economy of a power (Pacific: Great Britain's India and Australia): its own treasury,
    control markers, capital and placement, while the power's units move and fight as one."""

    name: str
    capital: str
    starting_treasury: int
    colour: str = "#888888"
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Power:
    name: str
    side: str
    capital: str  # territory name (of its first country, when it has several)
    starting_treasury: int
    colour: str = "#888888"
    aliases: tuple[str, ...] = ()
    # Its economies, when more than one; empty: the power is its own single country.  Control and
    # treasury are kept by country, units by power.
    countries: tuple[Country, ...] = ()
    # A bystander (Ruleset.bystanders) takes no turn: this says what kind (e.g. "strict" neutral).
    bystander: str | None = None

    @property
    def economies(self) -> tuple[Country, ...]:
        return self.countries or (Country(self.name, self.capital, self.starting_treasury, self.colour, self.aliases),)


# Units at one space: owner -> unit name -> count.  Kept as plain sorted dicts for stable YAML.
UnitCounts = Mapping[str, int]
Stacks = Mapping[str, Mapping[str, UnitCounts]]  # space -> owner -> unit -> count


@dataclass(frozen=True)
class Setup:
    """The opening position of a rule system."""

    control: Mapping[str, str]  # land territory -> controlling country (neutrals absent)
    units: Stacks
    treasury: Mapping[str, int]  # country -> IPCs


@dataclass(frozen=True)
class GameState:
    """Everything that carries from one power's turn to the next.

    Units at sea that are land units are cargo aboard transports in that zone; air units at sea are
    aboard carriers.  Factory damage persists between turns; battleship damage does not in 1942.
    """

    ruleset: str
    round: int
    turn_index: int  # index into the ruleset's turn order of the power to move
    control: Mapping[str, str]
    units: Stacks
    treasury: Mapping[str, int]
    damage: Mapping[str, int] = field(default_factory=dict)  # territory -> factory damage
    # territories captured during the current round whose liberation is decided at the end of turn
    pending: Mapping[str, object] = field(default_factory=dict)
    winner: str | None = None  # side that won, once victory is checked
    # how it was won: the victory level reached (e.g. Revised's "major") and the cities held then
    victory: Mapping[str, object] = field(default_factory=dict)
    # Weapons developments each power has made (Revised): power -> development ids, sorted.
    developments: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
