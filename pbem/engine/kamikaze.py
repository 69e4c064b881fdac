"""Kamikaze (Rules.kamikaze): suicide attacks on ships that moved into listed sea zones.

The defender decides them in the middle of the attacker's turn ("after all combat movement has been
completed"), so they are written in advance as standing orders (`kamikaze:`), and adjudication
stays one pass.  A strike in a zone with a naval battle joins that battle's first round (as
`Battle.sacrifices` aimed at the chosen ship types); a strike in a zone with no enemy to fight is
rolled here, and counts as that zone's naval battle.
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from pbem.engine.combat.model import Sacrifice
from pbem.engine.orders import StandingOrders
from pbem.engine.words import count_of, units_text
from pbem.engine.world import Unit, World


class Turn(Protocol):
    """What kamikaze need of the turn (`pbem.engine.turn.Turn` provides it)."""

    w: World
    standing: Mapping[str, StandingOrders]
    dice: Any
    log: Any

    @property
    def validating(self) -> bool: ...

RULE = "Kamikaze"


def tokens_left(turn: Turn) -> int:
    k = turn.w.rules.kamikaze
    assert k is not None
    return int(dict(turn.w.pending.get("kamikaze") or {}).get(k.power, k.tokens))  # type: ignore[call-overload]


def plan_strikes(turn: Turn, attacked: frozenset[str] = frozenset()) -> dict[str, list[Unit]]:
    """Zone -> the ships struck there, one kamikaze each, as the kamikaze power's standing orders
    say; the tokens are spent now.  Only at adjudication, on an enemy's turn.  `attacked`: the zones
    with a sea battle or an amphibious assault sailing from them (Kamikaze.only_where_attacked)."""
    w = turn.w
    k = w.rules.kamikaze
    if k is None or turn.validating or not w.is_enemy(k.power):
        return {}
    so = turn.standing.get(k.power)
    if so is None or not so.kamikaze:
        return {}
    left = tokens_left(turn)
    plan: dict[str, list[Unit]] = {}

    def priority(zone: str) -> tuple[int, str]:
        # when the kamikaze left are too few for every zone, the zones of the earlier entries go first
        return next((i for i, o in enumerate(so.kamikaze) if not o.zones or zone in o.zones), len(so.kamikaze)), zone

    for zone in sorted((z for z, s in w.board.spaces.items() if s.kamikaze), key=priority):
        if left <= 0:
            break
        ships = [u for u in w.units_at(zone) if w.is_enemy(u.owner, k.power) and not u.submerged
                 and w.utype(u).tags & k.target_tags and not w.utype(u).has("submarine")]
        if k.only_where_attacked:
            if zone not in attacked:
                continue
            moved_in = [u for u in ships if w.commands(u)]  # the attacker's warships there
        else:
            # "If an allied player moves ships into one of the above sea zones"
            moved_in = [u for u in ships if w.commands(u) and u.phase == "combat" and u.path]
        order = next((o for o in so.kamikaze if (not o.zones or zone in o.zones) and len(moved_in) >= o.at_least), None)
        if not moved_in or order is None or order.count <= 0:
            continue
        # 1940: the strikes answer an attack, and "Multinational forces never attack together" (E21):
        # only the attacker's ships are struck; Pacific: any Allied ship in the zone (DIGEST PAC.7)
        pool = [u for t in order.targets for u in (moved_in if k.only_where_attacked else ships) if u.type == t]
        if not pool:
            continue
        n = min(order.count, left)
        picks: list[Unit] = []
        while len(picks) < n:  # one kamikaze per ship, first listed first, then round again
            picks.extend(pool[: n - len(picks)])
        plan[zone] = picks
        left -= n
        aimed = []  # by ship type: the ships aimed at, and how many kamikaze when some take more than one
        types = list(dict.fromkeys(p.type for p in picks))
        for t in types:
            kamikaze, targets = sum(1 for p in picks if p.type == t), len({p.id for p in picks if p.type == t})
            aimed.append(count_of(targets, t) + ("" if kamikaze == targets or len(types) == 1 else f" ({count_of(kamikaze, k.unit)})"))
        turn.log.notes.append(f"{k.power} launches {count_of(n, k.unit)} in {zone} at {', '.join(aimed)}")
    if plan:
        w.pending["kamikaze"] = {k.power: left}
    return plan


def sacrifices(turn: Turn, picks: list[Unit]) -> tuple[Sacrifice, ...]:
    """The strikes in a zone with a naval battle: "used during the first round of combat. Any ships
    sunk as a result still get to return fire. Kamikaze cannot be taken as casualties" (Pacific; in
    1940 they do not: Kamikaze.victims_fire_back)."""
    k = turn.w.rules.kamikaze
    assert k is not None
    by_type: dict[str, int] = {}
    for u in picks:
        by_type[u.type] = by_type.get(u.type, 0) + 1
    return tuple(Sacrifice("defender", k.power, k.unit, n, k.hit, target=t, fire_back=k.victims_fire_back, token=True,
                                 before_surprise_strike=k.before_surprise_strike) for t, n in sorted(by_type.items()))


def strike_without_battle(turn: Turn, zone: str, picks: list[Unit]) -> None:
    """Kamikaze where there is no naval battle: each rolls, "If a hit is scored, it must be applied
    to the chosen unit"; a two-hit ship needs both hits in this one attack.  "This counts as a naval
    battle and will prevent any battleships or destroyers present from conducting shore
    bombardment"."""
    w = turn.w
    k = w.rules.kamikaze
    assert k is not None
    rolled = turn.dice.roll(f"kamikaze/{zone}", len(picks))
    hits: dict[int, int] = {}
    for u, die in zip(picks, rolled):
        if die <= k.hit:
            hits[u.id] = hits.get(u.id, 0) + 1
    sunk: list[str] = []
    for uid, n in sorted(hits.items()):
        u = w.units[uid]
        if n + u.damaged >= w.utype(u).hits:
            # "If a transport ship is hit, any units onboard go down with the ship": its cargo, and the
            # land units it was to put ashore from this zone (battles._land_or_lose_cargo removes them)
            riders: dict[str, int] = {}
            for r in w.units.values():
                if r.carrier == u.id or (r.came_by == u.id and r.seaborne_from == zone and w.commands(r)):
                    riders[r.type] = riders.get(r.type, 0) + 1
            sunk.append(u.type + (f" ({units_text(riders)} aboard lost with it)" if riders else ""))
            w.remove(u)
        else:
            u.damaged = turn.combat_rules.two_hit_repair != "end_of_combat"
            turn.log.notes.append(f"a kamikaze hits a {u.type} of {u.owner} in {zone}: damaged, it stays afloat")
    for u in w.units_at(zone):
        if w.commands(u) and w.utype(u).domain == "sea":
            u.fought = True  # the kamikaze attack is this zone's naval battle: no bombardment from it
    result: dict[str, Any] = {"step": "kamikaze", "power": k.power, "what": f"{len(picks)} kamikaze in {zone} (hit on {k.hit} or less)",
                              "dice": list(rolled), "result": ("sunk: " + ", ".join(sunk)) if sunk else "no ship sunk"}
    turn.log.rolls.append(result)
