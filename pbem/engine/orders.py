"""A power's orders for one turn, and its standing orders, as values with resolved names.

The `path` of each item is the key path into the YAML document it came from, so a problem found by
the engine can be located at file:line:column by `pbem.io`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping

from pbem.engine.problems import PathItem

YamlPath = tuple[PathItem, ...]
Phase = Literal["combat", "noncombat"]


@dataclass(frozen=True)
class Move:
    phase: Phase
    units: Mapping[str, int]  # unit name -> count
    frm: str
    to: str
    via: tuple[str, ...] | None = None  # spaces between frm and to, when the player gives them
    mission: str | None = None  # "strategic_bombing" for bombers raiding a complex
    cargo: Mapping[str, int] | None = None  # for transports: the cargo they carry (selects which)
    yaml_path: YamlPath = ()
    owner: str | None = None  # another power's units the mover may command (Rules.hooks.commands); None: its own
    target: str | None = None  # a raid's facility (units.yaml name) where a territory has several (1940)


@dataclass(frozen=True)
class RetreatCondition:
    """When the attacker retreats, read from directives such as "after round 2"."""

    kind: Literal["never", "after_round", "attackers_at_most", "defenders_outnumber", "no_land_units", "always"]
    value: int = 0
    text: str = "never"


@dataclass(frozen=True)
class CallOff:
    """When the attacker calls off an amphibious landing, judged once the sea battles of its offload
    zones are over (CombatRules.amphibious_call_off says whether and when the rules allow it):
    "landing_at_most" N - N land units or fewer are still aboard to land; "defenders_outnumber" -
    the territory's defenders outnumber every unit that would attack it."""

    kind: Literal["never", "always", "landing_at_most", "defenders_outnumber"]
    value: int = 0
    text: str = "never"


@dataclass(frozen=True)
class BattleDirective:
    space: str
    order_of_loss: tuple[str, ...] = ()
    retreat: RetreatCondition = RetreatCondition("never")
    retreat_to: str | None = None
    submerge: bool | None = None  # attacking subs submerge when they may (None: standing/default)
    # keep one land unit alive to capture; None: not written - kept unless an order of loss is
    # written, which is then followed exactly (README, the attacker's defaults)
    hold_territory: bool | None = None
    yaml_path: YamlPath = ()
    aa_order_of_loss: tuple[str, ...] = ()  # which air units antiaircraft hits take first (default: order_of_loss)
    bombard: Mapping[str, int] | None = None  # the ships that bombard an amphibious assault (None: every eligible one)
    call_off: CallOff | None = None  # when the amphibious landing on this territory is called off (None: never)
    damage_first: bool | tuple[str, ...] | None = None  # two-hit units hit before any loss (combat Orders.damage_first); None: not written
    # a sea zone whose enemies are only submarines and transports: let them be, no sea battle (Combat
    # Move: "you have the option of attacking an enemy submarine and/or transport"); a scramble into it is fought
    ignore: bool = False


@dataclass(frozen=True)
class Placement:
    space: str
    units: Mapping[str, int]
    yaml_path: YamlPath = ()
    complex: str | None = None  # for a sea zone: the adjacent complex that mobilizes them (None: one with room)


@dataclass(frozen=True)
class Boarding:
    """Fighters already on the board that board a carrier mobilized this turn in `to`, from the
    territory `frm` of the complex beside it (Rules.production.existing_air_onto_new_carriers);
    `owner` None: the mover's own, else an ally's."""

    units: Mapping[str, int]
    frm: str
    to: str
    owner: str | None = None
    yaml_path: YamlPath = ()


@dataclass(frozen=True)
class Conversion:
    """Units of a friendly power in `space` that become the mover's (Rules.hooks.may_convert); `owner`
    None: any friendly power's, in turn order."""

    space: str
    units: Mapping[str, int]
    owner: str | None = None
    yaml_path: YamlPath = ()


@dataclass(frozen=True)
class Orders:
    game: str
    power: str
    round: int
    purchase: Mapping[str, int] = field(default_factory=dict)  # every unit bought, all countries together
    # A power of several countries (Power.countries): country -> units it buys; empty otherwise.
    purchase_by_country: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    develop: tuple[str, int] | None = None  # (development id, research dice), Revised
    repair: Mapping[str, int] = field(default_factory=dict)  # territory -> damage points repaired
    combat_moves: tuple[Move, ...] = ()
    battles: Mapping[str, BattleDirective] = field(default_factory=dict)
    noncombat_moves: tuple[Move, ...] = ()
    placements: tuple[Placement, ...] = ()
    onto_new_carriers: tuple[Boarding, ...] = ()  # existing fighters onto the carriers just placed
    # (launching territory, target, yaml path, the facility struck or None: its production facility)
    rockets: tuple[tuple[str, str, YamlPath, str | None], ...] = ()
    declare: tuple[tuple[str, YamlPath], ...] = ()  # once-per-game declarations (Rules.hooks.declarations)
    convert: tuple[Conversion, ...] = ()  # friendly units taken over in the purchase phase (Rules.hooks.may_convert)
    # A power of several countries: how its convoy centres' income is divided, country -> IPCs, in
    # order, the rest to its first country not named (Pacific, Phase 9: "given to India or Australia,
    # or divided between the two countries in any manner the British player wishes").  Empty: each
    # centre's income goes to the country whose marker is on it.
    convoy_income: Mapping[str, int] = field(default_factory=dict)
    # Rules.movement.combat_air_patrol: where the mover's fighters on patrol land at the start of its
    # turn, sea zone -> a friendly territory next to it, or the zone itself (its carriers).  Unnamed:
    # a friendly carrier there, else the first friendly territory next to it.
    cap_landing: Mapping[str, str] = field(default_factory=dict)
    # Rules.politics: powers the mover declares war on at the start of its combat move (power, yaml path)
    declare_war: tuple[tuple[str, YamlPath], ...] = ()
    # A power of several countries: which country's control marker a territory it takes receives,
    # where the rules leave the choice to it (Rules.hooks.capture_country; Pacific's Siam and French
    # Indo-China taken by American and Chinese units): territory -> country.
    markers: Mapping[str, str] = field(default_factory=dict)
    # Orders made only if this turn's research brings a development ("From now on (including this
    # turn)", Revised Develop Weapons, Step 4): yaml path of a move or rocket strike -> development id.
    # Validation checks the orders both ways; adjudication drops these when the dice fail.
    if_developed: Mapping[YamlPath, str] = field(default_factory=dict)

    def without(self, paths: frozenset[YamlPath] | set[YamlPath]) -> "Orders":
        """These orders less the moves and rocket strikes at `paths` (and the battle directives of the
        attacks only those moves made)."""
        from dataclasses import replace

        kept = tuple(m for m in self.combat_moves if m.yaml_path not in paths)
        # the directive of an attack only the moves left out would have made goes with them
        gone = {m.to for m in self.combat_moves if m.yaml_path in paths} - {m.to for m in kept}
        return replace(self, combat_moves=kept,
                       noncombat_moves=tuple(m for m in self.noncombat_moves if m.yaml_path not in paths),
                       rockets=tuple(r for r in self.rockets if r[2] not in paths),
                       battles={space: d for space, d in self.battles.items() if space not in gone},
                       if_developed={k: v for k, v in self.if_developed.items() if k not in paths})


@dataclass(frozen=True)
class DefencePolicy:
    """How a power defends when attacked on someone else's turn (rulebook: the defender chooses)."""

    order_of_loss: tuple[str, ...] = ()
    hold_territory: bool = False  # keep a land unit alive to the last (only when written: any survivor holds)
    submerge: bool = False  # defending subs submerge when they may instead of firing
    intercept: bool | int = False  # fighters intercept bombing raids (optional rule): all (True) or this many
    kaiten: int = 0  # defending submarines designated to fire and be lost (Revised Kaiten Torpedoes)
    yaml_path: YamlPath = ()
    damage_first: bool | tuple[str, ...] | None = None  # two-hit units hit before any loss (combat Orders.damage_first); None: not written


@dataclass(frozen=True)
class ConditionalMove:
    """A move a power makes on another power's turn when that power attacks `when_attacked`
    (Rules.hooks.interjections; e.g. Revised's Enigma Decoded, standing order `enigma:`)."""

    when_attacked: str
    units: Mapping[str, int]
    frm: str
    to: str
    yaml_path: YamlPath = ()


@dataclass(frozen=True)
class KamikazeOrder:
    """Pacific, Kamikaze: in `zones` (empty: every kamikaze zone), strike `count` enemy ships of the
    `targets` types (first listed first) when at least `at_least` enemy surface ships moved in."""

    targets: tuple[str, ...]
    zones: tuple[str, ...] = ()
    count: int = 1
    at_least: int = 1
    yaml_path: YamlPath = ()


@dataclass(frozen=True)
class ScrambleOrder:
    """1940, Scramble: when the mover attacks (or assaults from) one of `zones` (empty: any sea zone
    next to `base`), up to `count` fighters and tactical bombers of the base rise into them, the
    first zone written first; the base's limit (three) is shared by every order from it, whoever's."""

    base: str
    zones: tuple[str, ...] = ()
    count: int = 3
    yaml_path: YamlPath = ()


@dataclass(frozen=True)
class StandingOrders:
    power: str
    default: DefencePolicy = DefencePolicy()
    per_space: Mapping[str, DefencePolicy] = field(default_factory=dict)
    explicit: bool = False  # False: nothing written; the documented defaults apply
    conditional_moves: tuple[ConditionalMove, ...] = ()  # out-of-turn moves (Rules.hooks.interjections), tried in order
    # Choices game options leave to this power, made in advance: option -> spaces by preference.
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Who of this power's side pays an enemy for the tribute spaces this power owned (EconomyRules), in order.
    tribute_payers: tuple[str, ...] = ()
    # the most each of those pays ({United States: 3}: "The U.S. agrees to pay Germany 3 IPCs, while
    # Great Britain pays Germany 1 IPC", Middle East Movement Example); unlisted: as much as it has
    tribute_caps: Mapping[str, int] = field(default_factory=dict)
    kamikaze: tuple[KamikazeOrder, ...] = ()  # Rules.kamikaze: when and at what this power strikes
    scramble: tuple[ScrambleOrder, ...] = ()  # Rules.scramble: which bases send air units where
    tech_chart: str | None = None  # Rules.technology: the chart of a roll that may be on either (AMS "Either")
    # the units a rule lets this power choose when its capital is liberated (AMS France: "Place 12 IPCs
    # worth of units in France"); empty: the rule's default
    liberation_units: Mapping[str, int] = field(default_factory=dict)

    def policy_for(self, space: str) -> DefencePolicy:
        return self.per_space.get(space, self.default)
