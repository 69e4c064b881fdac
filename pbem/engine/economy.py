"""A power's income from what it controls, as every command counts it (turn, report, status, site).

Territories count their IPC value for their controller.  Two kinds of space count otherwise, by
the ruleset's `EconomyRules`: a convoy centre (map `convoy: true`) counts for its original owner or
an ally holding it, an enemy only where the captor collects it; a tribute space (map `tribute: true`, Europe's Middle East)
never counts as income, and an enemy holding it is paid its value by the original owner's side.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.engine.model import Board
from pbem.engine.rules import EconomyRules
from pbem.engine.ruleset import Ruleset


def income(ruleset: Ruleset, economy: EconomyRules, control: Mapping[str, str], country: str) -> int:
    """The IPCs `country` collects from the spaces it controls (its national production).  Control is
    kept by country: a power of one economy is its own country.

    A territory with a convoy route (map `convoy_route`, Pacific) counts only while no enemy of its
    controller holds the route: "If a convoy route is captured and the enemy controls the
    associated territory then the enemy's National Production level is decreased"."""
    if country in economy.countries_without_income:
        return 0
    board = ruleset.board
    routes = convoy_routes(board)
    side = ruleset.side_of(country)
    total = 0
    for name, holder in control.items():
        if holder != country:
            continue
        space = board.spaces[name]
        if space.tribute and economy.tribute_paid_by_enemies:
            continue
        if space.convoy and not _collects_convoy(ruleset, economy, space.original_owner, country):
            continue
        if any(control.get(zone) is not None and ruleset.side_of(control[zone]) != side for zone in routes.get(name, ())):
            continue
        total += space.ipc
    return total


def convoy_centre_income(ruleset: Ruleset, economy: EconomyRules, control: Mapping[str, str], country: str) -> int:
    """The part of `country`'s income that its convoy centres bring (map `convoy: true`)."""
    if country in economy.countries_without_income:
        return 0
    return sum(ruleset.board.spaces[n].ipc for n, holder in control.items() if holder == country and ruleset.board.spaces[n].convoy
               and _collects_convoy(ruleset, economy, ruleset.board.spaces[n].original_owner, country))


def _collects_convoy(ruleset: Ruleset, economy: EconomyRules, original_owner: str | None, country: str) -> bool:
    """Does `country`, holding a convoy centre first held by `original_owner`, collect its value?
    Its own, or an ally's it took while the ally's capital was in enemy hands (Europe, Liberating a
    Former Allied Territory, Exception: "the National Production Chart is adjusted for the player
    who actually captured the territory"); an enemy's only where the captor collects
    (EconomyRules.convoy_income_to_captor)."""
    if economy.convoy_income_to_captor or original_owner == country:
        return True
    return original_owner is not None and ruleset.side_of(original_owner) == ruleset.side_of(country)


def convoy_routes(board: Board) -> dict[str, tuple[str, ...]]:
    """Territory -> the sea zones holding its convoy routes."""
    routes: dict[str, tuple[str, ...]] = {}
    for name in sorted(board.spaces):
        served = board.spaces[name].convoy_route
        if served:
            routes[served] = (*routes.get(served, ()), name)
    return routes


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
