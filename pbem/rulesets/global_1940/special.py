"""1940 Global's rules that are code: what air and naval bases add to movement.

Facilities are units here (they are bought, captured and bombed), so a base is found by looking
for a unit with the `air_base` or `naval_base` tag on the board, not by a mark of the map as in
Pacific 2001.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.model import UnitType


def _friendly_base(world: Any, territory: str, tag: str) -> bool:
    """A base with `tag` in `territory` that the mover's side held when the turn began."""
    holder = world.control_at_start.get(territory)
    if holder is None or not world.is_friendly(holder):
        return False
    return any(world.utype(u).has(tag) and world.is_friendly(u.owner) for u in world.units_at(territory))


def base_move(options: Mapping[str, object], power: str, unit: UnitType, *, start: str, world: Any,
              **_: Any) -> tuple[int, frozenset[str] | None]:
    """Naval Base: "+1 move for naval units that start in an adjacent sea zone"; Air Base: "+1 move
    for air units taking off there" (the box's bases, restated by the AMS guide's facility table as
    its Naval Base and Air Strip; DIGEST §1.2, §3.3 item 3).  A base counts when the mover's side held
    its territory at the start of the turn; bases take no damage of their own yet (README.md)."""
    if unit.domain == "sea" and world.space(start).is_sea:
        if any(world.space(t).is_land and _friendly_base(world, t, "naval_base") for t in world.board.neighbours(start)):
            return 1, None
    if unit.domain == "air" and world.space(start).is_land and _friendly_base(world, start, "air_base"):
        return 1, None
    return 0, None
