"""A rule system as one frozen value: powers, units, board, opening setup, turn sequence, options.

The engine asks a `Ruleset` questions ("whose side is Japan on?", "what is a tank?") instead of
hard-coding a game, so a new rule system is new data, not new code.  `pbem.io.rulesets` builds it
from the YAML files of a ruleset folder; nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from pbem.engine.model import Board, Country, Power, Setup, UnitType


# What players call a power whichever box they learnt on: 1942 and Revised say "United Kingdom",
# Europe and Pacific "Great Britain".  Code, not data, so no ruleset's hash changes; a ruleset's own
# names and aliases come first, so a name one of its countries bears (Pacific's "USA") keeps meaning it.
COMMON_POWER_NAMES: Mapping[str, tuple[str, ...]] = {
    "United Kingdom": ("Great Britain", "UK", "U.K.", "Britain", "British", "GB"),
    "Great Britain": ("United Kingdom", "UK", "U.K.", "Britain", "British", "GB"),
    "Soviet Union": ("USSR", "U.S.S.R.", "Soviets", "Soviet", "Russians", "Russian", "SU"),
    "United States": ("US", "U.S.", "USA", "U.S.A.", "America", "Americans", "American",
                      "United States of America"),
    "Germany": ("Germans", "German", "GER"),
    "Japan": ("Japanese", "JPN"),
    "Italy": ("Italians", "Italian", "ITA"),
}


def _key(name: str) -> str:
    """Names are matched ignoring case and surrounding blanks, as players type them."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class Phase:
    """One phase of a power's turn, with its ordered sub-steps (e.g. combat: SBR, amphibious, general)."""

    id: str
    name: str
    steps: tuple[str, ...] = ()
    mandatory: bool = False  # A42: collecting income is the one phase a power may not skip
    rule: str = ""  # rulebook citation


@dataclass(frozen=True)
class CityGroup:
    """Victory cities of which a side must hold `at_least` (1940 Global: 8 of the Europe board's 11)."""

    name: str
    cities: tuple[str, ...]  # territories
    at_least: int


@dataclass(frozen=True)
class SideVictory:
    """How one side wins by city groups: any one group held, while it holds one of `holding_one_of`."""

    any_of: tuple[CityGroup, ...]
    holding_one_of: tuple[str, ...]


@dataclass(frozen=True)
class VictoryRules:
    """How the game is won: a number of victory cities, chosen by a game option (kind "cities"), or
    an enemy capital held to the start of the captor's next turn (kind "capitals": no cities, no
    option; the capitals are the powers')."""

    cities: int  # victory cities on the map
    conditions: Mapping[str, int]  # option value -> cities a side must hold, e.g. standard -> 9
    option: str  # the game option choosing the condition
    checked_after: str  # power after whose turn (the end of the round) victory is checked
    rule: str = ""
    kind: str = "cities"  # "cities", "capitals", "city_groups" (each side's own groups: `sides`) or "tokens" (Rules.tokens)
    sides: Mapping[str, SideVictory] = field(default_factory=dict)
    held_for_a_round: bool = False  # city_groups: held at the end of every turn for a complete round (1940 Global)


@dataclass(frozen=True)
class RuleOption:
    """A rule players may switch before the game, with its default and where the rulebook says so."""

    name: str
    default: object
    allowed: tuple[object, ...]
    rule: str
    description: str = ""


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    powers: tuple[Power, ...]  # in turn order
    units: Mapping[str, UnitType]
    board: Board
    setup: Setup
    phases: tuple[Phase, ...]
    victory: VictoryRules
    options: Mapping[str, RuleOption]
    data_hash: str  # sha256 of the canonical parsed data: two machines agree on the same rules
    sides: tuple[str, ...] = ()
    # Owners that take no turn (neutrals, minor powers): each a side of its own (Power.bystander)
    bystanders: tuple[Power, ...] = ()
    _powers_by_key: Mapping[str, Power] = field(init=False, repr=False, compare=False)
    _units_by_key: Mapping[str, UnitType] = field(init=False, repr=False, compare=False)
    _countries_by_key: Mapping[str, Country] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        powers: dict[str, Power] = {}
        countries: dict[str, Country] = {}
        for p in (*self.powers, *self.bystanders):
            for n in (p.name, *p.aliases):
                powers.setdefault(_key(n), p)
            if p.bystander:
                continue
            for c in p.economies:
                for n in (c.name, *c.aliases):
                    powers.setdefault(_key(n), p)
                    countries.setdefault(_key(n), c)
        for p in self.powers:
            for n in COMMON_POWER_NAMES.get(p.name, ()):
                powers.setdefault(_key(n), p)
                if len(p.economies) == 1:
                    countries.setdefault(_key(n), p.economies[0])
        units: dict[str, UnitType] = {}
        for u in self.units.values():
            for n in (u.name, *u.aliases):
                units.setdefault(_key(n), u)
        object.__setattr__(self, "_powers_by_key", MappingProxyType(powers))
        object.__setattr__(self, "_countries_by_key", MappingProxyType(countries))
        object.__setattr__(self, "_units_by_key", MappingProxyType(units))

    @property
    def turn_order(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.powers)

    def power(self, name: str) -> Power:
        """The power called `name` or one of its aliases (any case); KeyError if none."""
        try:
            return self._powers_by_key[_key(name)]
        except KeyError:
            raise KeyError(
                f"no power {name!r} in {self.id}; powers: {', '.join(self.turn_order)}"
            ) from None

    def names_of(self, power: str) -> tuple[str, ...]:
        """The names `power` itself answers to (case-folded): its aliases and the common ones, not
        its countries' (Pacific's "China" names the economy, not the United States)."""
        p = self.power(power)
        return tuple(k for k, q in self._powers_by_key.items()
                     if q is p and (k not in self._countries_by_key or self._countries_by_key[k].name == p.name))

    def country(self, name: str) -> Country:
        """The country (economy) called `name`; a power of one economy is its own country."""
        try:
            return self._countries_by_key[_key(name)]
        except KeyError:
            raise KeyError(f"no country {name!r} in {self.id}; countries: {', '.join(self.countries)}") from None

    @property
    def countries(self) -> tuple[str, ...]:
        """Every economy, in turn order: the keys of control and treasury."""
        return tuple(c.name for p in self.powers for c in p.economies)

    def countries_of(self, power: str) -> tuple[str, ...]:
        return tuple(c.name for c in self.power(power).economies)

    def colours(self) -> dict[str, str]:
        """Each power's colour, then its countries' (control is kept by country), in turn order."""
        out: dict[str, str] = {}
        for p in self.powers:
            out[p.name] = p.colour
            for c in p.countries:
                out[c.name] = c.colour
        return out

    def treasury_of(self, treasury: Mapping[str, int], power: str) -> int:
        """A power's IPCs on hand: its countries' together."""
        return sum(treasury.get(c, 0) for c in self.countries_of(power))

    def power_name(self, name: str) -> str:
        """The power a country belongs to (a power's own name gives itself)."""
        return self.power(name).name

    def side_of(self, power: str) -> str:
        return self.power(power).side

    def allies(self, power: str) -> tuple[str, ...]:
        """The other powers on `power`'s side, in turn order."""
        me = self.power(power)
        return tuple(p.name for p in self.powers if p.side == me.side and p.name != me.name)

    def enemies(self, power: str) -> tuple[str, ...]:
        """The powers on any other side, in turn order."""
        me = self.power(power)
        return tuple(p.name for p in self.powers if p.side != me.side)

    def unit(self, name: str) -> UnitType:
        """The unit type called `name` or one of its aliases (any case); KeyError if none."""
        try:
            return self._units_by_key[_key(name)]
        except KeyError:
            raise KeyError(
                f"no unit {name!r} in {self.id}; units: {', '.join(self.units)}"
            ) from None

    def option_defaults(self) -> dict[str, object]:
        return {name: opt.default for name, opt in self.options.items()}

    def victory_cities(self) -> dict[str, str]:
        """City name -> territory holding it."""
        return {s.victory_city: s.name for s in self.board.spaces.values() if s.victory_city}
