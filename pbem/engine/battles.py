"""Conduct Combat: which battles the combat moves started, in the rulebook's order, and their effects.

The rules of a single battle live in `pbem.engine.combat`; this module puts units on the battle
strip (who attacks, who defends, bombardment, retreat spaces, directives and standing orders) and
applies what the battle did to the turn's world (losses, retreats, captures).

Order (Conduct Combat): 1 strategic bombing raids, 2 amphibious assaults (the sea battle in the
offload zone, then bombardment and the land battle), 3 general combat.  Battles are independent
dice streams, so this order changes no die.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

from pbem.engine.combat import model as cm
from pbem.engine.combat.rules import CombatRules
from pbem.engine.kamikaze import plan_strikes, strike_without_battle
from pbem.engine.kamikaze import sacrifices as kamikaze_sacrifices
from pbem.engine.orders import BattleDirective, Orders, StandingOrders
from pbem.engine.problems import Problem
from pbem.engine.scramble import MISSION as SCRAMBLED
from pbem.engine.words import count_of, units_text
from pbem.engine.world import Unit, World


class Turn(Protocol):
    """What the battles need of the turn they are part of.  `pbem.engine.turn.Turn` provides it;
    naming it here keeps the dependency one way: the turn calls the battles, never the reverse."""

    w: World
    combat_rules: CombatRules
    orders: Orders
    standing: Mapping[str, StandingOrders]
    options: Mapping[str, Any]
    dice: Any
    log: Any  # pbem.engine.turn.TurnLog: .battles, .raids, ... the report's record
    problems: list[Problem]
    warnings: list[Problem]
    contested: set[str]
    attacked: tuple[tuple[str, str | None, str | None], ...]
    kamikaze_strikes: dict[str, list[Unit]]  # sea zone with a battle -> ships kamikaze strike there

    def lose_victory_points(self, power: str, ipcs_handed_over: int, why: str) -> None: ...

    @property
    def validating(self) -> bool: ...

    def capture(self, space: str, by: str, *, blitz: bool = False) -> None: ...

    def free_units(self, event: str, **facts: Any) -> list[Any]: ...

    def give(self, grant: Any, space: str) -> None: ...

DEFAULT_DEFENCE = "defender's standing orders not written: cheapest units lost first"
DEFAULT_ATTACK = "no battle directive: cheapest units lost first, one land unit kept to capture, no retreat"
DEFAULT_SEA_ATTACK = "no battle directive: cheapest units lost first, no retreat"


def ignores(w: World, orders: Orders, space: str) -> bool:
    """The mover lets the enemies in `space` be (BattleDirective.ignore): only where they are
    submarines and transports and no defender scrambled into the zone (1940: "all of its attacking
    naval units will still be involved in the sea combat if the defender scrambles")."""
    directive = orders.battles.get(space)
    return (directive is not None and directive.ignore and w.is_sea(space) and not w.is_hostile_sea_zone(space)
            and not any(u.mission == "scrambled" for u in w.units_at(space)))


@dataclass
class BattlePlan:
    raids: dict[str, list[int]] = field(default_factory=dict)
    sea: list[str] = field(default_factory=list)  # sea zones with a battle
    land: list[str] = field(default_factory=list)  # territories attacked
    amphibious_zones: dict[str, set[str]] = field(default_factory=dict)  # territory -> offload zones

    @classmethod
    def from_world(cls, w: World, orders: Orders, standing: Mapping[str, StandingOrders]) -> "BattlePlan":
        plan = cls()
        spaces: set[str] = set()
        for u in w.units.values():
            if u.mission == "scrambled":
                spaces.add(u.space)  # defenders rose into this zone (Rules.scramble): it is fought
            # Sea units that started beside enemy surface warships and stayed must fight there
            # (Combat Move: sea units starting in hostile sea zones).
            if (u.owner == w.power and u.phase is None and u.carrier is None and w.utype(u).domain == "sea"
                    and w.is_hostile_sea_zone(u.space)):
                spaces.add(u.space)
            if not w.commands(u) or u.phase != "combat":
                continue
            if u.mission in ("strategic_bombing", "escort"):
                plan.raids.setdefault(u.space, []).append(u.id)
                continue
            spaces.add(u.space)
            if u.seaborne_from:
                plan.amphibious_zones.setdefault(u.space, set()).add(u.seaborne_from)
        # Warships already in a zone may attack the enemy submarines and transports there that they
        # could otherwise ignore (Combat Move, movement: "you have the option of attacking an enemy
        # submarine and/or transport that shares a sea zone with you"): a battle directive asks.
        for space in orders.battles:
            if w.is_sea(space) and any(u.owner == w.power and u.phase is None and w.utype(u).domain == "sea"
                                       and w.utype(u).attack > 0 and not w.utype(u).has("transport")
                                       for u in w.units_at(space)):
                spaces.add(space)
        for space in sorted(spaces):
            if w.is_sea(space):
                if ignores(w, orders, space):
                    continue
                defenders, attackers = _defenders(w, space), _attackers(w, space)
                # no battle where no unit on either side could ever score a hit (1942: a transport
                # with no attack value beside enemy transports with no defence value ignores them)
                if defenders and attackers and (any(w.utype(u).attack > 0 for u in attackers)
                                                or any(w.utype(u).defense > 0 for u in defenders)):
                    plan.sea.append(space)
            elif space in w.control and (w.is_hostile_territory(space) or _defenders(w, space)):
                plan.land.append(space)
        # The player's listed battles come first, in the order written (the attacker chooses).
        chosen = [s for s in orders.battles if s in plan.land or s in plan.sea]
        plan.land.sort(key=lambda s: (chosen.index(s) if s in chosen else len(chosen), s))
        plan.sea.sort(key=lambda s: (chosen.index(s) if s in chosen else len(chosen), s))
        return plan


def _is_cargo(w: World, u: Unit) -> bool:
    """Cargo does not fight: land units aboard transports, an ally's fighters on a carrier, and air
    units left aboard a carrier as it moved (Rules.movement.carrier_air_in_combat_move "cargo")."""
    if u.carrier is None:
        return False
    host = w.units.get(u.carrier)
    return (w.utype(u).domain == "land" or u.stowed
            or (host is not None and host.owner != u.owner and host.owner == w.power))


def _attackers(w: World, space: str) -> list[Unit]:
    return [u for u in w.units_at(space) if w.commands(u) and not _is_cargo(w, u)
            and u.mission not in ("strategic_bombing", "escort") and w.utype(u).domain != "structure"]


def _defenders(w: World, space: str) -> list[Unit]:
    return [u for u in w.enemy_units_at(space) if not (u.carrier is not None and w.utype(u).domain == "land")
            and w.utype(u).domain != "structure" and u.mission != "intercepted" and not u.submerged
            and not _grounded(w, u)]


def _grounded(w: World, u: Unit) -> bool:
    """Aircraft aboard a damaged carrier are its cargo (Rules.movement.damaged_carriers_hold_no_air)."""
    return u.id in w.grounded_air(u.space)


def _damaged(units: list[Unit]) -> dict[str, dict[str, int]]:
    """Two-hit units that enter the battle already damaged (CombatRules.two_hit_repair)."""
    out: dict[str, dict[str, int]] = {}
    for u in units:
        if u.damaged:
            out.setdefault(u.owner, {})[u.type] = out.get(u.owner, {}).get(u.type, 0) + 1
    return out


def _mark_damaged(w: World, units: list[Unit], outcome: cm.BattleOutcome) -> None:
    """The survivors that end the battle damaged keep the hit, unless the rules repair it now."""
    left = {} if outcome.repaired else {(o, t): n for o, by in outcome.damaged.items() for t, n in by.items()}
    for u in sorted((u for u in units if u.id in w.units), key=lambda u: (not u.damaged, u.id)):
        key = (u.owner, u.type)
        u.damaged = left.get(key, 0) > 0
        if u.damaged:
            left[key] -= 1


Aboard = dict[tuple[str, str, str], list[int]]  # (owner, unit, the type it was aboard) -> the host of each one lost


def _sink_grounded(w: World, zone: str, grounded: frozenset[int], aboard: Aboard, hosts: Mapping[int, str]) -> None:
    """Aircraft that sat on a damaged carrier as its cargo go down with it: those the zone's surviving
    carriers of their side can no longer hold (Rules.movement.damaged_carriers_hold_no_air).  `hosts`:
    the type of each one's carrier before the battle, for the report."""
    for side in sorted({w.ruleset.side_of(w.units[i].owner) for i in grounded if i in w.units}):
        here = w.units_at(zone)
        room = sum(w.utype(c).carrier_capacity for c in here if w.utype(c).has("carrier") and w.ruleset.side_of(c.owner) == side)
        air = [u for u in here if w.utype(u).lands_on_carriers and w.ruleset.side_of(u.owner) == side]
        excess = len(air) - room
        for u in sorted((u for u in air if u.id in grounded), key=lambda u: -u.id):
            if excess <= 0:
                break
            key = (u.owner, u.type, hosts.get(u.id, "carrier"))
            aboard.setdefault(key, []).append(u.carrier if u.carrier is not None else -1)
            w.remove(u)
            excess -= 1


def _forces(w: World, units: list[Unit]) -> tuple[cm.Force, ...]:
    groups: dict[tuple[str, str, bool], int] = {}
    for u in units:
        # units landed from the sea, and paratroopers (Rules.airborne): they came in, they do not retreat,
        # and each may have a ship bombard for it
        key = (u.type, u.owner, u.seaborne_from is not None or u.mission == "airborne")
        groups[key] = groups.get(key, 0) + 1
    return tuple(cm.Force(t, o, n, seaborne=s) for (t, o, s), n in sorted(groups.items()))


_RETREAT_KINDS = {
    "never": ("never", 0),
    "after_round": ("after_round", None),
    "always": ("after_round", 1),
    "attackers_at_most": ("when_attackers_at_most", None),
    "defenders_outnumber": ("when_defenders_outnumber", 0),
    "no_land_units": ("when_no_land_units", 0),
}


def attacker_orders(directive: BattleDirective | None, damage_first: bool | tuple[str, ...] = True) -> cm.Orders:
    """The attacker's choices: a strong player's default (keep a land unit to capture the
    territory; `damage_first`, two-hit units' free hits: _attacker_keeps_carriers_fit), or the
    directive as written: each key it leaves out keeps its default, except that a written order of
    loss is followed exactly, holding a land unit only when hold_territory says so."""
    if directive is None:
        return cm.Orders(hold_territory=True, damage_first=damage_first)
    kind, value = _RETREAT_KINDS[directive.retreat.kind]
    return cm.Orders(
        order_of_loss=directive.order_of_loss,
        hold_territory=directive.hold_territory if directive.hold_territory is not None else not directive.order_of_loss,
        aa_order_of_loss=directive.aa_order_of_loss,
        retreat=cm.RetreatCondition(kind, directive.retreat.value if value is None else value),  # type: ignore[arg-type]
        retreat_to=directive.retreat_to,
        # with a retreat condition, the subs submerge when it holds instead of at the first chance
        submerge=("on_retreat" if directive.retreat.kind != "never" else "always") if directive.submerge else "never",
        damage_first=damage_first if directive.damage_first is None else directive.damage_first,
    )


def _defence_governor(defenders: list[Unit]) -> str | None:
    """The defending power whose standing orders choose the losses: the one with the most units there."""
    counts: dict[str, int] = {}
    for u in defenders:
        counts[u.owner] = counts.get(u.owner, 0) + 1
    return sorted(counts, key=lambda o: (-counts[o], o))[0] if counts else None


def defender_orders(w: World, space: str, defenders: list[Unit], standing: Mapping[str, StandingOrders]) -> tuple[cm.Orders, bool]:
    """The standing orders of the defending power with the most units there (allies defend together:
    one order of loss for all), but a submarine submerges by its own power's orders ("both defender
    and attacker have the option to submerge any submarine"): the subs dive when every power owning
    one there says so."""
    owner = _defence_governor(defenders)
    so = standing.get(owner) if owner else None
    subs = sorted({u.owner for u in defenders if w.utype(u).has("submarine")})

    def dives(power: str) -> bool:
        orders = standing.get(power)
        return orders is not None and orders.explicit and orders.policy_for(space).submerge

    submerge: cm.SubmergePolicy = "always" if subs and all(dives(p) for p in subs) else "never"
    if so is None or not so.explicit:
        return cm.Orders(damage_first=_keep_carriers_fit(w, space, defenders), submerge=submerge), True
    policy = so.policy_for(space)
    first = _keep_carriers_fit(w, space, defenders) if policy.damage_first is None else policy.damage_first
    return cm.Orders(order_of_loss=policy.order_of_loss, hold_territory=policy.hold_territory,
                     submerge=submerge if subs else ("always" if policy.submerge else "never"), damage_first=first), False


def _keep_carriers_fit(w: World, space: str, defenders: list[Unit]) -> bool | tuple[str, ...]:
    """The defender's default for two-hit units' free first hits: all of them first, but where a
    damaged carrier lands no aircraft (1940) and the defending aircraft in this zone would have no
    friendly territory one space away, carriers take their hits where the order of loss ranks them:
    a strong player gives up a destroyer rather than the fighters a damaged carrier strands."""
    if not (w.is_sea(space) and w.rules.movement.damaged_carriers_hold_no_air):
        return True
    air = [u for u in defenders if w.utype(u).domain == "air"]
    if not air or not any(w.utype(u).has("carrier") for u in defenders):
        return True
    owners = {u.owner for u in air}
    if all(any(w.space(n).is_land and w.is_friendly_territory(n, of=o) for n in w.board.neighbours(space)) for o in owners):
        return True
    return _free_hits_but_carriers(w, defenders)


def _free_hits_but_carriers(w: World, units: list[Unit]) -> tuple[str, ...]:
    """Orders.damage_first naming every two-hit type among `units` but carriers: a carrier's first hit
    then comes where the order of loss ranks it."""
    return tuple(sorted({w.utype(u).name for u in units if w.utype(u).hits > 1 and not w.utype(u).has("carrier")}))


def _attacker_keeps_carriers_fit(turn: Any, space: str, attackers: list[Unit]) -> bool | tuple[str, ...]:
    """The attacker's default for two-hit units' free first hits, as the defender's: all of them first,
    but where a damaged carrier lands no aircraft (1940) and an attacking fighter or tactical bomber of
    this sea battle - or one fighting elsewhere whose noncombat order lands it here - can reach no
    friendly territory with the move it has left, carriers take their hits where the order of loss
    ranks them - a damaged carrier would strand the aircraft it was to carry."""
    w = turn.w
    if not (w.is_sea(space) and w.rules.movement.damaged_carriers_hold_no_air) or not any(w.utype(u).has("carrier") for u in attackers):
        return True
    attacked = turn._attacked_spaces()

    def land(s: str) -> bool:
        return w.space(s).is_land and w.is_friendly_territory(s, at_start=True) and s not in attacked
    air = [(u, space) for u in attackers if w.utype(u).domain == "air" and w.utype(u).lands_on_carriers]
    # aircraft launched to fight beside the fleet, ordered back onto its carriers (a strike from the sea)
    coming = {(m.frm, t) for m in turn.orders.noncombat_moves if m.to == space for t in m.units}
    here = {u.id for u, _ in air}
    air += [(u, u.space) for u in w.units.values() if w.commands(u) and u.id not in here and w.utype(u).lands_on_carriers
            and u.phase == "combat" and (u.space, u.type) in coming]
    if all(turn.mover.air_distance(at, land, turn._air_left(u), flying=True) is not None for u, at in air):
        return True
    return _free_hits_but_carriers(w, attackers)


def retreat_spaces(w: World, space: str, attackers: list[Unit], *, if_subs_submerge: bool = False) -> tuple[str, ...]:
    """Adjacent friendly spaces from which at least one attacking land or sea unit moved (step 6).
    `if_subs_submerge`: also zones whose only enemies are submarines that may yet submerge in a battle
    of their own (then the zone is no longer hostile: Europe's Exception #1) - what a directive may
    name; whether the retreat can be made is known when the battle is fought."""
    out = set()
    at_start = w.rules.movement.retreat_to_friendly_at_start
    for u in attackers:
        if w.utype(u).domain == "air" or u.seaborne_from:
            continue
        came_from = u.path[-2] if len(u.path) >= 2 else u.start
        if w.rules.movement.sea_retreat_via_path and w.utype(u).domain == "sea":
            for passed in [u.start, *u.path[:-1]]:  # any zone it moved through, beside the battle
                if (passed != space and w.is_sea(passed) and w.board.are_adjacent(passed, space)
                        and not w.is_hostile_sea_zone(passed)):
                    out.add(passed)
            continue
        if came_from == space or not w.board.are_adjacent(came_from, space):
            continue
        if w.is_sea(came_from):
            if "sea" in at_start and came_from in w.hostile_seas_at_start:
                continue  # it was hostile when the turn began
            if not w.is_hostile_sea_zone(came_from):
                out.add(came_from)
            elif if_subs_submerge and all(w.utype(e).has("submarine") for e in w.enemy_units_at(came_from) if not e.submerged):
                out.add(came_from)
        elif w.is_friendly_territory(came_from, at_start=w.is_sea(space) or "land" in at_start):
            out.add(came_from)
    return tuple(sorted(out))


def _warn_idle_directive(turn: Turn, directive: BattleDirective, battle: cm.Battle, attackers: list[Unit], kind: str,
                         amphibious: bool) -> None:
    """A directive that is legal but can never take effect is worth a word at validation: the
    player meant something the rules will not do (e.g. a retreat from an amphibious assault in
    which only seaborne land units attack)."""

    w = turn.w
    rules = turn.combat_rules

    def warn(message: str, key: str, rule: str) -> None:
        turn.warnings.append(Problem("warning", message, rule=rule, path=(*directive.yaml_path, key), code="directive.idle"))

    calls_off = directive.call_off is not None and directive.call_off.kind != "never"
    if directive.retreat.kind != "never" and not (amphibious and calls_off):  # called off, it is no amphibious assault
        movable = [u for u in attackers if w.utype(u).domain == "air"
                   or (battle.retreat_to and not u.seaborne_from
                       and (not amphibious or w.utype(u).domain != "land" or rules.overland_can_retreat_from_amphibious))]
        if not movable:
            overland = amphibious and any(w.utype(u).domain == "land" and not u.seaborne_from for u in attackers)
            why = ("no land unit may retreat from an amphibious assault, not even those that came overland" if overland
                   else "seaborne land units cannot retreat from an amphibious assault" if amphibious
                   else "no attacking unit can retreat: none came from an adjacent friendly space, and none is an air unit")
            warn(f"the retreat directive for {battle.space} can never take effect: {why}", "retreat",
                 "General Combat, Step 6, Condition B: attacker retreats")
    if directive.retreat.kind == "no_land_units" and not any(w.utype(u).domain == "land" for u in attackers):
        warn(f"retreat \"{directive.retreat.text}\" for {battle.space}: no land unit attacks there, so the attack "
             "retreats after its first round", "retreat", "General Combat, Step 6, Condition B: attacker retreats")
    if directive.submerge and not any(w.utype(u).has("submarine") for u in attackers):
        warn(f"submerge: true for {battle.space}, but no attacking submarine takes part", "submerge", "Submarines: submerging")
    elif (directive.submerge and directive.retreat.kind != "never" and kind == "sea"
          and rules.submerge_timing == "instead_of_surprise_strike"):
        warn(f"submerge: true with a retreat condition for {battle.space}: in this game a submarine submerges only instead of "
             "its surprise strike, so these strike and then retreat with the rest (write submerge: true with no retreat: to "
             "submerge them at once)", "submerge", "Submarines: a sub submerges anytime it would otherwise make a Surprise Strike")
    if directive.aa_order_of_loss and not any(w.utype(u).has("aa") for u in w.enemy_units_at(battle.space)):
        warn(f"aa_order_of_loss for {battle.space}, but no antiaircraft unit defends there", "aa_order_of_loss",
             "General Combat, Step 1: antiaircraft fire")
    elif directive.aa_order_of_loss and rules.aa_casualty_chooser == "targeted":
        warn(f"aa_order_of_loss for {battle.space}, but in this game each antiaircraft die is aimed at one aircraft, "
             "and a hit destroys that one: no order of loss chooses", "aa_order_of_loss",
             "FAQ, Combat: antiaircraft fire is targeted against specific aircraft")
    if calls_off and not amphibious:
        warn(f"call_off for {battle.space}, but no land unit offloads there from a transport", "call_off",
             "Amphibious Assaults: the attacker may call off the landing")
    present = {u.type for u in attackers}
    unused = [t for t in directive.order_of_loss if t not in present]
    if unused:
        warn(f"the order of loss for {battle.space} names {', '.join(unused)}, which do not attack there", "order_of_loss",
             "General Combat, Step 3: the attacker chooses its casualties")


def aa_modifiers(turn: Turn, space: str, defenders: frozenset[str], flying: Mapping[str, int],
                 gunners: frozenset[str] | None = None) -> tuple[int | None, frozenset[str]]:
    """The ruleset's modifiers of antiaircraft fire over `space` (Rules.hooks.battle_modifiers: Revised's
    Radar, Superfortresses), the same whether the gun fires in a battle, at raiders or at aircraft
    flying over: the hit number (None: the rules') and the units no gun may fire at.  `gunners`: the
    owners of the guns that fire (None: `defenders`)."""
    w = turn.w
    hook = w.rules.hooks.battle_modifiers
    if hook is None:
        return None, frozenset()
    mods = hook(turn.options, w.ruleset.units, kind="land", attacker=w.power, defenders=defenders,
                attacking_units=dict(flying), original_owner=w.space(space).original_owner, controller=w.control.get(space),
                island=w.space(space).island, super_submarines=frozenset(), attacking_subs_moved_in=0, round=turn.state.round, seaborne=False,
                aa_owners=gunners)
    return mods.aa_hit, frozenset(mods.aa_immune)


def resolve_battles(turn: Turn, plan: BattlePlan) -> None:
    w = turn.w
    turn.contested = {*plan.sea, *plan.land}  # every space with a battle this turn, fought or still to fight
    turn.mover.battle_spaces = set(turn.contested)
    # The land battles of this turn in the order they are fought, with who holds each and whose it
    # was, for rules that let a defender choose among them (Rules.hooks.free_units' "attacked" facts).
    turn.attacked = tuple((s, w.space(s).original_owner, w.control.get(s)) for s in plan.land)
    for space in sorted(plan.raids):
        _raid(turn, space, [w.units[i] for i in plan.raids[space] if i in w.units])
    offload_zones = sorted({z for zones in plan.amphibious_zones.values() for z in zones})
    fought_at_sea: set[str] = set()
    # Kamikaze (Rules.kamikaze), decided once every combat move is made: in a battle's zone they join
    # its first round; elsewhere they are the zone's naval battle.
    strikes = plan_strikes(turn, frozenset({*plan.sea, *offload_zones}))
    turn.kamikaze_strikes = {z: picks for z, picks in strikes.items() if z in plan.sea}
    for zone, picks in sorted(strikes.items()):
        if zone not in plan.sea:
            strike_without_battle(turn, zone, picks)
            fought_at_sea.add(zone)
            _land_or_lose_cargo(w, zone)  # what a sunk transport was to put ashore goes down with it
    for zone in [z for z in plan.sea if z in offload_zones]:
        _battle(turn, zone, "sea")
        fought_at_sea.add(zone)
        if turn.validating:
            _refuse_landing_from_uncleared(turn, zone)
        _land_or_lose_cargo(w, zone)
    for zone in offload_zones:
        _stay_aboard_if_uncleared(turn, zone, fought=zone in plan.sea)
    # Airborne assaults (Rules.airborne; AMS Ω3.0 "Bombardments for airborne assaults"): ships in any
    # zone beside the territory with no sea combat there may bombard, one per paratrooper.
    airborne = {u.space for u in w.units.values() if w.commands(u) and u.mission == "airborne"}

    def beside(territory: str) -> set[str]:
        if territory not in airborne:
            return set()
        return {z for z in w.board.neighbours(territory) if w.is_sea(z) and z not in plan.sea}

    for territory in [t for t in plan.land if t in plan.amphibious_zones]:
        _call_off_landing(turn, territory, plan.amphibious_zones[territory], fought_at_sea)
        _battle(turn, territory, "land", bombard_from=sorted((plan.amphibious_zones[territory] | beside(territory)) - fought_at_sea))
    for zone in [z for z in plan.sea if z not in offload_zones]:
        _battle(turn, zone, "sea")
    for territory in [t for t in plan.land if t not in plan.amphibious_zones]:
        _battle(turn, territory, "land", bombard_from=sorted(beside(territory) - fought_at_sea) or None)
    for space in sorted(plan.raids):
        _rehome_interceptors(turn, space)
    # Fighters whose carrier sank land now, after every battle: "This movement occurs during the
    # Noncombat Move phase, before the acting player makes any noncombat movements" (1942, Fighters);
    # no battle still to fight meets them where they land
    for zone, aboard in turn.stranded:
        _land_stranded(turn, zone, aboard=aboard)
    turn.stranded = []
    if w.rules.scramble is not None:
        from pbem.engine.scramble import fly_home

        fly_home(turn, lambda u, base: _land_one_space_away(
            turn, u, base, set(), "its air base was captured and no landing is one space away",
            f"scrambled {u.type} of {u.owner} could not return to captured {base} and landed in {{}}"))


def _rehome_interceptors(turn: Turn, space: str) -> None:
    """Interceptors return to their territory; if it was captured they move one space to a friendly
    territory or carrier, or are lost (Strategic Bombing Raids, optional rule)."""
    w = turn.w
    if not w.is_hostile_territory(space, of=w.power) and w.controller(space) == w.power:
        for u in [u for u in w.units_at(space) if u.mission == "intercepted" and w.is_enemy(u.owner)]:
            if w.rules.movement.interceptors_of_captured_territory == "lost":
                turn.log.lost_air.append({"unit": u.type, "owner": u.owner, "space": space,
                                          "reason": "it intercepted a raid over a territory captured this turn: it cannot land"})
                w.remove(u)
                continue
            _land_one_space_away(turn, u, space, set(), "its territory was captured and no landing is one space away",
                                 f"interceptor {u.type} of {u.owner} left captured {space} for {{}}")


def _landing_from(w: World, zone: str) -> list[Unit]:
    """The mover's land units offloading from `zone` whose transport is still afloat, by id."""
    return sorted((u for u in w.units.values() if u.seaborne_from == zone and w.commands(u) and u.came_by in w.units),
                  key=lambda u: u.id)


def _back_aboard(w: World, u: Unit) -> None:
    """A land unit that does not land after all goes back aboard the transport it came by."""
    host = w.units[u.came_by]  # type: ignore[index]
    u.space, u.carrier, u.seaborne_from = host.space, host.id, None


def _refuse_landing_from_uncleared(turn: Turn, zone: str) -> None:
    """Validation plays every attack as won, but defenders no attacker there can hit stay (a transport
    rolls no attack): if they leave the zone uncleared (`_holding`), its transports can never offload, so an
    amphibious assault from it is refused (Amphibious Assaults: "If you clear the sea zone of enemy
    units, your surviving transports can offload"), and its land units stay aboard."""
    w = turn.w
    # a scramble is the defender's choice, still to come: `_stay_aboard_if_uncleared` warns of it
    staying = _type_counts(w, [u for u in _holding(w, zone, fought=True) if u.mission != SCRAMBLED])
    if not staying:
        return
    for u in _landing_from(w, zone):
        if u.order is not None and not any(p.path == u.order for p in turn.problems):  # once per order, and not after another refusal of it
            turn.problems.append(Problem(
                "illegal", f"{u.type} cannot land in {u.space} from {zone}: the units attacking {zone} cannot hit "
                f"{units_text(staying)} there, so the zone is never cleared for the landing",
                rule="Amphibious Assaults: land units offload only once the sea zone is cleared of enemy units",
                hint=f"send a warship that can hit them into {zone}, or offload from another zone",
                path=u.order, code="move.assault-uncleared"))
        _back_aboard(w, u)


def _holding(w: World, zone: str, fought: bool) -> list[Unit]:
    """The enemy units that keep an offload zone uncleared: those that make it hostile, those scrambled
    into it, and after a sea battle fought there every one left but transports and submerged
    submarines (1942, Amphibious Assault Sequence, Step 3: land combat "If there was no sea battle or
    the sea zone has been cleared of all defending enemy units except transports and submerged
    submarines"; Revised: "If you clear the sea zone of enemy units")."""
    hostile = w.is_hostile_sea_zone(zone)
    return [u for u in w.enemy_units_at(zone) if not u.submerged and u.carrier is None and w.utype(u).domain != "land"
            and (hostile or u.mission == SCRAMBLED or (fought and not w.utype(u).has("transport")))]


def _stay_aboard_if_uncleared(turn: Turn, zone: str, fought: bool) -> None:
    """Enemy units still holding an offload zone once its sea battle is over leave it uncleared: the
    land units stay aboard ("The sea zone from which the amphibious assault is launched may be either
    friendly or hostile, but if it is hostile then it must be made friendly before the amphibious
    assault occurs", E14).  This happens where the attacker's warships lose but an ally's transport,
    never in the mover's battle, survives (Multinational Forces, E21), and where defenders scramble
    into the zone: the AMS guide's E40 errata, "if there is a scramble into a sea zone containing only
    multi-national force where the transport is not involved in combat, it will nullify the
    amphibious assault because ... the attacking player cannot clear the sea zone".  Validation plays
    the battles as won, so there only a scramble into a zone with no battle is left, and it warns:
    the defender may still change its standing orders."""
    w = turn.w
    holders = [u for u in _holding(w, zone, fought) if u.mission == SCRAMBLED or not turn.validating]
    if not holders:
        return
    orders: dict[str, list[tuple[str | int, ...]]] = {}  # territory -> the offloading orders
    for u in _landing_from(w, zone):
        orders.setdefault(u.space, []).extend([u.order] if u.order is not None else [])
        _back_aboard(w, u)
    held = (f"{units_text(_type_counts(w, holders))} of {' and '.join(sorted({u.owner for u in holders}))} "
            f"{'holds' if len(holders) == 1 else 'hold'} {zone}")
    for territory, paths in sorted(orders.items()):
        text = f"the landing on {territory} from {zone} is called off: {held}, which is not cleared for it"
        if not turn.validating:
            turn.log.notes.append(text[0].upper() + text[1:])
            continue
        turn.warnings.append(Problem(
            "warning", f"if the defender scrambles as its standing orders now say, {text}",
            rule="Scramble; Multinational Forces (E40 errata): a sea zone must be cleared before an amphibious "
                 "assault lands from it, and an ally's transports take no part in your sea battle",
            hint=f"send a warship of your own into {zone} to fight the scrambled aircraft, or offload out of the base's reach",
            path=min(paths) if paths else ("combat_move",), code="move.assault-scrambled"))


def _land_or_lose_cargo(w: World, zone: str) -> None:
    """Seaborne land units whose transport was sunk in the offload zone's sea battle never land."""
    for u in list(w.units.values()):
        if u.seaborne_from == zone and w.commands(u) and u.came_by is not None:
            host = w.units.get(u.came_by)
            if host is None:
                del w.units[u.id]
            elif host.retreated:
                _back_aboard(w, u)


def _call_off_landing(turn: Turn, territory: str, zones: set[str], fought_at_sea: set[str]) -> None:
    """BattleDirective.call_off: once the offload zones' sea battles are over, the attacker may call
    off the landing (CombatRules.amphibious_call_off); its land units stay aboard their transports,
    which may not redirect them.  Overland and air units that moved in still attack, as when the
    seaborne units are lost at sea.  Validation assumes the landing is made."""
    w = turn.w
    directive = turn.orders.battles.get(territory)
    cond = directive.call_off if directive is not None else None
    if directive is None or cond is None or cond.kind == "never":
        return
    path = (*directive.yaml_path, "call_off")
    allowed = turn.combat_rules.amphibious_call_off
    if allowed == "never":
        turn.problems.append(Problem(
            "illegal", f"the amphibious assault on {territory} cannot be called off: these rules have no calling off",
            rule="Amphibious Assault: the land units offload once the sea zone is clear",
            hint="remove call_off; to keep the land units aboard, do not offload them", path=path, code="directive.call-off"))
        return
    landing = [u for u in w.units_at(territory) if w.commands(u) and u.seaborne_from is not None and u.came_by in w.units]
    if allowed == "after_sea_battle" and not zones & fought_at_sea:
        if turn.validating and landing:
            turn.warnings.append(Problem(
                "warning", f"call_off for {territory} can never take effect: no naval battle is fought in "
                f"{', '.join(sorted(zones))}, and only after one may the assault be called off",
                rule="Amphibious Assaults, Note: after a naval battle, the attacker is allowed to call off the Amphibious Assault",
                path=path, code="directive.idle"))
        return
    if turn.validating or not landing:
        return
    if cond.kind == "landing_at_most":
        holds = len(landing) <= cond.value
    elif cond.kind == "defenders_outnumber":
        holds = len(_defenders(w, territory)) > len(_attackers(w, territory))
    else:
        holds = True  # always
    if not holds:
        return
    for u in sorted(landing, key=lambda u: u.id):
        _back_aboard(w, u)
    turn.log.notes.append(f"{w.power} called off the landing on {territory} ({cond.text}): "
                          f"{units_text(_type_counts(w, landing))} stay aboard in {', '.join(sorted(zones))}")


def _bombarding_ships(w: World, zones: list[str], seaborne: int) -> list[Unit]:
    ships = [u for z in zones for u in w.units_at(z)
             if u.owner == w.power and w.utype(u).bombard > 0 and w.utype(u).has("bombard") and not u.fought and not u.mission]
    ships.sort(key=lambda u: (-w.utype(u).bombard, u.id))
    return ships


def _development_giving_bombardment(turn: Turn, utype: str) -> str | None:
    """The Weapons Development that lets `utype` bombard (Revised: Combined Bombardment, destroyers),
    where the rule system has that phase; for the refusal's reason."""
    w = turn.w
    if w.rules.technology is not None or not any(p.id == "develop_weapons" for p in w.ruleset.phases):
        return None
    from pbem.engine.research import DEVELOPMENTS, NAMES, unit_profiles

    for development in DEVELOPMENTS:
        profile = unit_profiles(w.ruleset.units, frozenset({development})).get(utype)
        if profile is not None and profile.bombard > 0 and profile.has("bombard"):
            return NAMES[development]
    return None


def _chosen_bombardment(turn: Turn, directive: BattleDirective, eligible: list[Unit], seaborne: int, space: str,
                        zones: list[str]) -> list[Unit]:
    """The ships the directive names to bombard (Amphibious Assaults: the attacker chooses), each
    an eligible ship in an offload zone without sea combat, within the rulebook's cap."""

    w = turn.w
    wanted = dict(directive.bombard or {})
    rule = "Amphibious Assaults, bombardment: ships in the offload zone bombard if there was no sea combat there"
    chosen: list[Unit] = []
    for utype, n in sorted(wanted.items()):
        pool = [u for u in eligible if u.type == utype]
        if len(pool) < n:
            others = [u for z in zones for u in w.units_at(z) if u.owner == w.power and u.type == utype]
            # a destroyer of Revised bombards only with Combined Bombardment: its profile says so
            never = [u for u in others if not (w.utype(u).bombard > 0 and w.utype(u).has("bombard"))]
            development = _development_giving_bombardment(turn, utype) if never else None
            # a ship that unloads land units gives no support shot where the rules say so (Pacific)
            unloaded = [u for u in others if u.offloaded_to and not turn.combat_rules.unloading_ships_bombard]
            why = (f"a {utype} of {w.power} does not bombard" + (f" without {development}" if development else "") if never
                   else f"{'it' if len(unloaded) == 1 else 'they'} unloaded land units this turn, and a ship that unloads gives no support shot"
                   if unloaded and len(others) - len(unloaded) <= len(pool)
                   else "they fought in a sea battle this turn" if len(others) > len(pool)
                   else f"{'only ' + count_of(len(pool), utype) + ' of yours' if pool else 'none of yours'} "
                        f"{'is' if len(pool) == 1 else 'are'} in a zone its units offload from, without sea combat there")
            if not turn.validating:  # validated: the dice or a defender's standing orders (kamikaze) changed what may bombard
                turn.log.notes.append(f"{count_of(n, utype)} cannot bombard {space} as things stand at the battle: {why}")
                chosen.extend(pool)
                continue
            turn.problems.append(Problem("illegal", f"{count_of(n, utype)} cannot bombard {space}: {why}", rule=rule,
                                         hint=f"bombard with at most {count_of(len(pool), utype)}" if pool else f"name no {utype} under bombard:",
                                         path=(*directive.yaml_path, "bombard"), code="directive.bombard"))
            continue
        chosen.extend(pool[:n])
    if turn.combat_rules.bombard_cap_per_seaborne_unit and len(chosen) > seaborne:
        if turn.validating:  # validation lands every unit ordered ashore: the orders name too many ships
            turn.problems.append(Problem("illegal", f"{len(chosen)} ships bombard {space}, but only {seaborne} land unit(s) offload there",
                                         rule="Amphibious Assaults: at most one bombarding ship per land unit offloaded",
                                         hint=f"name at most {seaborne} ship(s) under bombard:", path=(*directive.yaml_path, "bombard"), code="directive.bombard"))
        else:  # the dice sank some of the transports on the way: fewer ships may fire, the strongest
            turn.log.notes.append(f"Only {seaborne} of the {len(chosen)} ships named bombard {space}: "
                                  f"one ship per land unit offloaded, and {'only one' if seaborne == 1 else f'only {seaborne}'} reached the shore")
        chosen = sorted(chosen, key=lambda u: (-w.utype(u).bombard, u.id))[:seaborne]
    return chosen


def _allied_ships_in_reach(turn: Turn, space: str, kind: str, attackers: list[Unit], defenders: list[Unit]) -> list[Unit]:
    """CombatRules.allied_ships_take_sub_hits: the attacker's allies' surface ships in a zone where it
    attacks only submarines join its side as casualties that do not fire (Europe, German
    Submarines vs. Allied Ships)."""
    w = turn.w
    if kind != "sea" or not turn.combat_rules.allied_ships_take_sub_hits or not defenders:
        return []
    if not all(w.utype(u).has("submarine") for u in defenders):
        return []
    mine = {u.id for u in attackers}
    return [u for u in w.units_at(space) if u.id not in mine and u.owner != w.power and w.is_friendly(u.owner)
            and w.utype(u).domain == "sea" and not w.utype(u).has("submarine") and not u.submerged]


def _bombardment_pool(turn: Turn, space: str, attackers: list[Unit], bombard_from: list[str] | None) -> tuple[list[Unit], int]:
    """The ships that may bombard `space`, and the units landing there (seaborne or airborne), each
    of which may have a ship bombard for it."""
    w = turn.w
    landing = sum(1 for u in attackers if u.seaborne_from) + sum(1 for u in attackers if u.mission == "airborne")
    ships = _bombarding_ships(w, bombard_from or [], landing) if landing else []
    if not turn.combat_rules.unloading_ships_bombard:
        ships = [s for s in ships if not s.offloaded_to]
    return ships, landing


def _battle(turn: Turn, space: str, kind: str, bombard_from: list[str] | None = None) -> None:
    w = turn.w
    attackers = _attackers(w, space)
    if not attackers:
        return
    if kind == "land":
        # Units a rule gives the defence before the battle (Rules.hooks.free_units, "attacked").
        for grant in turn.free_units("attacked", space=space, attacker=w.power, controller=w.control.get(space),
                                     defenders=frozenset(u.owner for u in _defenders(w, space)),
                                     original_owner=w.space(space).original_owner,
                                     attacked=turn.attacked,
                                     choices={p: so.choices for p, so in turn.standing.items()}):
            turn.give(grant, space)
    defenders = _defenders(w, space)
    if (kind == "land" and not [u for u in defenders if not w.utype(u).has("aa")]
            and (not defenders or any(w.utype(u).domain == "land" for u in attackers))):
        # No combat: the territory is unoccupied or holds only antiaircraft artillery (step 7).  Air
        # units alone attacking such a territory are fired at, then the guns are destroyed (1942,
        # AAA: "If a territory containing AAA units and no combat units is attacked, the AAA units
        # are automatically destroyed"; "fire only at an air unit when that unit attacks"): a battle.
        directive = turn.orders.battles.get(space)
        if turn.validating and directive is not None and directive.bombard is not None:
            # the ships named must be able to bombard even so: at adjudication defenders may land
            # there (a carrier's aircraft one space away) and the battle be fought after all
            _chosen_bombardment(turn, directive, *_bombardment_pool(turn, space, attackers, bombard_from), space, bombard_from or [])
        for u in attackers:
            u.fought = True
        if any(w.utype(u).domain == "land" for u in attackers):
            turn.capture(space, w.power)
        return
    if kind == "sea" and not defenders:
        return
    aa_shots_spent = 0
    if kind == "land" and w.rules.airborne is not None:
        attackers, aa_shots_spent = _fire_at_paratroopers(turn, space, attackers, defenders)
    directive = turn.orders.battles.get(space)
    att_orders = attacker_orders(directive, _attacker_keeps_carriers_fit(turn, space, attackers) if kind == "sea" else True)
    def_orders, def_default = defender_orders(w, space, defenders, turn.standing)
    seaborne = sum(1 for u in attackers if u.seaborne_from)
    ships, landing = _bombardment_pool(turn, space, attackers, bombard_from)
    rules = turn.combat_rules
    if directive is not None and directive.bombard is not None:
        ships = _chosen_bombardment(turn, directive, ships, landing, space, bombard_from or [])
    elif rules.bombard_cap_per_seaborne_unit:
        ships = ships[:landing]
    retreat_to = retreat_spaces(w, space, attackers)
    may_name = retreat_spaces(w, space, attackers, if_subs_submerge=turn.combat_rules.submerge_timing != "never")
    if directive is not None and directive.retreat_to and directive.retreat_to not in retreat_to and not turn.validating:
        # validation played every attack as won; the dice (or an out-of-turn move: Enigma Decoded) left an enemy
        # there, or enemy subs that might have submerged did not
        turn.log.notes.append(f"{w.power} cannot retreat from {space} to {directive.retreat_to} as things stand at the battle: "
                              + (f"a retreat goes to {retreat_to[0]}" if retreat_to else "no retreat is possible"))
    elif directive is not None and directive.retreat_to and directive.retreat_to not in may_name:
        turn.problems.append(Problem(
            "illegal", f"cannot retreat from {space} to {directive.retreat_to}",
            rule="General Combat, step 6: retreat to one adjacent friendly space from which an attacking land or sea unit moved",
            hint="possible: " + (", ".join(retreat_to) or "none")
                 + ("; air units retreat where they are and fly home in noncombat_move: leave out to:"
                    if any(w.utype(u).domain == "air" for u in attackers) else ""),
            path=(*directive.yaml_path, "retreat", "to"), code="directive.retreat-to"))
    passive = _allied_ships_in_reach(turn, space, kind, attackers, defenders)
    attackers = attackers + passive
    owners = sorted({u.owner for u in attackers + defenders})
    profiles = {o: w.profiles_of(o) for o in owners if w.profiles_of(o)}
    dice_per_unit: dict[str, dict[str, int]] = {}
    if w.developments.get(w.power) and w.rules.technology is None:  # Revised's weapons developments
        from pbem.engine.research import attack_dice

        dice_per_unit = {w.power: attack_dice(w.ruleset.units, w.developments[w.power])} if attack_dice(w.ruleset.units, w.developments[w.power]) else {}
    for u in passive:  # they take hits, they do not fire
        dice_per_unit.setdefault(u.owner, {})[u.type] = 0
    aa_hit, aa_immune = None, frozenset()
    first_cycle: dict[str, dict[str, Any]] = {}
    sacrificed: list[tuple[Unit, int]] = []
    if w.rules.hooks.battle_modifiers is not None:
        mods = _battle_modifiers(turn, space, kind, attackers, defenders, seaborne=bool(kind == "land" and seaborne))
        for owner, changed in mods.profiles.items():
            profiles[owner] = {**profiles.get(owner, {}), **changed}
        aa_hit, aa_immune = mods.aa_hit, mods.aa_immune
        # Round-1-only profiles of an amphibious assault's land combat (Revised Atlantic Wall, Marines)
        if kind == "land" and seaborne:
            first_cycle = {o: dict(p) for o, p in getattr(mods, "amphibious_first_cycle", {}).items() if p}
        sacrificed = _sacrifices(turn, space, attackers, defenders, mods)
    if sacrificed:
        gone = {u.id for u, _ in sacrificed}
        attackers = [u for u in attackers if u.id not in gone]
        defenders = [u for u in defenders if u.id not in gone]
    sacrifices: dict[tuple[str, str, str, int], int] = {}
    for u, value in sacrificed:
        key = ("attacker" if w.commands(u) else "defender", u.owner, u.type, value)
        sacrifices[key] = sacrifices.get(key, 0) + 1
    best_of: dict[str, dict[str, int]] = {}
    artillery_supports = None
    tech = w.rules.technology
    if tech is not None:  # breakthroughs the engine applies by name (AMS charts)
        mine = w.developments.get(w.power, frozenset())
        if tech.bombers_best_of_two in mine:  # Heavy Bombers: "roll 2 dice for each strategic bomber and select the best"
            best_of[w.power] = {t: 2 for t, p in w.ruleset.units.items() if p.has("bomber")}
        if tech.artillery_supports_two in mine:  # Heavy Artillery: "support up to 2 attacking infantry"
            artillery_supports = 2
        if tech.aa_bonus is not None and any(tech.aa_bonus in w.developments.get(u.owner, frozenset()) for u in defenders if w.utype(u).has("aa")):
            aa_hit = (rules.aa_hit if aa_hit is None else aa_hit) + 1  # Detection Radar: "AA artillery ... defend at +1"
    boosts = ()
    if w.rules.hooks.battle_boosts is not None:
        boosts = tuple(w.rules.hooks.battle_boosts(w, space, kind=kind, attackers=attackers, defenders=defenders, seaborne=bool(seaborne)))
    battle = cm.Battle(
        space=space, kind=kind, attacker=w.power,  # type: ignore[arg-type]
        boosts=boosts, best_of=best_of, artillery_supports=artillery_supports,
        attackers=_forces(w, attackers), defenders=_forces(w, defenders),
        units=w.ruleset.units, rules=rules,
        damaged=_damaged(defenders), attacker_damaged=_damaged(attackers),
        bombard=tuple(s.type for s in ships),
        # air units retreat where they are and land in the noncombat move, so an attack with air
        # units can always retreat, even by air units alone (Step 6, Condition B)
        can_retreat=bool(retreat_to) or any(w.utype(u).domain == "air" for u in attackers), retreat_to=retreat_to,
        profiles=profiles, attack_dice=dice_per_unit, aa_hit=aa_hit, aa_immune=aa_immune, aa_shots_spent=aa_shots_spent,
        first_cycle_profiles=first_cycle,
        sacrifices=(*(cm.Sacrifice(side, o, t, n, v) for (side, o, t, v), n in sorted(sacrifices.items())),  # type: ignore[arg-type]
                    *(kamikaze_sacrifices(turn, turn.kamikaze_strikes[space]) if kind == "sea" and space in turn.kamikaze_strikes else ())),
    )
    if turn.validating and directive is not None:
        _warn_idle_directive(turn, directive, battle, attackers, kind, bool(seaborne))
    defaults = []
    if directive is None:
        # no land unit kept to capture where none attacks (aircraft alone): the sea default's words
        keeps = kind == "land" and any(w.utype(u).domain == "land" for u in attackers)
        defaults.append(DEFAULT_ATTACK if keeps else DEFAULT_SEA_ATTACK)
    if def_default:
        defaults.append(DEFAULT_DEFENCE)
    entry: dict[str, Any] = {"battle": battle, "attacker_orders": att_orders, "defender_orders": def_orders,
                             "defaults": defaults, "amphibious": bool(seaborne), "bombard": [s.type for s in ships]}
    if not def_default:  # whose standing orders chose the defence's losses, and which of their entries
        governor = _defence_governor(defenders)
        orders_of = turn.standing.get(governor) if governor else None
        if governor and orders_of is not None:
            entry["defence_orders"] = {"power": governor, "space": space if space in orders_of.per_space else None}
    for s in ships:
        s.fought = True
    for u, _ in sacrificed:  # lost the moment they fire (Revised FAQ, Kamikaze and Kaiten)
        if u.id in w.units:
            w.remove(u)
    if turn.validating:
        outcome = None
        # AA guns that are never casualties stay, to change hands with the territory (Pacific,
        # Antiaircraft Guns Example: "The two AA guns in Burma are now under Japanese control")
        captured = [u for u in defenders if kind == "land" and w.utype(u).has("aa") and not turn.combat_rules.aa_can_be_casualty]
        standing = [u for u in _beyond_reach(w, turn.combat_rules, kind, attackers, defenders) if u not in captured]
        for u in defenders:
            if u.id in w.units and u not in standing and u not in captured:
                w.remove(u)
        for u in attackers:
            u.fought = True
            if w.rules.hooks.move_after_battle is not None:  # validation assumes a one-round win
                u.after_battle_move = w.rules.hooks.move_after_battle(turn.options, w.power, w.utype(u), kind=kind, rounds=1, winner="attacker")
        if kind == "land" and any(w.utype(u).domain == "land" for u in attackers) and not standing:
            turn.capture(space, w.power)
    else:
        from pbem.engine.combat.fight import fight

        outcome = fight(battle, turn.dice, att_orders, def_orders, low_luck=bool(turn.options.get("low_luck", False)))
        entry["lost_aboard"] = _apply(turn, space, attackers, defenders, _without_sacrificed(outcome))
        if outcome.retreated_to and directive is not None and not directive.retreat_to and len(battle.retreat_to) > 1:
            # the report lists each default it used
            defaults.append(f"no retreat space in the directive: the retreat went to {outcome.retreated_to}, "
                            f"the first by name of {', '.join(battle.retreat_to)}")
    entry["outcome"] = outcome
    turn.log.battles.append(entry)


def _bombers_first(directive: BattleDirective | None, bombers: list[Unit], escorts: list[Unit]) -> bool:
    """The raid's air battle: "The attacking player removes his casualties (attacker's choice of
    bombers or fighters)" (Europe, SBR step 4 D).  A directive's order of loss naming a bomber before
    the escorts loses bombers first; the default keeps the bombers, which do the damage."""
    if directive is None or not directive.order_of_loss:
        return False
    ool = list(directive.order_of_loss)
    first_bomber = min((ool.index(u.type) for u in bombers if u.type in ool), default=None)
    first_escort = min((ool.index(u.type) for u in escorts if u.type in ool), default=None)
    return first_bomber is not None and (first_escort is None or first_bomber < first_escort)


def _beyond_reach(w: World, rules: CombatRules, kind: str, attackers: list[Unit], defenders: list[Unit]) -> list[Unit]:
    """The defenders no attacking unit could ever hit: validation, which plays every attack as won
    ("you may assume that all of your attacking rolls will be hits"), leaves them standing, for a
    hit needs a unit that can take it (transports alone fire nothing; air units hit no submarine
    without a destroyer, submarines no air unit, where the rules say so: the fire classes of the
    combat engine, `combat.casualties.can_hit`)."""
    from pbem.engine.combat.casualties import can_hit

    strikers = [w.utype(u) for u in attackers if w.utype(u).attack > 0]
    air_class = "not_sub" if (kind == "sea" and rules.air_hits_subs != "always"
                              and not any(p.has("destroyer") for p in strikers)) else "any"
    sub_class = "any" if rules.subs_can_hit_air else "not_air"
    classes = {sub_class if p.has("submarine") else air_class if p.domain == "air" else "any" for p in strikers}
    return [u for u in defenders if not any(can_hit(c, w.utype(u)) for c in classes)]  # type: ignore[arg-type]


def _battle_modifiers(turn: Turn, space: str, kind: str, attackers: list[Unit], defenders: list[Unit], *, seaborne: bool = False) -> Any:
    """What the rule system's `battle_modifiers` hook changes in a battle of these units (the hook is set)."""
    w = turn.w
    counts: dict[str, int] = {}
    for u in attackers:
        counts[u.type] = counts.get(u.type, 0) + 1
    hook = w.rules.hooks.battle_modifiers
    assert hook is not None
    return hook(turn.options, w.ruleset.units, kind=kind, attacker=w.power, defenders=frozenset(u.owner for u in defenders),
                attacking_units=counts, original_owner=w.space(space).original_owner, controller=w.control.get(space),
                island=w.space(space).island, super_submarines=frozenset(p for p, d in w.developments.items() if "super_submarines" in d),
                attacking_subs_moved_in=sum(1 for u in attackers if w.utype(u).has("submarine") and u.phase == "combat"),
                round=turn.state.round, seaborne=seaborne, aa_owners=frozenset(u.owner for u in defenders if w.utype(u).has("aa")))


def _interceptor_rules(turn: Turn, space: str, interceptors: list[Unit]) -> Any:
    """The combat rules of a raid's air battle: interceptors defend at the rules' interceptor value,
    never above the defence a rule of the turn leaves their units (Pacific, Japan's first turn:
    "Allied units may defend only with a roll of 1" - the dogfight's fighters too)."""
    w = turn.w
    rules = turn.combat_rules
    hook = w.rules.hooks.battle_modifiers
    if hook is None or not interceptors:
        return rules
    mods = _battle_modifiers(turn, space, "raid", [], interceptors)
    lowest = min((mods.profiles.get(u.owner, {}).get(u.type, w.utype(u)).defense for u in interceptors), default=rules.interceptor_defense)
    if lowest >= rules.interceptor_defense:
        return rules
    import dataclasses

    return dataclasses.replace(rules, interceptor_defense=lowest)


def _fire_at_paratroopers(turn: Turn, space: str, attackers: list[Unit], defenders: list[Unit]) -> tuple[list[Unit], int]:
    """Rules.airborne: paratroopers "are vulnerable to enemy AAA as if they were being transported on one
    air unit" - the defenders' antiaircraft fire one die at each group from one base, before the battle,
    hitting as at an aircraft; a hit group is lost whole (DIGEST §5 AMS.14).  Each group is one of the
    aircraft the guns' shots are counted against ("Each AAA unit in the territory may fire up to 3
    shots, but each airplane can only be shot at once", E29): the groups are fired at first, and the
    shots they take are not fired again at the aircraft in the battle.  The attackers left, and the
    shots spent (Battle.aa_shots_spent)."""
    w = turn.w
    groups: dict[str, list[Unit]] = {}
    for u in attackers:
        if u.mission == "airborne":
            groups.setdefault(u.start, []).append(u)
    guns = [u for u in defenders if w.utype(u).has("aa")]
    if not groups or not guns or turn.validating:
        return attackers, 0
    value = turn.combat_rules.aa_hit
    tech = w.rules.technology
    if tech is not None and tech.aa_bonus is not None and any(tech.aa_bonus in w.developments.get(g.owner, frozenset()) for g in guns):
        value += 1
    bases = sorted(groups)
    per_gun = turn.combat_rules.aa_shots_per_unit
    if per_gun is not None:
        bases = bases[:len(guns) * per_gun]  # the shots the guns have (one gun's dice per aircraft where None)
    faces = turn.dice.roll(f"battle/{space}/aa-paratroopers", len(bases))
    lost: set[int] = set()
    for base, face in zip(bases, faces):
        hit = face <= value
        turn.log.rolls.append({"step": "aa-overflight", "power": w.control.get(space) or guns[0].owner,
                               "what": f"antiaircraft fire at the paratroopers from {base} over {space} (hit on {value})",
                               "dice": [face], "result": f"{len(groups[base])} paratroopers lost" if hit else "missed"})
        if hit:
            for u in groups[base]:
                lost.add(u.id)
                w.remove(u)
    return [u for u in attackers if u.id not in lost], len(bases)


def _sacrifices(turn: Turn, space: str, attackers: list[Unit], defenders: list[Unit], mods: Any) -> list[tuple[Unit, int]]:
    """Units designated to fire in opening fire and be lost, with the value they fire at
    (`Battle.sacrifices`; Revised Kamikaze Attacks, Kaiten Torpedoes): attackers whose combat move
    had mission "kamikaze", and up to `kaiten` defending submarines of a standing order.  The
    rules' `battle_modifiers` result prices them (`sacrifice_values`: owner -> unit -> value)."""
    w = turn.w
    values = getattr(mods, "sacrifice_values", None) or {}
    if not values or not w.is_sea(space):
        return []
    out = [(u, values[u.owner][u.type]) for u in attackers
           if u.mission == "kamikaze" and u.type in values.get(u.owner, {})]
    home = getattr(mods, "sacrifice_home_waters", frozenset())
    for owner in sorted({u.owner for u in defenders}):
        if owner not in values:
            continue
        so = turn.standing.get(owner)
        wanted = int(getattr(so.policy_for(space), "kaiten", 0) or 0) if so is not None else 0
        if not wanted:
            continue
        # Kaiten Torpedoes: a zone that "borders an orange territory or island group you control" - a
        # home territory still held, or any island group held, whoever had it first
        if owner in home and not any(w.control.get(n) == owner and (w.space(n).original_owner == owner or w.space(n).island)
                                     for n in w.board.neighbours(space) if not w.is_sea(n)):
            continue
        mine = sorted((u for u in defenders if u.owner == owner and u.type in values[owner]), key=lambda u: u.id)
        out.extend((u, values[owner][u.type]) for u in mine[:wanted])
    return out


def _without_sacrificed(outcome: cm.BattleOutcome) -> cm.BattleOutcome:
    """The outcome's losses without the sacrificed units (removed by id before the battle)."""
    if not outcome.sacrificed:
        return outcome

    def minus(lost: cm.Counts) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for owner, by in lost.items():
            for t, n in by.items():
                left = n - outcome.sacrificed.get(owner, {}).get(t, 0)
                if left > 0:
                    out.setdefault(owner, {})[t] = left
        return out

    return dataclasses.replace(outcome, attacker_lost=minus(outcome.attacker_lost), defender_lost=minus(outcome.defender_lost))


def _take(units: list[Unit], lost: cm.Counts, w: World, prefer_empty: bool, aboard: Aboard,
          aloft: frozenset[int] = frozenset(), seaborne_lost: cm.Counts | None = None) -> None:
    """Removes the casualties; `aloft`: aircraft aboard that are in the air though they do not fight;
    `seaborne_lost`: how many of them are seaborne (or airborne) land units, as the battle chose."""
    load = _loads(w) if lost else {}
    for owner, by_type in lost.items():
        for utype, n in by_type.items():
            pool = [u for u in units if u.owner == owner and u.type == utype and u.id in w.units]
            # Which of several identical units dies, as a strong player chooses: the transport
            # carrying least first on either side (the attacker's load includes the land units it
            # carries to a landing from this zone), and the air unit least able to fly home
            pool.sort(key=lambda u: (load.get(u.id, 0), -u.moved if w.utype(u).domain == "air" else 0,
                                     u.id if prefer_empty else -u.id))
            if seaborne_lost is not None:
                landed = [u for u in pool if u.seaborne_from or u.mission == "airborne"]
                overland = [u for u in pool if not (u.seaborne_from or u.mission == "airborne")]
                k = min(seaborne_lost.get(owner, {}).get(utype, 0), n)
                pool = landed[:k] + overland[:n - k] + landed[k:] + overland[n - k:]
            for u in pool[:n]:
                # Air units that fought from a sunk carrier are in the air: they survive it unless
                # they were hit themselves (then they are among the losses).
                fighting = {x.id for x in units}
                for rider in w.cargo_of(u):
                    if (rider.id in fighting or rider.id in aloft) and w.utype(rider).domain == "air":
                        rider.carrier = None
                _went_down(w, u, aboard)
                w.remove(u)


def _loads(w: World) -> dict[int, int]:
    """Host id -> the land and air units it carries, with those it carries to a landing from its
    zone (read once per battle, not once per unit compared)."""
    load: dict[int, int] = {}
    for r in w.units.values():
        if r.carrier is not None:
            load[r.carrier] = load.get(r.carrier, 0) + 1
        elif r.came_by is not None and r.seaborne_from is not None:
            host = w.units.get(r.came_by)
            if host is not None and r.seaborne_from == host.space and r.space != host.space:
                load[host.id] = load.get(host.id, 0) + 1
    return load


def _went_down(w: World, host: Unit, aboard: Aboard) -> None:
    """Cargo does not fight, so its loss is in no casualty list: counted here, for the report.  So
    are the land units it was to offload in an amphibious assault from this zone: sunk in the zone's
    sea battle, it takes them down too (`_land_or_lose_cargo`)."""
    for rider in w.cargo_of(host):
        aboard.setdefault((rider.owner, rider.type, host.type), []).append(host.id)
    for rider in sorted(w.units.values(), key=lambda u: u.id):
        if rider.came_by == host.id and rider.seaborne_from == host.space:
            aboard.setdefault((rider.owner, rider.type, host.type), []).append(host.id)


def _apply(turn: Turn, space: str, attackers: list[Unit], defenders: list[Unit], outcome: cm.BattleOutcome) -> Aboard:
    """Applies the outcome to the board; returns the cargo lost with the units that carried it."""
    w = turn.w
    grounded = w.grounded_air(space)
    aboard: Aboard = {}
    # Aircraft of a power the mover is not at war with, aboard a sound carrier of the defence, take no
    # part but are in the air: if their carrier sinks they are stranded, not lost with it (the 1940
    # Europe FAQ the AMS guide quotes: "air units on undamaged carriers will not take part in the
    # battle, but will remain in the sea zone (if their carrier is sunk or damaged, they will be
    # treated as stranded air units)"; those on a damaged carrier "remain cargo").
    aloft = frozenset(u.id for u in w.units_at(space) if u.carrier is not None and w.utype(u).domain == "air"
                      and w.relation(u.owner) == "peace" and u.id not in grounded) if w.is_sea(space) else frozenset()
    hosts = {}  # the type of carrier each grounded aircraft sat on (one of its side's in the zone)
    for i in grounded:
        side = w.ruleset.side_of(w.units[i].owner)
        decks = sorted((c for c in w.units_at(space) if w.utype(c).has("carrier") and w.ruleset.side_of(c.owner) == side),
                       key=lambda c: (c.id != w.units[i].carrier, not c.damaged, c.id))
        if decks:
            hosts[i] = decks[0].type
    _take(attackers, outcome.attacker_lost, w, prefer_empty=False, aboard=aboard, seaborne_lost=outcome.seaborne_lost)
    _take(defenders, outcome.defender_lost, w, prefer_empty=True, aboard=aboard, aloft=aloft)
    _sink_grounded(w, space, grounded, aboard, hosts)
    _mark_damaged(w, attackers + defenders, outcome)
    if w.is_sea(space) and w.rules.movement.damaged_carriers_hold_no_air:
        # Defending aircraft whose carrier was damaged under them may not land on it: they are
        # stranded as if it had sunk (`_land_stranded` below; Europe 1940 FAQ: "if their carrier is
        # sunk or damaged, they will be treated as stranded air units"); those that sat on it damaged
        # from the start stay aboard as its cargo.
        for i in sorted(w.grounded_air(space) - grounded):
            u = w.units[i]
            if not w.commands(u):
                u.carrier = None
    for u in attackers:
        if u.id in w.units and w.commands(u):
            u.fought = True
    # Aircraft that retreated stay where they are and fly away in noncombat move; they are marked
    # for the antiaircraft fire on the way (Rules.movement.aa_fires_at_overflight).
    flew_off = {(o, t): n for o, by in outcome.retreated.items() for t, n in by.items()}
    for u in attackers:
        if u.id in w.units and w.utype(u).domain == "air" and w.commands(u) and flew_off.get((u.owner, u.type), 0) > 0:
            flew_off[(u.owner, u.type)] -= 1
            u.retreated = True
    if outcome.retreated_to:
        moved = {(o, t): n for o, by in outcome.retreated.items() for t, n in by.items()}
        for u in attackers:
            if u.id not in w.units or w.utype(u).domain == "air" or u.seaborne_from or not w.commands(u):
                continue  # an ally's ships that only took hits stay where they are
            key = (u.owner, u.type)
            if moved.get(key, 0) > 0:
                moved[key] -= 1
                u.space = outcome.retreated_to
                u.retreated = True
                for rider in w.cargo_of(u):
                    rider.space = u.space
    for owner, by_type in outcome.submerged.items():
        for utype, n in by_type.items():
            for u in [u for u in attackers + defenders if u.owner == owner and u.type == utype and u.id in w.units][:n]:
                u.submerged = True
    if outcome.captured:
        turn.capture(space, w.power)
    elif (w.rules.economy.convoy_captured_in_passing and (w.space(space).convoy or w.space(space).convoy_route is not None)
          and w.is_enemy(w.control.get(space))
          and not any(u.id in w.units and not u.submerged for u in defenders)
          and any(u.id in w.units and not u.submerged and w.utype(u).domain == "sea" and w.utype(u).attack > 0
                  for u in attackers)):
        # Battle of the Atlantic: every defender sunk or submerged, and the attacker keeps a warship.
        turn.capture(space, w.power)
    elif (w.rules.economy.convoy_taken_in_stalemate_by_submarines and outcome.winner == "none"
          and (w.space(space).convoy or w.space(space).convoy_route is not None) and w.is_enemy(w.control.get(space))
          and any(u.id in w.units and not u.submerged and not u.retreated and w.utype(u).has("submarine")
                  and u.space == space for u in attackers)):
        # Pacific: only submarines and aircraft left, neither able to hit the other; a surfaced
        # attacking submarine takes the zone.
        turn.capture(space, w.power)
    if w.rules.hooks.move_after_battle is not None:
        for u in attackers:
            if u.id in w.units and not u.retreated:
                u.after_battle_move = w.rules.hooks.move_after_battle(turn.options, w.power, w.utype(u), kind="sea" if w.is_sea(space) else "land",
                                                                rounds=outcome.rounds, winner=outcome.winner)
    if not w.is_sea(space):
        for grant in turn.free_units("defended", space=space, attacker=w.power, winner=outcome.winner,
                                     attacker_lost=outcome.attacker_lost, controller=w.control.get(space),
                                     original_owner=w.space(space).original_owner):
            turn.give(grant, space)
    if w.is_sea(space):
        turn.stranded.append((space, grounded & w.grounded_air(space)))  # they land after all combat
    return aboard


def _land_stranded(turn: Turn, zone: str, aboard: frozenset[int] = frozenset()) -> None:
    """Defending air units whose carrier sank land on another carrier there, or move one space to a
    friendly territory or carrier, or are lost (Aircraft Carriers; done before the mover's noncombat).
    `aboard`: aircraft that stay on the damaged carrier they sat on as cargo before the battle."""
    w = turn.w
    # Rules.movement.stranded_air_avoids_contested: not into a space with a battle this turn.
    avoid = turn.contested if w.rules.movement.stranded_air_avoids_contested else set()
    for u in sorted(w.units_at(zone), key=lambda u: u.id):
        if w.commands(u) or w.utype(u).domain != "air" or u.carrier is not None or u.mission == SCRAMBLED or u.id in aboard:
            continue  # (scrambled units fly home to their base after all combat: scramble.fly_home)
        if u.mission == "cap":
            continue  # a combat air patrol flies on until its owner's next turn (Pacific, Phase 2: "must land in Phase 2 of your next turn")
        host = _carrier_with_room(w, zone, u)
        if host is not None:
            u.carrier = host.id
            continue
        # 1940: a carrier damaged in the battle floats on but takes no aircraft (Rules.movement.damaged_carriers_hold_no_air)
        damaged = any(w.utype(h).has("carrier") and h.damaged and w.shares_with(h.owner, u.owner) for h in w.units_at(zone))
        _land_one_space_away(turn, u, zone, avoid, f"its carrier {'was damaged' if damaged else 'sank'} and no landing is one space away",
                             f"{u.type} of {u.owner} from the {'damaged' if damaged else 'sunk'} carrier in {zone} landed in {{}}")


def _carrier_with_room(w: World, space: str, u: Unit) -> Unit | None:
    hosts = [h for h in w.units_at(space) if w.utype(h).has("carrier") and w.shares_with(h.owner, u.owner) and w.has_room(h, u.type)]
    return hosts[0] if hosts else None


def _land_one_space_away(turn: Turn, u: Unit, frm: str, avoid: set[str], lost: str, note: str) -> None:
    """An air unit that may only move one space to land (stranded fighters, interceptors whose
    territory fell): the first friendly territory or carrier with room next to `frm`, not in
    `avoid` - its own power's territories first, then in name order; else it is lost."""
    w = turn.w
    barred = w.rules.hooks.move_restriction  # 1940, P14: a power at war with no one keeps to its own territories
    own = set(w.ruleset.countries_of(u.owner))
    for n in sorted(w.board.neighbours(frm), key=lambda n: (w.control.get(n) not in own or not w.space(n).is_land, n)):
        if n in avoid:
            continue
        if barred is not None and barred(turn.options, u.owner, units=[w.utype(u)], owners=frozenset({u.owner}), phase="noncombat",
                                         domain="air", path=(n,), frm=frm, world=w):
            continue
        sp = w.space(n)
        if sp.is_land and not sp.impassable and w.is_friendly_territory(n, of=u.owner):
            u.space = n
            turn.log.notes.append(note.format(n))
            return
        host = _carrier_with_room(w, n, u) if sp.is_sea else None
        if host is not None:
            u.space, u.carrier = n, host.id
            turn.log.notes.append(note.format(n))
            return
    turn.log.lost_air.append({"unit": u.type, "owner": u.owner, "space": frm, "reason": lost})
    w.remove(u)


def _type_counts(w: Any, units: list[Unit]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for u in units:
        name = w.utype(u).name
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items()))


def _raid(turn: Turn, space: str, raiders: list[Unit]) -> None:
    """The raids on `space`: one per facility struck (Unit.raid_target; 1940: a complex, an air base,
    a naval base) and kind of damage die, the escorts and interceptors fighting the one air battle of
    the territory with the first ("there is only one air battle per territory regardless of the
    number of facilities being bombed", E17)."""
    w = turn.w
    groups: dict[tuple[int, str, int | None], list[Unit]] = {}
    for u in raiders:
        if u.mission != "strategic_bombing":
            continue
        target = u.raid_target or ""
        first = 0 if not target or w.ruleset.units[target].has("factory") else 1
        groups.setdefault((first, target, w.utype(u).bombing_bonus), []).append(u)
    escorts = [u for u in raiders if u.mission != "strategic_bombing"]
    keys = sorted(groups, key=lambda k: (k[0], k[1], -1 if k[2] is None else k[2]))
    if not keys:
        _raid_one(turn, space, escorts, None, None, space, fights_air_battle=True)
        return
    labels: list[str] = []
    for key in keys:
        target = key[1]
        label = space if not target or w.ruleset.units[target].has("factory") else f"{space}/{target}"
        while label in labels:
            label += "/2"
        labels.append(label)
    shares = _shared_air_battle(turn, space, [groups[k] for k in keys], escorts, labels[0],
                                [k[1] or _complex_name(w, space) for k in keys])
    for i, key in enumerate(keys):
        _, target, bonus = key
        _raid_one(turn, space, groups[key] + (escorts if i == 0 else []), target or None, bonus, labels[i], fights_air_battle=i == 0,
                  shared=None if shares is None else shares[i])


@dataclass(frozen=True)
class _AirBattleShare:
    """One raid's part in the air battle its territory's raids fight together (`_shared_air_battle`)."""

    fought: Any  # sbr.AirBattle: this raid's losses; the first raid's holds the battle's dice
    interceptors: list[Unit]  # every interceptor (the first raid reports them and removes those lost)
    first: bool
    with_raids: tuple[str, ...]  # the first raid: the facilities the other raiders struck; the others: the first raid's


def _complex_name(w: World, space: str) -> str:
    """The raided complex's unit name in `space` (a raid with no facility named strikes it)."""
    return next((u.type for u in w.units_at(space) if w.utype(u).has("factory")), "industrial complex")


def _bomber_like(w: World, u: Unit) -> bool:
    return w.utype(u).has("bomber") or bool(w.utype(u).bombs)


def _interceptors(turn: Turn, space: str) -> list[Unit]:
    """"The number of defending fighters that will intercept is decided by the owning player(s)"
    (1942, SBR optional rule): each power's standing orders send up its own fighters there - all of
    them (true), or as many as they say: some may stay to defend."""
    w = turn.w
    interceptors: list[Unit] = []
    by_power: dict[str, list[Unit]] = {}
    for u in sorted((u for u in w.enemy_units_at(space) if w.utype(u).has("fighter")), key=lambda u: u.id):
        by_power.setdefault(w.ruleset.power_name(u.owner), []).append(u)
    for power, fighters in sorted(by_power.items()):
        so = turn.standing.get(power)
        wanted = so.policy_for(space).intercept if so is not None else False
        if wanted:
            interceptors += fighters if wanted is True else fighters[:int(wanted)]
    interceptors.sort(key=lambda u: u.id)
    return interceptors


def _escorts_allowed(turn: Turn) -> bool:
    rule = turn.combat_rules.escorts
    return rule == "always" or (rule == "option" and bool(turn.options.get("escorts_and_interceptors", False)))


def _shared_air_battle(turn: Turn, space: str, groups: list[list[Unit]], escorts: list[Unit], label: str,
                       facilities: list[str]) -> list[_AirBattleShare] | None:
    """Raids on several facilities of one territory fight one air battle, every raider in it (1940,
    E17: "there is only one air battle per territory regardless of the number of facilities being
    bombed. ... The only units that participate in the air battle are the bombers performing the
    raid, escorts, and interceptors"): fought here, with the first raid's label, its bombers lost
    in the directive's order of loss, else cheapest first across the raids (a strong player's
    choice).  None where the raids do not share one (a single raid fights its own, as does
    validation, which rolls no dice)."""
    w = turn.w
    rules = turn.combat_rules
    if len(groups) < 2 or turn.validating or not rules.air_battle_rounds or rules.sbr_aa_before_air_battle or not _escorts_allowed(turn):
        return None
    interceptors = _interceptors(turn, space)
    if not interceptors:
        return None
    from pbem.engine.combat.sbr import AirBattle, air_battle

    bombers = [[u for u in g if _bomber_like(w, u)] for g in groups]
    dive = [[u for u in g if not _bomber_like(w, u)] for g in groups]  # Unit.mission "strategic_bombing" (groups hold no escort)
    every = [u for g in bombers for u in g]
    interceptor_bonus, escort_bonus = (0, ""), (0, "")
    if w.rules.hooks.air_battle_bonus is not None:
        interceptor_bonus = w.rules.hooks.air_battle_bonus(w, space, side="defender", units=interceptors)
        if escorts:
            escort_bonus = w.rules.hooks.air_battle_bonus(w, space, side="attacker", units=escorts)
    battle = air_battle(label, turn.dice, _interceptor_rules(turn, space, interceptors), bombers=len(every), escorts=len(escorts),
                        interceptors=len(interceptors), dive_bombers=sum(map(len, dive)),
                        lose_bombers_first=_bombers_first(turn.orders.battles.get(space), every, escorts),
                        interceptor_bonus=interceptor_bonus, escort_bonus=escort_bonus)
    # the bombers lost: in the order of loss of the territory's battle directive, else cheapest first
    directive = turn.orders.battles.get(space)
    ool = list(directive.order_of_loss) if directive is not None and directive.order_of_loss else []
    ranked = sorted(((ool.index(u.type) if u.type in ool else len(ool), w.utype(u).cost, i, u.id)
                     for i, g in enumerate(bombers) for u in g))[:battle.bombers_lost]
    lost = [sum(1 for *_, i, _ in ranked if i == k) for k in range(len(groups))]
    dive_lost, left = [], battle.dive_lost
    for g in dive:
        dive_lost.append(min(left, len(g)))
        left -= dive_lost[-1]
    shares = []
    for k in range(len(groups)):
        if k == 0:
            fought = AirBattle(lost[0], battle.escorts_lost, battle.interceptors_lost, dive_lost[0], battle.events)
            with_raids = tuple(facilities[1:])
        else:
            fought = AirBattle(lost[k], 0, 0, dive_lost[k], ())
            with_raids = (facilities[0],)
        shares.append(_AirBattleShare(fought, interceptors, k == 0, with_raids))
    return shares


def _raid_one(turn: Turn, space: str, raiders: list[Unit], target: str | None, bonus: int | None, label: str, *,
              fights_air_battle: bool, shared: _AirBattleShare | None = None) -> None:
    """Strategic bombing raid on one facility in `space` (Conduct Combat, step 1): the complex, or the
    `target` facility (1940), with the escort and interceptor air battle where this raid fights it."""
    w = turn.w
    if not raiders:
        return
    key = space if target is None or w.ruleset.units[target].has("factory") else f"{space}/{target}"
    cap = w.facility_max_damage(space) if key == space else w.ruleset.units[target].max_damage  # type: ignore[index]

    bombers = [u for u in raiders if _bomber_like(w, u)]
    # Units that are no bombers but were let fly the raid itself (movement: Rules.hooks.may_bomb; Revised
    # Luftwaffe Dive-Bombers) bomb with halved dice; the other fighters escort.
    dive = [u for u in raiders if not _bomber_like(w, u) and u.mission == "strategic_bombing"]
    escorts = [u for u in raiders if not _bomber_like(w, u) and u.mission != "strategic_bombing"]
    for u in raiders:
        u.fought = True
    rule = turn.combat_rules.escorts
    option = _escorts_allowed(turn)
    if escorts and not option:
        turn.problems.append(Problem("illegal", "fighters escort bombing raids only with the optional rule escorts_and_interceptors"
                                     if rule == "option" else "only bombers fly strategic bombing raids in this game",
                                     rule="Strategic Bombing Raids, optional rule: escorts and interceptors", hint="attack with the fighters instead, or agree on the option when the game is created",
                                     path=escorts[0].order or ("combat_move",), code="raid.escort-option"))
        return
    interceptors: list[Unit] = []
    if shared is not None:
        interceptors = shared.interceptors if shared.first else []
    elif option and fights_air_battle:
        interceptors = _interceptors(turn, space)
    met = len(shared.interceptors) if shared is not None else len(interceptors)  # the interceptors these raiders met
    entry: dict[str, Any] = {"space": space, "bombers": len(bombers), "escorts": len(escorts), "interceptors": len(interceptors),
                             "ipc": w.space(space).ipc, "damage_before": w.damage.get(key, 0), "max_damage": cap}
    if target is not None:
        entry["facility"] = target
    if bonus is not None:
        entry["damage_bonus"] = bonus
    if dive:
        entry["dive_bombers"] = len(dive)
    # the units as the report names them: every unit that flew the raid, and the escorts apart
    entry["raiders"] = _type_counts(w, bombers + dive)
    entry["escort_units"] = _type_counts(w, escorts)
    if shared is not None:  # one air battle for the territory's raids, told with the first
        entry["air_battle_with"] = list(shared.with_raids)
        entry["air_battle_first"] = shared.first
    if turn.validating or not (bombers or dive):
        entry["outcome"] = None
        turn.log.bombing.append(entry)
        return
    from pbem.engine.combat.sbr import bombing_raid

    victim = w.control.get(space)
    aa_guns = sum(1 for u in w.enemy_units_at(space) if w.utype(u).has("aa"))
    from pbem.engine.research import raid_damage_dice

    aa_hit, aa_immune = None, False
    if victim:
        counts: dict[str, int] = {}
        for u in raiders:
            counts[u.type] = counts.get(u.type, 0) + 1
        aa_hit, immune = aa_modifiers(turn, space, frozenset({victim}), counts,
                                      gunners=frozenset(u.owner for u in w.enemy_units_at(space) if w.utype(u).has("aa")) or None)
        aa_immune = any(w.utype(b).name in immune for b in bombers) and bool(bombers)
    rules = turn.combat_rules
    based = 0
    if rules.sbr_air_base is not None and bonus is None:
        # AMS: +1 for a strategic bomber that "departed from an operational air base"
        based = sum(1 for b in bombers if any(
            f.type == rules.sbr_air_base and w.is_friendly(f.owner) and w.damage.get(f"{b.start}/{f.type}", 0) < (w.utype(f).inoperable_at or 10**6)
            for f in w.units_at(b.start)))
    tech = w.rules.technology
    best_of = 2 if tech is not None and tech.bombers_best_of_two in w.developments.get(w.power, frozenset()) and bonus is None else 1
    if tech is not None and tech.aa_bonus is not None and victim and tech.aa_bonus in w.developments.get(w.ruleset.power_name(victim), frozenset()):
        aa_hit = (rules.sbr_aa_hit if aa_hit is None else aa_hit) + 1  # Detection Radar: "built in AA guns on facilities now defend at +1"
    interceptor_bonus, escort_bonus = (0, ""), (0, "")
    if w.rules.hooks.air_battle_bonus is not None and interceptors:
        interceptor_bonus = w.rules.hooks.air_battle_bonus(w, space, side="defender", units=interceptors)
    if w.rules.hooks.air_battle_bonus is not None and escorts:
        escort_bonus = w.rules.hooks.air_battle_bonus(w, space, side="attacker", units=escorts)
    if target is not None and not w.ruleset.units[target].built_in_aa:
        aa_immune = True  # the facility has no gun of its own (AMS pill box)
    raid_rules = _interceptor_rules(turn, space, interceptors)
    outcome = bombing_raid(label, w.space(space).ipc, w.damage.get(key, 0), len(bombers), turn.dice, raid_rules,
                           escorts=len(escorts), interceptors=met, aa_guns=aa_guns, facility=target,
                           treasury=w.treasury.get(victim, 0) if victim else 0,
                           damage_dice=None if tech is not None else raid_damage_dice(w.developments.get(w.power, frozenset())), dive_bombers=len(dive),
                           aa_immune=aa_immune, aa_hit=aa_hit, max_damage=cap, damage_bonus=bonus, based_bombers=based, best_of=best_of,
                           interceptor_bonus=interceptor_bonus, escort_bonus=escort_bonus,
                           lose_bombers_first=_bombers_first(turn.orders.battles.get(space), bombers, escorts),
                           fought=None if shared is None else shared.fought)
    # AMS's bonuses, for the bombers that came through (`bombing_raid` adds them the same way): the
    # damage line names them, or its sum would not be that of its dice
    flying = len(bombers) - outcome.bombers_lost
    extras = []
    if based and rules.sbr_air_base_bonus and flying:
        extras.append(f"+{rules.sbr_air_base_bonus} for {count_of(min(based, flying), 'bomber')} from an operational {rules.sbr_air_base}")
    if not met and rules.sbr_unintercepted_bonus and bonus is None and flying:
        extras.append(f"+{rules.sbr_unintercepted_bonus} for each bomber, no interceptors met")
    if extras:
        entry["damage_extras"] = extras
        if not turn.validating:
            turn.log.notes.append(f"Raid on {label}: " + "; ".join(extras))
    for group, lost in ((bombers, outcome.bombers_lost), (escorts, outcome.escorts_lost), (interceptors, outcome.interceptors_lost),
                        (dive, outcome.dive_bombers_lost)):
        for u in sorted(group, key=lambda u: u.id)[:lost]:
            w.remove(u)
    for u in interceptors:
        if u.id in w.units:
            u.mission = "intercepted"  # interceptors fight in no other battle this turn
            u.fought = True
    if turn.combat_rules.sbr_loss == "treasury":
        # Revised: the owner surrenders IPCs to the bank instead of the complex taking damage.
        if victim:
            w.treasury[victim] = w.treasury.get(victim, 0) - outcome.ipcs_lost
            turn.lose_victory_points(victim, outcome.ipcs_lost, f"{count_of(outcome.ipcs_lost, 'IPC')} surrendered to the raid on {space}")
    else:
        w.damage[key] = w.damage.get(key, 0) + outcome.damage_applied
    entry["outcome"] = outcome
    turn.log.bombing.append(entry)
