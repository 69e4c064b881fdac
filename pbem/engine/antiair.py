"""Antiaircraft fire at aircraft flying over (Axis & Allies Revised) as pure functions.

Revised, Phase 3 Combat Move, Air Units: "Whenever an air unit moves into a hostile territory
containing an antiaircraft gun, the gun gets a chance to shoot it down. ... resolve combat
separately in each space along its path, starting with the first. Every time an antiaircraft gun
in a territory is overflown by air units, it shoots once at each air unit that enters. (Only one
antiaircraft gun per territory can fire, however.) If the gun misses, the air unit may continue its
move. Resolve all combats involving a given air unit or group of air units before moving onto the
next."  Retreating air units (Step 7) and air units returning after combat (Step 8) are fired on
the same way, so each of those flights is its own `Flight` (DIGEST §1.3, §5 REV.5).

Readings: within one flight a territory fires once at each aircraft, however often the path enters
it; the fire is targeted (FAQ: each die is rolled at one aircraft, so a hit destroys that one); a
territory where the flight's battle is fought is skipped (`battles`): the battle's own opening fire
is that gun's shot.  Flights are resolved in the order given (flight path order), and an aircraft
shot down flies no further.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol


class DiceSource(Protocol):
    def roll(self, label: str, count: int) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Flight:
    """A group of air units of one owner flying one path (the spaces entered, in order, after
    take-off).  `leg` names the flight for the dice labels and the report: combat, retreat, return."""

    group: str
    owner: str
    units: Mapping[str, int]  # unit name -> count
    path: tuple[str, ...]
    leg: str = "combat"


@dataclass(frozen=True)
class AaFired:
    """One gun's fire at one flight in one territory: dice per aircraft type, in unit-name order."""

    group: str
    leg: str
    step: int  # 1-based position of the territory on the path (the numbered punchout marker)
    territory: str
    hit_on: int
    label: str
    dice: tuple[tuple[str, tuple[int, ...]], ...]  # (unit, faces)
    lost: Mapping[str, int]  # unit -> aircraft shot down here


@dataclass(frozen=True)
class AntiAirResult:
    events: tuple[AaFired, ...]
    lost: Mapping[str, Mapping[str, int]]  # group -> unit -> shot down on its flight
    survivors: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # group -> unit -> left


def aa_label(flight: Flight, step: int, territory: str) -> str:
    return f"aa/{flight.leg}/{flight.group}/{step}-{territory}"


def antiair_fire(
    flights: tuple[Flight, ...],
    hostile_aa: Mapping[str, int],
    dice: DiceSource,
    *,
    battles: Mapping[str, frozenset[str]] | None = None,
    immune: frozenset[str] = frozenset(),
) -> AntiAirResult:
    """Fire every hostile antiaircraft gun on the flights' paths.

    `hostile_aa`: territory -> the hit number of the gun there (1; 2 with the U.K.'s Radar), listing
    only territories holding an antiaircraft gun of an enemy of the flights' owner (the caller knows
    who is at war and whether the territory is hostile).  `battles`: group -> territories whose AA is
    fired in that group's battle.  `immune`: unit names no gun may fire at (Superfortresses).
    """
    events: list[AaFired] = []
    lost: dict[str, dict[str, int]] = {}
    survivors: dict[str, dict[str, int]] = {}
    for flight in flights:
        alive = {u: n for u, n in flight.units.items() if n > 0}
        skip = (battles or {}).get(flight.group, frozenset())
        seen: set[str] = set()
        for step, territory in enumerate(flight.path, start=1):
            if territory in seen or territory in skip or territory not in hostile_aa:
                continue
            seen.add(territory)
            targets = sorted((u, n) for u, n in alive.items() if n and u not in immune)
            if not targets:
                continue
            hit_on = hostile_aa[territory]
            label = aa_label(flight, step, territory)
            faces = tuple(dice.roll(label, sum(n for _, n in targets)))
            at = 0
            rolled: list[tuple[str, tuple[int, ...]]] = []
            down: dict[str, int] = {}
            for unit, n in targets:
                mine = faces[at : at + n]
                at += n
                rolled.append((unit, mine))
                hits = sum(1 for f in mine if f <= hit_on)
                if hits:
                    down[unit] = hits
                    alive[unit] -= hits
                    lost.setdefault(flight.group, {})
                    lost[flight.group][unit] = lost[flight.group].get(unit, 0) + hits
            events.append(AaFired(flight.group, flight.leg, step, territory, hit_on, label, tuple(rolled), down))
            if not any(alive.values()):
                break
        survivors[flight.group] = {u: n for u, n in alive.items() if n}
    return AntiAirResult(tuple(events), lost, survivors)
