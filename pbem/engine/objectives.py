"""National objectives: bonus IPCs a country collects with its income while stated conditions hold.

1940 Global pays them in its Collect Income phase ("add national objective bonuses", E12), each
objective a short list of conditions of a few kinds: whom the power is at war with, who controls
which territories, whose ships are where, whose units stand where.  A ruleset states its objectives
as `NationalObjective` values (data, in its `rules.py`); this module evaluates them on the board as
it stands when income is collected, so AMS's tables reuse the same vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

Holder = Literal["country", "power", "side", "friends", "enemies"]  # friends: the side or its friendly neutrals


class World(Protocol):
    """What objectives read of the board (pbem.engine.world.World provides it)."""

    ruleset: Any
    board: Any
    control: Mapping[str, str]

    def units_at(self, space: str) -> list[Any]: ...
    def utype(self, unit: Any) -> Any: ...
    def relation(self, power: str, of: str | None = None) -> str: ...
    def is_enemy(self, power: str | None, of: str | None = None) -> bool: ...
    def is_friendly(self, power: str | None, of: str | None = None) -> bool: ...


@dataclass(frozen=True)
class NationalObjective:
    """`bonus` IPCs for `country` while every stated condition holds (conditions left empty do not apply).

    - `at_war_with`: the power is at war with at least one of these powers;
      `not_at_war_with`: with none of these;
    - `controls` held by `holder` (the country itself, any country of its power, or its side):
      all of them, or `at_least` of them; with `per_territory`, the bonus is paid for each one held;
    - `not_held`: none of these territories held by `not_held_by`;
    - `no_enemy_ships_in`: no enemy sea unit with one of `ship_tags` in any of these sea zones;
    - `land_unit_in`: at least one land unit of `unit_holder` in one of these territories;
    - `holds_all_originals`: the country controls every territory it originally owned;
    - `no_allied_units_in_own_originals`: no unit of another power of the side stands in a territory
      the country originally owned;
    - `unless`: facts of the game (GameState.pending["facts"], set by the ruleset's hooks) that end it;
      `only_after`: facts it needs (e.g. "capital taken: France", which the engine sets);
    - `once`: paid the first time only (the engine keeps the name in pending["once"]);
    - `also_at_war_with`: and at war with one of these too (AMS Lend-Lease: "Both");
    - `controls_one_of`: and at least one of these held by `holder`;
    - `ships_of`: the powers whose ships `no_enemy_ships_in` counts, at war or not (empty: enemies at war);
    - `any_unit`: `land_unit_in` counts air units too (AMS: "Italy has 1 unit in any of these").
    - `not_controlled_as`: (territory, holder) pairs that end it - a neutral turned to the other
      side (1940: Sweden "Pro-Allies Neutral" ends Germany's iron ore).
    """

    country: str
    name: str
    bonus: int
    rule: str
    at_war_with: tuple[str, ...] = ()
    not_at_war_with: tuple[str, ...] = ()
    controls: tuple[str, ...] = ()
    holder: Holder = "country"
    at_least: int | None = None
    per_territory: bool = False
    not_held: tuple[str, ...] = ()
    not_held_by: Holder = "enemies"
    no_enemy_ships_in: tuple[str, ...] = ()
    ship_tags: frozenset[str] = frozenset({"surface_warship", "submarine", "transport"})
    land_unit_in: tuple[str, ...] = ()
    unit_holder: Holder = "power"
    holds_all_originals: bool = False
    no_allied_units_in_own_originals: bool = False
    unless: tuple[str, ...] = ()
    once: bool = False
    also_at_war_with: tuple[str, ...] = ()
    controls_one_of: tuple[str, ...] = ()
    ships_of: tuple[str, ...] = ()
    any_unit: bool = False
    only_after: tuple[str, ...] = ()
    not_controlled_as: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        return f"objective:{self.country}:{self.name}"


def attacked(territory: str, power: str) -> str:
    """The fact (GameState.pending["facts"]) that `power` attacked `territory` - fought a battle there
    or took it in combat move; the engine records it when an objective's `unless` or `only_after`
    names it (AMS Japan: "has not attacked French Indo-China")."""
    return f"attacked: {territory} by {power}"


def _holds(w: World, holder: Holder, country: str, who: str | None) -> bool:
    if who is None:
        return False
    ruleset = w.ruleset
    if holder == "country":
        return who == country
    if holder == "power":
        return ruleset.power_name(who) == ruleset.power_name(country)
    if holder == "enemies":  # a power of the other side, at war or not (neutrals are no one's enemies here)
        return ruleset.side_of(who) in ruleset.sides and ruleset.side_of(who) != ruleset.side_of(country)
    if holder == "friends" and ruleset.power(who).bystander == f"pro_{ruleset.side_of(country).lower()}":
        return True  # a neutral friendly to the side (1940: "Allied or Pro-Allied controlled")
    return ruleset.side_of(who) == ruleset.side_of(country) and ruleset.power_name(who) in {p.name for p in ruleset.powers}


def earned(w: World, objective: NationalObjective, facts: frozenset[str], used_once: frozenset[str]) -> int:
    """IPCs `objective` pays on the board as it stands (0: not met)."""
    ruleset = w.ruleset
    power = ruleset.power_name(objective.country)
    if objective.once and objective.key in used_once:
        return 0
    if any(f in facts for f in objective.unless) or any(f not in facts for f in objective.only_after):
        return 0
    if objective.at_war_with and not any(w.relation(p, power) == "war" for p in objective.at_war_with):
        return 0
    if any(w.relation(p, power) == "war" for p in objective.not_at_war_with):
        return 0
    if objective.also_at_war_with and not any(w.relation(p, power) == "war" for p in objective.also_at_war_with):
        return 0
    if objective.controls_one_of and not any(_holds(w, objective.holder, objective.country, w.control.get(t)) for t in objective.controls_one_of):
        return 0
    times = 1
    if objective.controls:
        held = sum(1 for t in objective.controls if _holds(w, objective.holder, objective.country, w.control.get(t)))
        if objective.per_territory:
            times = held
        elif held < (len(objective.controls) if objective.at_least is None else objective.at_least):
            return 0
    if any(_holds(w, objective.not_held_by, objective.country, w.control.get(t)) for t in objective.not_held):
        return 0
    if any(w.control.get(t) == holder for t, holder in objective.not_controlled_as):
        return 0
    for zone in objective.no_enemy_ships_in:
        if any((ruleset.power_name(u.owner) in objective.ships_of if objective.ships_of else w.is_enemy(u.owner, power))
               and w.utype(u).domain == "sea" and w.utype(u).tags & objective.ship_tags
               for u in w.units_at(zone)):
            return 0
    if objective.land_unit_in and not any(
        (w.utype(u).domain == "land" or (objective.any_unit and w.utype(u).domain == "air"))
        and _holds(w, objective.unit_holder, objective.country, u.owner)
        for t in objective.land_unit_in for u in w.units_at(t)
    ):
        return 0
    if objective.holds_all_originals and any(
        sp.original_owner == objective.country and sp.is_land and w.control.get(name) != objective.country
        for name, sp in w.board.spaces.items()
    ):
        return 0
    if objective.no_allied_units_in_own_originals:
        for name, sp in w.board.spaces.items():
            if sp.original_owner == objective.country and any(
                ruleset.power_name(u.owner) != power and w.is_friendly(u.owner, power) for u in w.units_at(name)
            ):
                return 0
    return objective.bonus * times
