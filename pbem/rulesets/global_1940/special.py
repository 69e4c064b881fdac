"""1940 Global's rules that are code: what air and naval bases add to movement, and China's rules.

Facilities are units here (they are bought, captured and bombed), so a base is found by looking
for a unit with the `air_base` or `naval_base` tag on the board, not by a mark of the map as in
Pacific 2001.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.model import UnitType
from pbem.engine.rules import FreeUnits, PurchaseLimits


def _friendly_base(world: Any, territory: str, tag: str) -> bool:
    """An operative base with `tag` in `territory` that the mover's side held when the turn began
    ("Operative air strips give all air units taking off ... one extra movement point"; a base with 3
    damage is inoperable, E28)."""
    holder = world.control_at_start.get(territory)
    if holder is None or not world.shares_with(holder):  # P14: none of another power's bases at peace
        return False
    return world.facility_operative(territory, tag)


def base_move(options: Mapping[str, object], power: str, unit: UnitType, *, start: str, world: Any,
              **_: Any) -> tuple[int, frozenset[str] | None]:
    """Naval Base: "+1 move for naval units that start in an adjacent sea zone"; Air Base: "+1 move
    for air units taking off there" (the box's bases, restated by the AMS guide's facility table as
    its Naval Base and Air Strip; DIGEST §1.2, §3.3 item 3).  A base counts when the mover's side held
    its territory at the start of the turn and it is operative."""
    if unit.domain == "sea" and world.space(start).is_sea:
        if any(world.space(t).is_land and _friendly_base(world, t, "naval_base") for t in world.board.neighbours(start)):
            return 1, None
    if unit.domain == "air" and world.space(start).is_land and _friendly_base(world, start, "air_base"):
        return 1, None
    return 0, None


# China (P10, restated by the AMS guide; DIGEST §1.2 "OOB China rules"): the territories its units
# stay in - TripleA's movementRestrictionTerritories for the Chinese, "Chinese-emblem territories,
# plus Kwangtung and Burma".
CHINA_AREA = frozenset({
    "Anhwe", "Burma", "Chahar", "Hopei", "Hunan", "Jehol", "Kansu", "Kiangsi", "Kiangsu", "Kwangsi", "Kwangtung",
    "Kweichow", "Manchuria", "Shantung", "Shensi", "Sikang", "Suiyuyan", "Szechwan", "Tsinghai", "Yunnan",
})
# The Chinese-emblem territories alone, where China "may build units and land its fighter" (P10):
# Kwangtung and Burma are in its area only to move into.
CHINESE_TERRITORIES = CHINA_AREA - {"Burma", "Kwangtung"}
# "The Burma Road is Szechwan, Yunnan, Burma and India" (P38).
BURMA_ROAD = ("India", "Burma", "Yunnan", "Szechwan")
AXIS = frozenset({"Germany", "Italy", "Japan"})


def china_area(options: Mapping[str, object], power: str) -> frozenset[str] | None:
    """China: "Chinese units stay in Chinese-emblem territories, plus Kwangtung and Burma, and cannot
    be transported" (P10) - no sea zone is in the area, so none boards a transport."""
    return CHINA_AREA if power == "China" else None


def burma_road_open(control: Mapping[str, str]) -> bool:
    """No part of the Burma Road in Axis hands (TripleA conditionAttachmentJapaneseDoNotControlBurmaRoad)."""
    return not any(control.get(t) in AXIS for t in BURMA_ROAD)


def china_purchases(options: Mapping[str, object], country: str, *, control: Mapping[str, str]) -> Mapping[str, int] | None:
    """China "builds only infantry, plus 1 artillery per turn while the Burma Road is open" (P10)."""
    if country != "China":
        return None
    if burma_road_open(control):
        return PurchaseLimits({"infantry": 10**6, "artillery": 1}, "China buys infantry, and one artillery a turn while the Burma Road is open (P10)")
    held = [t for t in BURMA_ROAD if control.get(t) in AXIS]
    return PurchaseLimits({"infantry": 10**6, "artillery": 0},
                          f"China buys artillery only while the Burma Road is open (P10), and the Axis hold {', '.join(held)}")


def china_placement(options: Mapping[str, object], country: str, *, control: Mapping[str, str],
                    control_at_start: Mapping[str, str]) -> frozenset[str]:
    """China "may build and land its fighter in any unoccupied Chinese territory, even one taken this
    turn" (P10): it places in any Chinese-emblem territory it holds (not Kwangtung or Burma, which
    it may only move into), with no complex and no limit (TripleA placementAnyTerritory,
    placementCapturedTerritory, placementPerTerritory 9999999)."""
    if country != "China":
        return frozenset()
    return frozenset(t for t in CHINESE_TERRITORIES if control.get(t) == "China")


def france_liberated(options: Mapping[str, object], event: str, **facts: Any) -> list[FreeUnits]:
    """France's liberation: no seed states the box's rule (the AMS guide's objective "Place 12 IPCs
    worth of units in France" is its own table); TripleA's triggerAttachment_French_1_Liberation_By_*
    place "France:infantry:infantry:infantry:infantry" - four infantry, 12 IPCs - once, the first time
    France is French again after its fall."""
    if event == "captured" and facts.get("space") == "France" and facts.get("by") == "France":
        return [FreeUnits(owner="France", unit="infantry", count=4, spaces=("France",),
                          reason="France is liberated (TripleA's French liberation trigger)", once="france_liberated")]
    return []


# TripleA triggerAttachment_Americans_War_Production_Eastern, _Central and _Western: "after
# americansPolitics", once the United States is at war with at least one Axis power, the minor complex
# of each mainland territory it holds becomes a major one, free and usable at once, a single time.
US_MAINLAND = ("Central United States", "Eastern United States", "Western United States")


def us_war_production(event: str, **facts: Any) -> list[FreeUnits]:
    """The United States' mainland complexes grow once it is at war: at the start of its turn (a war an
    Axis power declared) or at its mobilize phase (its own declaration this turn), before it places."""
    w = facts.get("world")
    if event not in ("start_of_turn", "mobilize") or facts.get("power") != "United States" or w is None:
        return []
    if not any(w.relation("United States", e) == "war" for e in AXIS):
        return []
    return [FreeUnits(owner="United States", unit="major industrial complex upgrade", count=1, spaces=(where,),
                      reason=f"The United States is at war (TripleA's war production trigger, {where})",
                      once=f"us_war_production:{where}")
            for where in US_MAINLAND
            if w.control.get(where) == "United States"
            and any(u.type == "minor industrial complex" and u.owner == "United States" for u in w.units_at(where))]


def free_units(options: Mapping[str, object], event: str, **facts: Any) -> list[FreeUnits]:
    """What the box's game gives for nothing: France's liberation, the United States' war production."""
    return france_liberated(options, event, **facts) + us_war_production(event, **facts)

