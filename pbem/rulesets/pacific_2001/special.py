"""The rules of Pacific (2001) that are code rather than a choice: each cites its phase or section
of shared/rules/pacific_2001.txt."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.engine.model import Space, UnitType
from pbem.engine.rules import FreeUnits

ALLIES = ("Great Britain", "United States")
# Phase 1, China: "The Burma Road is open if none of the following territories are under Japanese
# control: India, Burma, Yunnan and Szechwan."
BURMA_ROAD = ("India", "Burma", "Yunnan", "Szechwan")
# Phase 5, Capturing Territories: "Manchuria, Shantung and Korea: If the Allies capture any of these
# territories, the territory is now controlled by China"; "Siam and French Indo-China: ... If Britain
# captures the territory, the British player always places an India NCM."
TO_CHINA = ("Manchuria", "Shantung", "Korea")
TO_INDIA = ("Siam", "French Indo-China")


@dataclass(frozen=True)
class BattleModifiers:
    profiles: dict[str, dict[str, UnitType]] = field(default_factory=dict)  # owner -> unit -> profile
    aa_hit: int | None = None
    aa_immune: frozenset[str] = frozenset()


def china_infantry(options: Mapping[str, object], event: str, **facts: Any) -> list[FreeUnits]:
    """Phase 1, China: "China receives one infantry unit for each territory (with an IPC value)
    controlled by China at the start of its turn", plus one "if the Burma Road is open"; they "must
    always be placed in Szechwan", and none while Japan holds it.  Placed in Phase 7 with the United
    States' new units (the U.S. player's turn is China's).  Counted at the start of the turn, placed
    if Szechwan is Chinese when they are placed ("China may not place any new infantry units until
    Szechwan has been retaken")."""
    if event != "mobilize" or facts["power"] != "United States":
        return []
    start: Mapping[str, str] = facts["control_at_start"]
    board = facts["board"]
    if facts["control"].get("Szechwan") != "China":
        return []
    count = sum(1 for t, c in start.items() if c == "China" and board.spaces[t].ipc > 0)
    if all(start.get(t) != "Japan" for t in BURMA_ROAD):
        count += 1
    return [FreeUnits("United States", "Chinese infantry", count, ("Szechwan",), "China's infantry (and the Burma Road)")] if count else []


def japanese_destroyer_cargo(options: Mapping[str, object], power: str, unit: UnitType) -> tuple[int, frozenset[str]] | None:
    """Destroyers: "A Japanese destroyer may carry one infantry unit", loading and unloading by the
    transport rules (Amphibious Assaults: "by transport or by Japanese destroyer")."""
    if power == "Japan" and unit.has("destroyer"):
        return 1, frozenset({"infantry"})
    return None


def air_base_steps(options: Mapping[str, object], power: str, board: Any, control: Mapping[str, str]) -> frozenset[tuple[str, str]]:
    """Phase 3, Air Bases: "Aircraft flying to or from a territory with a friendly air base do not
    have to use up one movement to go between the territory and the sea zone in which the base is
    situated, or is adjacent to."  Enemy aircraft get no such bonus."""
    side_of = _SIDES.get
    mine = side_of(power)
    steps: set[tuple[str, str]] = set()
    for name, space in board.spaces.items():
        holder = control.get(name)
        if space.air_base and holder is not None and side_of(_POWER_OF.get(holder, holder)) == mine:
            for zone in board.neighbours(name):
                if board.spaces[zone].is_sea:
                    steps |= {(name, zone), (zone, name)}
    return frozenset(steps)


# The countries of the board and their powers' sides (ruleset.yaml), for the hook that sees control only.
_POWER_OF = {"Japan": "Japan", "India": "Great Britain", "Australia": "Great Britain", "USA": "United States", "China": "United States"}
_SIDES = {"Japan": "Axis", "Great Britain": "Allies", "United States": "Allies"}


def _base_zone(board: Any, control: Mapping[str, str], zone: str, power: str) -> bool:
    """A sea zone "containing a friendly naval base": one beside a territory with a printed base
    that the power's side holds now ("Either, or both, of these naval bases may have been captured
    on this turn")."""
    side = _SIDES.get(power)
    return board.spaces[zone].is_sea and any(
        board.spaces[t].naval_base and control.get(t) is not None and _SIDES.get(_POWER_OF.get(control[t], control[t])) == side
        for t in board.neighbours(zone))


def naval_base_move(options: Mapping[str, object], power: str, unit: UnitType, *, phase: str, frm: str, to: str,
                    moved: int, board: Any, control: Mapping[str, str], **_: Any) -> tuple[int, frozenset[str] | None]:
    """Phase 6, Naval Bases: "naval units moving from a sea zone containing a friendly naval base to
    another sea zone containing a friendly naval base may move three spaces instead of two" - in
    non-combat movement, a move that starts the unit's movement in one such zone and ends in another."""
    if (phase == "noncombat" and unit.domain == "sea" and not moved
            and _base_zone(board, control, frm, power) and _base_zone(board, control, to, power)):
        return 1, None
    return 0, None


def capture_country(options: Mapping[str, object], power: str, space: Space, world: Any, *,
                    chosen: str | None = None) -> str | None:
    """Phase 5: Manchuria, Shantung and Korea taken by the Allies become China's; Siam and French
    Indo-China taken by Britain take an India marker (Great Britain's first country already); "If a
    mixed force of American and Chinese ground units captures the territory, choose either country
    to place a NCM there" - the orders' `markers:` choice, else the USA's.  A territory taken by
    Chinese infantry alone becomes China's, one taken by U.S. units alone the USA's."""
    if power == "United States" and space.name in TO_CHINA:
        return "China"
    if power == "United States":
        land = [u for u in world.units_at(space.name) if u.owner == "United States" and world.utype(u).domain == "land"]
        chinese = [u for u in land if u.type == "Chinese infantry"]
        if land and len(chinese) == len(land):
            return "China"
        if chosen and space.name in TO_INDIA and chinese:  # a mixed force chooses
            return chosen
        return "USA"
    return None


def first_turn_and_marines(options: Mapping[str, object], units: Mapping[str, UnitType], *, kind: str, attacker: str,
                           defenders: frozenset[str], controller: str | None, round: int = 0, seaborne: bool = False,
                           **_: Any) -> BattleModifiers:
    """Phase 4, Japan's first turn: "During Japan's first turn only, Japan attacks in a normal fashion,
    but Allied units may defend only with a roll of 1. Exception: Any attacks made in Chinese
    territory are defended by rolling at full strength" (option first_turn_surprise).

    U.S. Marines: "A Marine unit attacking in an Amphibious Assault scores a hit on a roll of 2 or
    less", and one moving overland into that battle too "as long as at least one friendly unit
    attacks from a sea zone"; artillery raises one more to 3 (the engine's artillery support)."""
    profiles: dict[str, dict[str, UnitType]] = {}
    if options.get("first_turn_surprise", True) and attacker == "Japan" and round == 1 and controller != "China":
        for owner in defenders:
            if owner in ALLIES:
                profiles[owner] = {n: dataclasses.replace(u, defense=min(u.defense, 1)) for n, u in units.items() if u.defense > 1}
    if kind == "land" and seaborne and attacker == "United States":
        profiles.setdefault("United States", {})["marine"] = dataclasses.replace(units["marine"], attack=2)
    return BattleModifiers(profiles)
