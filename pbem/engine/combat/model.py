"""The values a battle is made of: what fights, the players' standing orders, and what happened.

All frozen.  A `Battle` is everything the rules need; `Orders` are the decisions the players write
in advance (order of loss, retreat, submerge) because nobody is at the table when the dice fall;
`BattleOutcome` carries survivors, losses and a typed event log for the turn report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping, Protocol, get_args

from pbem.engine.combat.rules import CombatRules
from pbem.engine.model import UnitType

BattleKind = Literal["land", "sea"]
Side = Literal["attacker", "defender"]
Winner = Literal["attacker", "defender", "draw", "retreat", "none"]
# Fire classes: which enemy units a hit may be assigned to.
#   any      every unit on the battle strip
#   not_air  not air units (submarines: "cannot hit air units")
#   not_sub  not submarines (air units without a friendly destroyer)
#   air      air units only (antiaircraft fire)
#   target:<unit>  units of that type only (targeted antiaircraft fire: Revised FAQ)
FireClass = Literal["any", "not_air", "not_sub", "air"]
Counts = Mapping[str, Mapping[str, int]]  # owner -> unit -> count


class DiceSource(Protocol):
    """The question the engine asks: `count` d6 faces from the stream named `label`.

    Each label is its own stream, so one battle's dice never shift another's.  `pbem.dice`
    provides seeded and fixed implementations.
    """

    def roll(self, label: str, count: int) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Force:
    """Some units of one type and owner in a battle.

    `seaborne`: land units offloaded from transports in an amphibious assault (they cannot
    retreat, and they entitle bombardment).
    """

    unit: str
    owner: str
    count: int
    seaborne: bool = False

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError(f"negative count for {self.unit}: {self.count}")


@dataclass(frozen=True)
class Sacrifice:
    """Units that fire once, in the opening fire of round 1, at `value`, and are lost for it.

    They are not on the battle strip: no hit can be assigned to them ("a Kamikaze or Kaiten Torpedo
    becomes a casualty the moment it attacks", Revised FAQ), and their hits may be assigned to
    enemy sea units only (fire class "not_air"; sea battles only).
    """

    side: Side
    owner: str
    unit: str
    count: int
    value: int
    # The enemy unit type each one must hit (Pacific's kamikaze: "If a hit is scored, it must be
    # applied to the chosen unit"); None: any enemy sea unit.
    target: str | None = None
    # Do the units they sink still fire in round 1?  (Pacific's kamikaze: "Any ships sunk as a result
    # still get to return fire"); False: as the rules' surprise casualties.
    fire_back: bool = False
    # A token spent, not a unit that stood in the space (Pacific's and 1940's kamikaze strikes): not
    # among the side's forces before the battle.
    token: bool = False
    # Do they strike in opening fire, before the submarines' surprise strikes, their victims gone
    # when step 2 asks for a destroyer?  (1940's kamikaze: Kamikaze.before_surprise_strike)
    before_surprise_strike: bool = False


@dataclass(frozen=True)
class Boost:
    """Up to `count` of `owner`'s `unit` fire at `delta` more on `side`, in every volley fired while at
    least `at_least` of them are on the strip (AMS wolf packs: "If four or more German submarines are
    located in the same sea zone"; a surprise strike's casualties are gone before the general fire);
    `note` names why."""

    side: Literal["attacker", "defender"]
    owner: str
    unit: str
    count: int
    delta: int
    note: str
    at_least: int = 0


@dataclass(frozen=True)
class Battle:
    """One contested space as the rules see it once units are on the battle strip.

    `defenders` may belong to several allied owners: they defend together.  `bombard` names the
    attacker's battleships and cruisers supporting an amphibious assault; the caller decides their
    eligibility (no sea combat in that zone), and the per-unit cap is enforced again here when the
    rules have it (the first ships listed fire).  `damaged` counts two-hit units already damaged
    (owner -> unit -> count), for rule systems whose damage persists.
    """

    space: str
    kind: BattleKind
    attacker: str
    attackers: tuple[Force, ...]
    defenders: tuple[Force, ...]
    units: Mapping[str, UnitType]
    rules: CombatRules
    bombard: tuple[str, ...] = ()
    can_retreat: bool = True
    retreat_to: tuple[str, ...] = ()
    damaged: Counts = field(default_factory=dict)
    attacker_damaged: Counts = field(default_factory=dict)  # the attacker's two-hit units already damaged
    profiles: Mapping[str, Mapping[str, UnitType]] = field(default_factory=dict)
    attack_dice: Counts = field(default_factory=dict)
    aa_immune: frozenset[str] = frozenset()
    aa_hit: int | None = None
    # shots the guns fired before the battle, out of CombatRules.aa_shots_per_unit each (AMS: at
    # paratroopers, "as if they were being transported on one air unit"): fewer left for the aircraft
    aa_shots_spent: int = 0
    # owner -> unit -> profile for round 1 only (Revised Atlantic Wall, Marines); over `profiles`
    first_cycle_profiles: Mapping[str, Mapping[str, UnitType]] = field(default_factory=dict)
    sacrifices: tuple[Sacrifice, ...] = ()  # Revised Kamikaze Attacks, Kaiten Torpedoes
    # some units of a kind fire better than the rest (AMS wolf packs: up to three German submarines
    # attack at +1; pill boxes: up to two infantry defend at +1 against an amphibious assault)
    boosts: tuple[Boost, ...] = ()
    # owner -> unit -> dice each unit rolls, keeping the best (AMS Heavy Bombers: 2); one hit at most
    best_of: Counts = field(default_factory=dict)
    artillery_supports: int | None = None  # infantry each attacking artillery supports (None: the rules'; AMS Heavy Artillery: 2)

    def __post_init__(self) -> None:
        for force in self.attackers + self.defenders:
            if force.unit not in self.units:
                raise ValueError(f"unknown unit {force.unit!r} in battle at {self.space}")
        for s in self.sacrifices:
            if s.unit not in self.units or s.count < 0:
                raise ValueError(f"bad sacrifice {s!r} in battle at {self.space}")
            if self.kind != "sea":
                raise ValueError(f"units fire and are sacrificed in sea battles only ({self.space})")
        for ship in self.bombard:
            if ship not in self.units or self.profile(self.attacker, ship).bombard <= 0:
                raise ValueError(f"{ship!r} cannot bombard")

    def round_profile(self, owner: str, unit: str, round: int) -> UnitType:
        """The profile `owner`'s `unit` fires with in `round` (first-cycle profiles in round 1)."""
        if round == 1:
            mine = self.first_cycle_profiles.get(owner)
            if mine is not None and unit in mine:
                return mine[unit]
        return self.profile(owner, unit)

    def profile(self, owner: str, unit: str) -> UnitType:
        """The profile `owner`'s units of type `unit` fight with in this battle."""
        mine = self.profiles.get(owner)
        if mine is not None and unit in mine:
            return mine[unit]
        return self.units[unit]


RetreatKind = Literal["never", "after_round", "when_attackers_at_most", "when_defenders_outnumber", "when_no_land_units"]


@dataclass(frozen=True)
class RetreatCondition:
    """When the attacker retreats (checked at step 6, after each round).

    `after_round` N: retreat after round N if the battle is still on.  `when_attackers_at_most` N:
    retreat once the attacker has N units or fewer on the strip.  `when_defenders_outnumber`:
    retreat once the defender has more units than the attacker.  `when_no_land_units`: retreat once
    the attacker has no land unit left to capture the territory (its air units fly away).
    """

    kind: RetreatKind = "never"
    value: int = 0

    def __post_init__(self) -> None:
        # an unknown kind would otherwise fall through the engine's checks as the last one
        if self.kind not in get_args(RetreatKind):
            raise ValueError(f"unknown retreat condition {self.kind!r}: one of {', '.join(get_args(RetreatKind))}")
        if self.value < 0:
            raise ValueError(f"retreat condition {self.kind} needs a value of 0 or more, not {self.value}")


# "always": whenever the rules let them; "on_retreat": the attacker's submarines submerge instead of
# retreating, when its retreat condition holds (Pacific, step 6 A: "the attacker may retreat with
# any remaining surface ships or transports and/or submerge any submarines"; the Submarine Combat
# Example submerges its last sub after two rounds)
SubmergePolicy = Literal["never", "always", "on_retreat"]


@dataclass(frozen=True)
class Orders:
    """One side's standing orders for a battle.

    `order_of_loss`: unit names, first listed lost first; the rest follow the default (cheapest
    first, air units last at equal cost).  `hold_territory`: in land battles keep one land unit until last: for
    the attacker the unit that can still capture; a defender holds its territory with any unit
    that survives, air units too, so for it the flag only costs strength.  Off unless asked for:
    an order of loss is followed as written.  None of these fields is read for the side they do
    not concern (a defender cannot retreat).
    """

    order_of_loss: tuple[str, ...] = ()
    hold_territory: bool = False
    # the attacker's order for antiaircraft hits, which only air units take (empty: order_of_loss)
    aa_order_of_loss: tuple[str, ...] = ()
    retreat: RetreatCondition = RetreatCondition()
    retreat_to: str | None = None
    submerge: SubmergePolicy = "never"
    # two-hit units that take their first hit before any unit is lost (True: all, the default; a
    # tuple: these types); the others take it where the order of loss ranks them, then sink
    damage_first: bool | tuple[str, ...] = True


# ------------------------------------------------------------------------------------------
# events


@dataclass(frozen=True)
class DiceGroup:
    """Dice rolled together by units with one hit value: "3 dice at 1: 1 5 6"."""

    unit: str
    value: int  # hit on this or less
    count: int  # number of units (dice, except in Low Luck)
    fire_class: FireClass
    note: str = ""  # e.g. "supported by artillery"
    best_of: int = 1  # dice per unit, the best kept: `count` units roll count * best_of dice, one hit each at most
    dice_each: int = 1  # dice per unit, every one counting (Revised, Heavy Bombers: "two dice each"): `count` is dice


@dataclass(frozen=True)
class RolledGroup:
    group: DiceGroup
    dice: tuple[int, ...]
    hits: int


REMAINDER = "remainder"  # Low Luck: the `unit` of the die rolled for a pool's remainder (DiceRolled)


@dataclass(frozen=True)
class DiceRolled:
    """One side's dice for one step; in Low Luck `dice` hold the one die for the remainders."""

    round: int
    step: str
    side: Side
    label: str
    groups: tuple[RolledGroup, ...]
    hits: int
    low_luck: bool = False
    guaranteed_hits: int = 0  # Low Luck: hits from whole sixes of strength


CasualtyReason = Literal[
    "directive",
    "default",
    "default: two-hit units first",
    "default: one land unit kept",
    "directive: one land unit kept",
    "rule: as many hits as possible must be assigned",
    "rule: transports chosen last",
    "rule: the units ranked ahead cannot be hit by these dice",
    "rule: each die is aimed at one aircraft",
    "rule: each kamikaze strikes the ship chosen for it",
    "defenceless transports",
    "aa alone",
]


@dataclass(frozen=True)
class Casualty:
    owner: str
    unit: str
    effect: Literal["destroyed", "damaged"]
    reason: CasualtyReason
    seaborne: bool = False


@dataclass(frozen=True)
class CasualtiesChosen:
    round: int
    step: str
    side: Side  # the side that loses the units
    casualties: tuple[Casualty, ...]
    unassigned_hits: int = 0  # hits no eligible unit could take


@dataclass(frozen=True)
class Submerged:
    round: int
    side: Side
    units: tuple[tuple[str, str, int], ...]  # (owner, unit, count)
    # when in the round (CombatRules.submerge_timing): "instead_of_surprise_strike" before any die,
    # "instead_of_return_fire" or "at_press_or_retreat" once the round's dice are rolled
    timing: str = "instead_of_surprise_strike"


@dataclass(frozen=True)
class Retreated:
    round: int
    to: str | None
    units: tuple[tuple[str, str, int], ...]
    stayed: tuple[tuple[str, str, int], ...] = ()  # seaborne units that cannot retreat


@dataclass(frozen=True)
class BattleEnded:
    round: int
    winner: Winner
    reason: str


Event = DiceRolled | CasualtiesChosen | Submerged | Retreated | BattleEnded


@dataclass(frozen=True)
class BattleOutcome:
    """What the battle did.  Unit mappings are owner -> unit -> count, zero counts left out.

    `attacker_survivors` includes retreated units; `defender_survivors` includes submerged subs.
    `damaged` lists surviving two-hit units that took a hit, and `repaired` says whether the rules
    repaired them at the end of the combat.
    """

    space: str
    winner: Winner
    rounds: int
    captured: bool
    attacker_survivors: Counts
    defender_survivors: Counts
    attacker_lost: Counts
    defender_lost: Counts
    damaged: Counts
    repaired: bool
    retreated_to: str | None
    retreated: Counts
    submerged: Counts
    events: tuple[Event, ...]
    defaults_used: tuple[str, ...]
    sacrificed: Counts = field(default_factory=dict)  # Battle.sacrifices, also in *_lost
    # the attacker's losses among its seaborne (or airborne) land units, also in attacker_lost: the
    # board must lose those units, not overland ones of the same type, or the two stories part
    seaborne_lost: Counts = field(default_factory=dict)
