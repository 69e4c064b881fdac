"""The AMS house rules that are code: units that fire better than the rest of their kind in a battle
(`Rules.hooks.battle_boosts`, `pbem.engine.combat.model.Boost`), the air battle's radar and jets
(`air_battle_bonus`), and what the guide gives for nothing: Chinese partisans and the set-up's
conditional factory upgrades (`free_units`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.combat.model import Boost
from pbem.engine.problems import Problem
from pbem.engine.rules import FreeUnits
from pbem.rulesets.global_1940.special import base_move, france_liberated

WOLF_PACK = 4  # "If four or more German submarines are located in the same sea zone"
WOLF_PACK_BOOSTED = 3  # "then up to three German submarines in that territory attack at +1"
PILL_BOX_INFANTRY = 2  # "One operational pill box allows up to two infantry to defend against amphibious assaults at +1"


def battle_boosts(w: Any, space: str, *, kind: str, attackers: list[Any], defenders: list[Any], seaborne: bool) -> tuple[Boost, ...]:
    out: list[Boost] = []
    if kind == "sea":
        # Wolf Packs: Germany attacking (DIGEST §5 AMS.16: not on defence)
        subs = [u for u in attackers if u.owner == "Germany" and w.utype(u).has("submarine")]
        if len(subs) >= WOLF_PACK:
            # a pack while four are there: a volley fired with fewer has none
            out.append(Boost("attacker", "Germany", subs[0].type, WOLF_PACK_BOOSTED, 1, "wolf pack", at_least=WOLF_PACK))
    elif seaborne:
        # Pill Boxes: against amphibious assaults only (DIGEST §5 AMS.15), an operational one
        for box in w.units_at(space):
            profile = w.utype(box)
            if not profile.has("pill_box") or w.damage.get(f"{space}/{profile.name}", 0) >= (profile.inoperable_at or 10**6):
                continue
            infantry = sorted({u.owner for u in defenders if w.utype(u).has("infantry") and not w.utype(u).has("mechanized")},
                              key=lambda o: (o != box.owner, o))
            left = PILL_BOX_INFANTRY
            for owner in infantry:
                mine = sum(1 for u in defenders if u.owner == owner and w.utype(u).has("infantry") and not w.utype(u).has("mechanized"))
                if left and mine:
                    out.append(Boost("defender", owner, "infantry", min(left, mine), 1, "pill box"))
                    left -= min(left, mine)
            break
    return tuple(out)


RADAR_COVERS = {1: 2, 2: 5}  # "one operational radar tower ... up to two fighters ...; two ... up to five fighters"


def air_battle_bonus(w: Any, space: str, *, side: str, units: list[Any]) -> tuple[int, str]:
    """How many of a raid's interceptors or escorts fire at +1 in the air battle.

    Radar Towers: "One operational radar tower allows up to two fighters located in the same territory
    as the radar tower to intercept at +1; two operational radar towers ... up to five fighters".  Jet
    Fighters: "fighters now defend at +1 when escorting, or intercepting".  The two do not add up (DIGEST
    §5 AMS.17): an interceptor fires one higher at most.
    """
    if not units:
        return 0, ""
    jets = sum(1 for u in units if "jet_fighters" in w.developments.get(u.owner, frozenset()))
    covered = 0
    if side == "defender":
        towers = sum(1 for u in w.units_at(space) if w.utype(u).has("radar") and w.is_friendly(u.owner, units[0].owner)
                     and w.damage.get(f"{space}/{u.type}", 0) < (w.utype(u).inoperable_at or 10**6))
        covered = min(RADAR_COVERS.get(min(towers, 2), 0), len(units) - jets)
    why = " and ".join(w for w, n in (("Jet Fighters", jets), ("radar", covered)) if n)
    return jets + covered, why


AXIS = frozenset({"Germany", "Italy", "Japan"})
# Initial Set-Up: "Volgograd: ... Minor Factory (immediately upgraded to Major Factory if Novgorod and/or
# Ukraine have been captured)"
VOLGOGRAD_TRIGGERS = ("Novgorod", "Ukraine")
# India: "Major Factory (player has the option to upgrade existing facility by one level when at war
# with Japan ...)"; the United States: Eastern, Central and Western US, "Major Factory (with option by
# one level ...)" when at war.  Taken at once (README.md): at the power's first mobilize phase or turn
# start at war, or at the mobilize phase of the ally whose act began that war ("immediately if an allied
# act causes" it).
AT_WAR_UPGRADES = (
    ("United Kingdom", ("Japan",), "India", "industrial complex upgrade"),
    ("United States", tuple(AXIS), "Eastern United States", "industrial complex upgrade"),
    ("United States", tuple(AXIS), "Central United States", "industrial complex upgrade"),
    ("United States", tuple(AXIS), "Western United States", "industrial complex upgrade"),
)


def free_units(options: Mapping[str, object], event: str, **facts: Any) -> list[FreeUnits]:
    """The box's France liberated, then the guide's partisans and the set-up's conditional upgrades."""
    out = france_liberation(event, **facts)
    if event == "captured" and facts.get("space") in VOLGOGRAD_TRIGGERS and facts.get("original_owner") == "Soviet Union":
        out.append(FreeUnits(owner="Soviet Union", unit="major factory upgrade", count=1, spaces=("Volgograd",),
                             reason=f"{facts['space']} is captured (Initial Set-Up, Volgograd)",
                             once="ams:volgograd-upgrade"))
    if event in ("start_of_turn", "mobilize"):
        w, power = facts.get("world"), facts.get("power")
        for who, enemies, where, upgrade in AT_WAR_UPGRADES:
            if w is None or w.control.get(where) is None or w.ruleset.power_name(w.control[where]) != who:
                continue
            wars = [e for e in enemies if w.relation(who, e) == "war"]
            # "immediately if an allied act causes" the war: a war begun on an ally's turn is that ally's
            # act (its declaration, or its units entering China), so the upgrade is made in that turn
            by_ally = (event == "mobilize" and power != who and power is not None and w.ruleset.side_of(power) == w.ruleset.side_of(who)
                       and w.wars_at_start is not None and any(frozenset({who, e}) not in w.wars_at_start for e in wars))
            if wars and (power == who or by_ally):
                out.append(FreeUnits(owner=who, unit=upgrade, count=1, spaces=(where,),
                                     reason=f"{who} is at war (Initial Set-Up, {where})" + (f", brought in by {power}" if by_ally else ""),
                                     once=f"ams:upgrade:{where}"))
    if event == "start_of_turn" and facts.get("power") == "China" and options.get("chinese_partisans") is True:
        w = facts["world"]
        spawned = tuple(t for t in sorted(CHINESE_TERRITORIES) if _partisans_rise(w, t))
        if spawned:
            out.append(FreeUnits(owner="China", unit="infantry", count=1, spaces=spawned, fights=True,
                                 reason="Chinese partisans rise behind the Axis lines (Chinese Partisan Rule)"))
    return out


FRANCE_GIFT = 12  # "First time France is liberated by Allies: Place 12 IPCs worth of units in France"


def france_liberation(event: str, **facts: Any) -> list[FreeUnits]:
    """AMS NO, France: the units France's standing orders choose (`liberation_units`, worth 12 IPCs at
    most), placed in France when the Allies first liberate it; none chosen, or too dear: the box's four
    infantry (DIGEST §5 AMS.22; an out-of-turn decision is a standing order)."""
    box = france_liberated({}, event, **facts)
    if not box:
        return []
    standing = facts.get("standing") or {}
    units = facts.get("units") or {}
    chosen = dict(getattr(standing.get("France"), "liberation_units", {}) or {})
    cost = sum(units[t].cost * n for t, n in chosen.items() if t in units)
    if not chosen or cost > FRANCE_GIFT or any(t not in units or units[t].domain not in ("land", "air") for t in chosen):
        return box
    reason = "France is liberated for the first time: 12 IPCs worth of units of its choice (AMS, France)"
    return [FreeUnits(owner="France", unit=t, count=n, spaces=("France",), reason=reason,
                      once="france_liberated" if i == 0 else f"france_liberated:{t}")
            for i, (t, n) in enumerate(sorted(chosen.items()))]


def standing_keys(options: Mapping[str, object], power: str) -> frozenset[str]:
    """The standing-orders keys of AMS's own rules (Rules.hooks.standing_keys): France's liberation units."""
    return frozenset({"liberation_units"}) if power == "France" else frozenset()


def standing_problems(options: Mapping[str, object], standing: Any, ruleset: Any) -> list[Problem]:
    """France's `liberation_units` must be land or air units worth 12 IPCs at most: others would be
    set aside for the box's four infantry at the liberation, long after anyone could correct them."""
    chosen = dict(getattr(standing, "liberation_units", {}) or {})
    if standing.power != "France" or not chosen:
        return []
    path = ("standing_orders", "liberation_units")
    out = []
    wrong = sorted(t for t in chosen if ruleset.units[t].domain not in ("land", "air"))
    if wrong:
        out.append(Problem("illegal", f"liberation_units: {', '.join(wrong)} cannot be placed in France", path=path,
                           rule="AMS, France: units placed in France when it is first liberated", hint="choose land or air units",
                           code="standing.liberation-units"))
    cost = sum(ruleset.units[t].cost * n for t, n in chosen.items())
    if cost > FRANCE_GIFT:
        out.append(Problem("illegal", f"liberation_units cost {cost} IPCs; France places {FRANCE_GIFT} IPCs worth of units", path=path,
                           rule="AMS, France: \"Place 12 IPCs worth of units in France\"",
                           hint="e.g. {tank: 1, infantry: 2}", code="standing.liberation-units"))
    return out


CHINESE_TERRITORIES = frozenset({
    "Anhwe", "Chahar", "Hopei", "Hunan", "Jehol", "Kansu", "Kiangsi", "Kiangsu", "Kwangsi", "Kweichow", "Manchuria",
    "Shantung", "Shensi", "Sikang", "Suiyuyan", "Szechwan", "Tsinghai", "Yunnan",
})


def _partisans_rise(w: Any, territory: str) -> bool:
    """"a Chinese infantry is spawned in each non-coastal Chinese territory under Axis control that does
    not have at least 1 Axis land unit in it"."""
    holder = w.control.get(territory)
    if holder is None or w.ruleset.power_name(holder) not in AXIS:
        return False
    if any(w.space(n).is_sea for n in w.board.neighbours(territory)):
        return False  # coastal
    return not any(w.ruleset.power_name(u.owner) in AXIS and w.utype(u).domain == "land" for u in w.units_at(territory))


def movement_bonus(options: Mapping[str, object], power: str, unit: Any, **move: Any) -> tuple[int, frozenset[str] | None]:
    """The box's bases, and Blitz Tactics: mechanized infantry "may tow 1 artillery each during non-combat
    movement" - an artillery moving in noncombat with at least as many mechanized infantry as artillery
    moves two (DIGEST: towed along the mechs' path)."""
    world, group = move["world"], move.get("group") or ()
    if (unit.has("artillery") and move.get("phase") == "noncombat" and "blitz_tactics" in world.developments.get(power, frozenset())
            and sum(1 for g in group if g.has("mechanized")) >= sum(1 for g in group if g.has("artillery")) > 0):
        return 1, None
    return base_move(options, power, unit, **move)
