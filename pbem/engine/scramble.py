"""Scramble (Rules.scramble): defending air units that rise from an air base into a sea zone.

The defender decides it in the middle of the attacker's turn ("after the attacker's combat move"),
so it is written in advance as standing orders (`scramble:`), and adjudication stays one pass.
Scrambled units stand in the zone as defenders (mission "scrambled"), so the zone's battle - or a
new one, where an amphibious assault sails from a zone with no enemy ship - includes them; once
every battle is fought they fly home.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol

from pbem.engine.orders import StandingOrders
from pbem.engine.words import units_text
from pbem.engine.world import Unit, World

RULE = "Scramble"
MISSION = "scrambled"


class Turn(Protocol):
    """What scrambling needs of the turn (`pbem.engine.turn.Turn` provides it)."""

    w: World
    standing: Mapping[str, StandingOrders]
    log: Any


def _threatened_zones(w: World) -> set[str]:
    """Sea zones the mover attacks this turn, by sea or by air alone: where its combat-moved units stand
    with enemy units ("help defend other units being attacked in the sea zone"), and the zones its
    amphibious assaults sail from ("or can defend against an amphibious assault").  A zone its ships
    only escaped into is attacked by nobody, so nothing rises into it."""
    zones: set[str] = set()
    for u in w.units.values():
        if not w.commands(u) or u.phase != "combat":
            continue
        if w.is_sea(u.space) and w.utype(u).domain in ("sea", "air") and w.enemy_units_at(u.space):
            zones.add(u.space)
        if u.seaborne_from:
            zones.add(u.seaborne_from)
    return zones


def _base_ready(w: World, territory: str, tag: str) -> bool:
    """An operative air base its holder held at the start of the turn (a base taken this turn sends
    nothing; a damaged one as World.facility_operative says)."""
    holder = w.control_at_start.get(territory)
    return holder is not None and w.control.get(territory) == holder and w.facility_operative(territory, tag, holder)


def scramble(turn: Turn) -> None:
    """Move the scrambling air units into the zones their owners' standing orders name."""
    w = turn.w
    rule = w.rules.scramble
    if rule is None:
        return
    zones = _threatened_zones(w)
    if not zones:
        return
    sent: dict[str, int] = {}  # base -> air units risen from it: its limit is the base's, whoever owns them
    for power in sorted(p.name for p in w.ruleset.powers):
        so = turn.standing.get(power)
        if so is None or not so.scramble or not w.is_enemy(power):
            continue
        # a power whose units never leave an area rises into no zone outside it (1940: "China may not
        # scramble its fighter from an air base, because that would involve the fighter leaving Chinese
        # territory")
        area = w.rules.hooks.confined_to(w.options, power) if w.rules.hooks.confined_to is not None else None
        for order in so.scramble:
            base = order.base
            if not _base_ready(w, base, rule.base_tag) or not w.is_friendly(w.control.get(base), power):
                continue
            by_order = 0  # an order's count is its own; the base's three are shared by every order from it
            # the zones in the order written (the first named is filled first), else by name
            for zone in ([z for z in order.zones if z in zones] if order.zones else sorted(zones)):
                if not w.board.are_adjacent(base, zone):
                    continue
                if area is not None and zone not in area:
                    continue
                room = min(order.count - by_order, rule.per_base - sent.get(base, 0))
                ready = sorted((u for u in w.units_at(base) if u.owner == power and w.utype(u).lands_on_carriers
                                and u.mission is None), key=lambda u: u.id)[:max(0, room)]
                if not ready:
                    continue
                for u in ready:
                    u.space, u.mission, u.scrambled_from = zone, MISSION, base
                sent[base] = sent.get(base, 0) + len(ready)
                by_order += len(ready)
                counts: dict[str, int] = {}
                for u in ready:
                    counts[u.type] = counts.get(u.type, 0) + 1
                turn.log.notes.append(f"{power} scrambles {units_text(counts)} from {base} into {zone}")


def fly_home(turn: Turn, land_one_space_away: Callable[[Unit, str], None]) -> None:
    """After the battles, scrambled survivors return to their base; where it fell they move one space
    to land (`land_one_space_away`) or are lost."""
    w = turn.w
    for u in sorted((u for u in w.units.values() if u.mission == MISSION), key=lambda u: u.id):
        base = u.scrambled_from or u.space
        u.mission, u.scrambled_from = None, None
        if w.is_friendly_territory(base, of=u.owner):
            u.space, u.carrier = base, None
        else:
            land_one_space_away(u, base)
