"""The rules of Europe (1999) that are code rather than a choice: each cites its section."""

from __future__ import annotations

from collections.abc import Mapping

from pbem.engine.model import Space, UnitType

ALLIES = ("Soviet Union", "Great Britain", "United States")


def may_convert(options: Mapping[str, object], power: str, owner: str, unit: UnitType, *, original_owner: str | None,
                controller: str | None) -> bool:
    """The Soviet Patriotic War: "On his Non-Combat Movement sequence, the Soviet player checks for any
    units belonging to the U.S. or British that are currently in Soviet territories (colored red or
    light purple). If the Soviet player so chooses, he may take these units out of play and replace
    them with the Soviet equivalent."  Soviet territories: originally Soviet (the board's red and
    light purple); held by the Soviet Union now.  Complexes are no units of a power."""
    return (power == "Soviet Union" and owner in ("Great Britain", "United States") and original_owner == "Soviet Union"
            and controller == "Soviet Union" and unit.domain != "structure")


def conversion_rule(options: Mapping[str, object], power: str) -> tuple[str, str]:
    """The name and reach of the Patriotic War, for refusals of `convert:`."""
    return ("The Soviet Patriotic War",
            "it takes over British and American units in Soviet territories (red or light purple) the Soviet Union holds")


def conversion_phase(options: Mapping[str, object], power: str) -> str:
    """The Patriotic War is done in the Soviet non-combat movement, after the Soviet moves: "the Soviet
    player now controls these units, they may not be moved until the Soviet player's next turn"."""
    return "noncombat"


def unit_cost(options: Mapping[str, object], power: str, unit: UnitType) -> int:
    """Combat Units, Bombers: "Cost: 25 IPCs" against 15 on every reference chart (option bomber_cost)."""
    if unit.has("bomber"):
        return int(options.get("bomber_cost", 15))  # type: ignore[call-overload]
    return unit.cost


def cash_advance(options: Mapping[str, object]) -> dict[str, int]:
    """Special Cash Advance: "The Axis player (Germany) receives 12 IPCs ... The Allied players (as a
    group) receive 12 IPCs"; "The Allies may divide the money or give it all to one country" (option
    allied_cash_advance: even, 4 each, or all to one power).  Option cash_advance false: none."""
    if options.get("cash_advance", True) is False:
        return {}
    split = str(options.get("allied_cash_advance", "even"))
    allies = {p: (4 if split == "even" else 12 if p == split else 0) for p in ALLIES}
    return {"Germany": 12, **allies}


def shared_unit(options: Mapping[str, object], power: str, owner: str, unit: UnitType, *, space: Space,
                controller: str | None) -> bool:
    """Combat Units, Antiaircraft Gun: "An AA gun in any Middle East territory that's controlled by the
    Allies may be moved by any of the Allies. However, it can only be moved once per round."  The
    Middle East countries are the map's tribute spaces; once a round is the engine's to keep."""
    return unit.has("aa") and space.tribute and power in ALLIES and owner in ALLIES and controller in ALLIES


def starting_treasury(options: Mapping[str, object], power: str, printed: int) -> int:
    """Starting Income: the table says Soviet Union 24, the Soviet reference chart's header 25
    (DIGEST §5 EUR.2; option soviet_starting_income, default 24 as the table and the board's sum)."""
    if power == "Soviet Union":
        return int(options.get("soviet_starting_income", printed))  # type: ignore[call-overload]
    return printed


def placement_limit(options: Mapping[str, object], power: str, space: Space) -> int | None:
    """Canada: "Great Britain has the option of placing some or all of its purchased air and land units
    in Canada" - no limit stated (the default, as in any home territory); option canada_placement
    income: no more than Canada's income value (DIGEST §5 EUR.6)."""
    if space.name == "Canada" and options.get("canada_placement") == "income":
        return space.ipc
    return None


def advance_placement_with_allies(options: Mapping[str, object]) -> bool:
    """Special Cash Advance: units go "in territories or sea zones in which they already have at least
    one unit" - "they" the buying power (the default) or, option cash_advance_placement side, the
    Allies as the group that received the money (DIGEST §5 EUR.10)."""
    return options.get("cash_advance_placement") == "side"
