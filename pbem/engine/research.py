"""Weapons development (Axis & Allies Revised, Phase 1: Develop Weapons) as pure functions.

A power chooses one development, buys research dice at 5 IPCs each and rolls them all at once; if
any die shows the development's number, the power has it "From now on (including this turn)".  The
developments then change the power's units: `unit_profiles` and `attack_dice` give what a battle
needs (`Battle.profiles`, `Battle.attack_dice`), `raid_damage_dice` what a bombing raid needs.

Dice in, results out: `develop_weapons` takes the faces already rolled; `roll_research` asks a
dice source for them under the label `research/<power>/round-<n>`.  Nothing here reads a clock,
a file or global randomness.  Units are recognised by their tags, never by their names.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from pbem.engine.model import UnitType
from pbem.engine.problems import Problem

RULE = "Phase 1: Develop Weapons"
DIE_COST = 5  # "Each research die you buy costs 5 IPCs."

# Weapons Developments chart: the number a research die must show -> the development.
DEVELOPMENTS: Mapping[str, int] = {
    "jet_fighters": 1,
    "rockets": 2,
    "super_submarines": 3,
    "long_range_aircraft": 4,
    "combined_bombardment": 5,
    "heavy_bombers": 6,
}
NAMES: Mapping[str, str] = {
    "jet_fighters": "Jet Fighters",
    "rockets": "Rockets",
    "super_submarines": "Super Submarines",
    "long_range_aircraft": "Long-Range Aircraft",
    "combined_bombardment": "Combined Bombardment",
    "heavy_bombers": "Heavy Bombers",
}


class DiceSource(Protocol):
    def roll(self, label: str, count: int) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class DevelopWeapons:
    """What one power's Develop Weapons phase did; the turn engine applies it.

    `cost` leaves the treasury whatever the dice show ("The money you pay is just a research fee");
    `developments` is the power's full set afterwards (unchanged on a failure).
    """

    power: str
    development: str
    dice: int
    cost: int
    rolled: tuple[int, ...]
    success: bool
    developments: frozenset[str]


def research_problems(
    development: str, dice: int, treasury: int, known: frozenset[str], *, enabled: bool = True
) -> list[Problem]:
    """Why an order to research `development` with `dice` dice is not allowed (empty: allowed)."""
    out: list[Problem] = []
    if not enabled:
        out.append(Problem("illegal", "weapons development is switched off in this game", rule=RULE,
                           hint="remove develop:", code="research.disabled"))
        return out
    if development not in DEVELOPMENTS:
        out.append(Problem("invalid", f"no weapons development {development!r}", rule=RULE,
                           hint="one of: " + ", ".join(NAMES[d] for d in DEVELOPMENTS), code="research.unknown"))
        return out
    if development in known:
        out.append(Problem("illegal", f"{NAMES[development]} is already developed", rule=RULE,
                           hint="research another development", code="research.known"))
    if dice < 1:
        out.append(Problem("invalid", "buy at least one research die", rule=f"{RULE}, Step 2: Buy Research Dice",
                           hint="dice: 1 or more, or remove develop:", code="research.no-dice"))
    elif dice * DIE_COST > treasury:
        out.append(Problem("illegal", f"{dice} research dice cost {dice * DIE_COST} IPCs; the treasury holds {treasury}",
                           rule=f"{RULE}, Step 2: each die costs {DIE_COST} IPCs",
                           hint=f"at most {treasury // DIE_COST} dice", code="research.cost"))
    return out


def develop_weapons(power: str, development: str, rolled: tuple[int, ...], known: frozenset[str]) -> DevelopWeapons:
    """Step 3, Roll Research Dice: "If you rolled the required number for the chosen development on
    any die, you've made the technological breakthrough."  Orders are checked beforehand
    (`research_problems`); one development per turn is the caller's single call."""
    if development not in DEVELOPMENTS:
        raise ValueError(f"no weapons development {development!r}")
    if not rolled or any(not 1 <= f <= 6 for f in rolled):
        raise ValueError(f"research dice must be d6 faces, got {rolled!r}")
    success = DEVELOPMENTS[development] in rolled
    after = known | {development} if success else known
    return DevelopWeapons(power, development, len(rolled), len(rolled) * DIE_COST, tuple(rolled), success, frozenset(after))


def research_label(power: str, round_number: int) -> str:
    return f"research/{power}/round-{round_number}"


def roll_research(
    power: str, development: str, dice_count: int, known: frozenset[str], dice: DiceSource, round_number: int
) -> DevelopWeapons:
    """Roll `dice_count` research dice from `dice` and apply Step 3."""
    return develop_weapons(power, development, tuple(dice.roll(research_label(power, round_number), dice_count)), known)


def unit_profiles(units: Mapping[str, UnitType], developments: frozenset[str]) -> dict[str, UnitType]:
    """The changed profiles of a power with these developments (unit name -> profile), for
    `Battle.profiles[power]` and movement ranges.  Unchanged units are left out.

    Jet Fighters: fighters defend on 5.  Super Submarines: submarines attack on 3.  Long-Range
    Aircraft: fighters move 6, bombers 8.  Combined Bombardment: destroyers bombard "(Their attack
    is 3.)" - at their attack value.
    """
    out: dict[str, UnitType] = {}
    for name, u in units.items():
        changes: dict[str, int] = {}
        if u.has("fighter"):
            if "jet_fighters" in developments:
                changes["defense"] = 5
            if "long_range_aircraft" in developments:
                changes["move"] = 6
        if u.has("bomber") and "long_range_aircraft" in developments:
            changes["move"] = 8
        if u.has("submarine") and "super_submarines" in developments:
            changes["attack"] = 3
        if u.has("destroyer") and "combined_bombardment" in developments:
            changes["bombard"] = u.attack
        if changes:
            if "bombard" in changes and not u.has("bombard"):
                out[name] = dataclasses.replace(u, tags=u.tags | {"bombard"}, **changes)
            else:
                out[name] = dataclasses.replace(u, **changes)
    return out


def attack_dice(units: Mapping[str, UnitType], developments: frozenset[str]) -> dict[str, int]:
    """Heavy Bombers: "They roll two dice each in an attack ... but still only a single die on
    defense" (unit name -> dice per attacking unit, for `Battle.attack_dice[power]`)."""
    if "heavy_bombers" not in developments:
        return {}
    return {name: 2 for name, u in units.items() if u.has("bomber")}


def raid_damage_dice(developments: frozenset[str]) -> int | None:
    """Heavy Bombers: "inflict two dice of IPC loss in a strategic bombing raid" (None: the rules')."""
    return 2 if "heavy_bombers" in developments else None


def has_rockets(developments: frozenset[str]) -> bool:
    """Rockets: the power's antiaircraft guns may make rocket strikes (`combat.rocket_strike`)."""
    return "rockets" in developments
