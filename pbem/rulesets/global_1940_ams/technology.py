"""The AMS guide's two R&D Breakthrough Charts (`pbem.engine.technology`).

Chart 1 (Land/Industrial) and Chart 2 (Sea/Air), each development at the die face the guide gives.
Breakthroughs that change a unit are profiles here (`profiles`); the others the engine applies by
name (Technology's typed fields).  Units are recognised by their tags.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from pbem.engine.model import UnitType
from pbem.engine.technology import Technology

CHARTS: dict[str, tuple[str, ...]] = {
    # Tech Chart 1 (Land/Industrial Tech)
    "1": ("heavy_artillery", "rockets", "improved_production", "jet_fighters", "propaganda", "blitz_tactics"),
    # Tech Chart 2 (Sea/Air Tech)
    "2": ("super_submarines", "detection_radar", "nautical_engineering", "long_range_aircraft", "super_carrier_decks",
          "heavy_bombers"),
}
NAMES: dict[str, str] = {
    "heavy_artillery": "Heavy Artillery",
    "rockets": "Rockets",
    "improved_production": "Improved Production",
    "jet_fighters": "Jet Fighters",
    "propaganda": "Propaganda",
    "blitz_tactics": "Blitz Tactics",
    "super_submarines": "Super Submarines",
    "detection_radar": "Detection Radar",
    "nautical_engineering": "Nautical Engineering",
    "long_range_aircraft": "Long-Range Aircraft",
    "super_carrier_decks": "Super Carrier Decks",
    "heavy_bombers": "Heavy Bombers",
}


def profiles(units: Mapping[str, UnitType], known: frozenset[str]) -> dict[str, UnitType]:
    """The unit profiles a power's breakthroughs change (unit name -> profile)."""
    out: dict[str, UnitType] = {}
    for name, u in units.items():
        changes: dict[str, object] = {}
        tags = set(u.tags)
        if u.has("fighter") and "jet_fighters" in known:
            changes["attack"] = 4  # "All fighters now attack at 4 or less"
        if u.has("submarine") and "super_submarines" in known:
            changes["attack"] = u.attack + 1  # "All submarines now attack at +1"
        if u.domain == "air" and u.move and "long_range_aircraft" in known:
            changes["move"] = u.move + 1  # "Maximum movement range for all air units has now increased by 1"
        if u.has("carrier") and "super_carrier_decks" in known:
            changes["carrier_capacity"] = 3  # "may now carry up to 3 fighters and/or tactical bombers"
        if "nautical_engineering" in known and u.domain == "sea":
            # "Battleships, Aircraft Carriers, and Cruisers are now 3 IPCs cheaper, and Destroyers,
            # Subs, and Transports are now 1 IPC cheaper"
            if u.has("two_hit") or u.has("bombard"):
                changes["cost"] = u.cost - 3
            elif u.has("destroyer") or u.has("submarine") or u.has("transport"):
                changes["cost"] = u.cost - 1
        if u.has("mechanized") and "blitz_tactics" in known:
            # "Mech infantry now attack at 2 or less if paired with a tank or artillery, they may blitz
            # without tanks" (artillery already supports a mech to 2: the pairing is the tank's)
            tags.add("blitz")
            changes["blitz_with"] = ()
            changes["paired_attack"] = 2
            changes["paired_with"] = ("armour",)
        if tags != set(u.tags):
            changes["tags"] = frozenset(tags)
        if changes:
            out[name] = dataclasses.replace(u, **changes)  # type: ignore[arg-type]
    return out


TECHNOLOGY = Technology(
    charts=CHARTS,
    names=NAMES,
    profiles=profiles,
    # The guide is silent on a result already held (DIGEST §5 AMS.9); the box's R&D rerolls it.
    duplicate="reroll",
    production_bonus="improved_production",
    repairs_two_for_one="improved_production",
    income_roll="propaganda",
    bombers_best_of_two="heavy_bombers",
    aa_bonus="detection_radar",
    artillery_supports_two="heavy_artillery",
    # Rockets: "Each operational airbase may launch one rocket at an enemy facility up to 4 spaces away.
    # Roll 2 dice for each rocket using the die with the highest result to damage the target facility.
    # Each operational airstrip may launch one rocket in the same manner, but only up to 3 spaces and
    # roll one die. No rockets may be launched over neutral territory."
    rockets="rockets",
    rocket_launchers=(("air base", 4, 2), ("air strip", 3, 1)),
)
