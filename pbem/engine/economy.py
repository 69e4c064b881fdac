"""A power's income from what it controls, as every command counts it (turn, report, status, site).

Territories count their IPC value for their controller.  Two kinds of space count otherwise, by
the ruleset's `EconomyRules`: a convoy centre (map `convoy: true`) counts for its original owner
only, unless the captor collects it; a tribute space (map `tribute: true`, Europe's Middle East)
never counts as income, and an enemy holding it is paid its value by the original owner's side.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.engine.model import Board
from pbem.engine.rules import EconomyRules


def income(board: Board, economy: EconomyRules, control: Mapping[str, str], power: str) -> int:
    """The IPCs `power` collects from the spaces it controls (its national production)."""
    total = 0
    for name, holder in control.items():
        if holder != power:
            continue
        space = board.spaces[name]
        if space.tribute and economy.tribute_paid_by_enemies:
            continue
        if space.convoy and not economy.convoy_income_to_captor and space.original_owner != power:
            continue
        total += space.ipc
    return total


def tribute_owed(board: Board, economy: EconomyRules, control: Mapping[str, str], power: str,
                 enemies: frozenset[str]) -> dict[str, tuple[int, tuple[str, ...]]]:
    """What the enemies of `power` owe it for the tribute spaces it holds, by original owner (whose
    side pays): owner -> (IPCs, the spaces)."""
    if not economy.tribute_paid_by_enemies:
        return {}
    owed: dict[str, tuple[int, tuple[str, ...]]] = {}
    for name in sorted(control):
        space = board.spaces[name]
        if control[name] == power and space.tribute and space.original_owner in enemies:
            ipc, spaces = owed.get(space.original_owner, (0, ()))
            owed[space.original_owner] = (ipc + space.ipc, (*spaces, name))
    return owed
