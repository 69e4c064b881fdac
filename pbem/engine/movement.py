"""Moving units: paths over the map graph and the rules of combat and noncombat movement.

Each move is checked against the world as it stands when the move is made, so a list of moves is a
sequence (load the infantry, then move the transport, then offload).  A move that breaks a rule
changes nothing and returns the problems; the rulebook section is named in each.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from pbem.engine.orders import Move
from pbem.engine.problems import Problem
from pbem.engine.words import article, count_of, plural, possessive, units_text
from pbem.engine.world import Unit, World

R_COMBAT = "Combat Move"
R_NONCOMBAT = "Noncombat Move"
R_LAND = "Combat Move: land units stop on entering a hostile territory"
R_BLITZ = "Tanks and Blitzing"
R_SEA = "Combat Move: sea units stop in hostile sea zones"
R_SUBS = "Submarines: movement"
R_CANAL = "Canals"
R_NEUTRAL = "Neutral Territories: cannot be entered or flown over"
R_TRANSPORT = "Transports: loading and offloading"
R_AIR = "Air units: movement and landing"
R_AAA = "Unit Profiles: antiaircraft units move only in noncombat move"
R_END_IN_COMBAT = "Combat Move: every combat move must end in combat"


@dataclass
class Step:
    """A path found for a unit: the spaces entered, and the hostile territory it blitzed, if any."""

    path: list[str]
    blitzed: str | None = None


# what lifts a political limit on movement: war, by the mover's declaration or another's
MOVE_RESTRICTION_HINT = ("it ends with war: a declaration of war (declare_war:) where the political rules allow one, "
                         "or when the power it protects enters the war")


def _problem(move: Move, message: str, rule: str, hint: str = "", code: str = "", key: str = "to") -> Problem:
    return Problem("illegal", message, rule=rule, hint=hint, path=(*move.yaml_path, key), code=code)


class Mover:
    """Applies one power's moves to a world."""

    def __init__(self, world: World, warnings: list[Problem] | None = None):
        self.w = world
        self.warnings: list[Problem] = [] if warnings is None else warnings  # the turn's, when it has them
        self.new_carrier_zones: set[str] = set()  # zones where a carrier bought this turn can be placed
        # Enemy units a noncombat move may end beside: the attackers in a space an out-of-turn move
        # reinforces (Rules.hooks.interjections, e.g. Revised's Enigma Decoded).
        self.ignored: set[int] = set()
        # The spaces with a battle this turn (Turn.contested, once the battles start): attacking air
        # units land on no carrier in such a sea zone where the rules say so.
        self.battle_spaces: set[str] = set()
        # Sea zones that held enemy ships beside the mover's transports when its turn began
        # (Rules.movement.transport_from_hostile_start), set before the combat move.
        self.hostile_at_start: set[str] = set()

    def lands_in_territory(self, power: str, space: str) -> bool:
        """May `power`'s air units land in the territory `space`?  One friendly since the start of the
        turn; one captured this turn only where MovementRules.air_may_land_in_captured or
        air_lands_where_captured allows it."""
        w, rules = self.w, self.w.rules.movement
        if not w.is_friendly_territory(space, of=power):
            return False
        if space in w.captured_this_turn:
            return rules.air_may_land_in_captured or space in rules.air_lands_where_captured.get(w.ruleset.power_name(power), ())
        return w.is_friendly_territory(space, at_start=True, of=power)

    def landing_problem(self, move: Move, units: list[Unit], dest: str) -> Problem | None:
        """Air units end the noncombat move where they can land (Phase 4: Noncombat Move, Air Units)."""
        w = self.w
        if w.space(dest).is_land:
            if self.lands_in_territory(w.power, dest):
                return None
            captured = dest in w.captured_this_turn and w.is_friendly_territory(dest)
            why = "it was captured this turn" if captured else "it was not friendly at the start of the turn"
            return _problem(move, f"air units cannot land in {dest}: {why}", R_AIR + ": land in a territory friendly at the start of the turn",
                            "land in a territory your side held when the turn began, or on a carrier", "air.landing")
        if any(not w.utype(u).lands_on_carriers for u in units):
            return _problem(move, f"only fighters land at sea; {dest} is a sea zone", R_AIR, "land bombers in a friendly territory", "air.landing")
        if self.bars_landing(units, dest):
            return _problem(move, f"air units that attacked this turn cannot land in {dest}: a battle was fought there",
                            R_AIR + ": attacking air units land nowhere a battle was fought this turn (the game's rule, see its options)",
                            "land them in a friendly territory, or on a carrier in a zone with no battle this turn", "air.landing")
        if w.rules.movement.fighters_land_after_noncombat and move.phase == "noncombat":
            return None  # the carrier is looked for once every noncombat move is made (Turn.land_at_sea)
        room = sum(w.carrier_room(h) for h in w.units_at(dest) if w.utype(h).has("carrier") and w.shares_with(h.owner))
        if room >= len(units) or dest in self.new_carrier_zones:
            return None
        closed = sorted({w.ruleset.power_name(h.owner) for h in w.units_at(dest) if w.utype(h).has("carrier")
                         and w.is_friendly(h.owner) and not w.shares_with(h.owner) and w.carrier_room(h) > 0})
        if closed:
            return _problem(move, f"no carrier in {dest} may take these units: {' and '.join(closed)} and {w.power} may not share "
                            "ships while one of them is at war with no one", "Political rules (P14): a power at war with no one "
                            "shares no ships with other powers", "land them in a friendly territory or on a carrier of your own", "air.landing")
        kinds: dict[str, int] = {}
        for u in units:
            kinds[u.type] = kinds.get(u.type, 0) + 1
        return _problem(move, f"no carrier with room for {units_text(dict(sorted(kinds.items())))} in {dest}", R_AIR + ": fighters land on a carrier with room",
                        "move the carrier there first (moves apply in order)" + (", or buy a carrier and place it there"
                                                                                 if w.rules.movement.air_lands_for_new_carriers else
                                                                                 " (a carrier bought this turn comes too late: it is placed after the landing)")
                        + "; or leave this landing out: air units without a landing order are flown to the nearest legal landing",
                        "air.landing")

    def sea_battle_landing(self) -> bool:
        """May air units that attacked land on a carrier in a zone where a battle was fought
        (Rules.movement.attacking_air_lands_at_sea_battle, or the game option it names)?"""
        rule = self.w.rules.movement.attacking_air_lands_at_sea_battle
        return rule == "always" or (rule == "option" and self.w.options.get("landing_at_sea_battle", True) is not False)

    def note_hostile_start(self) -> None:
        """Remember the sea zones where the mover's transports begin the turn beside enemy ships."""
        w = self.w
        self.hostile_at_start = {u.space for u in w.units.values()
                                 if u.owner == w.power and w.carries_land(u) and w.is_sea(u.space) and w.is_hostile_sea_zone(u.space)}

    def _held_by_hostile_start(self, host: Unit, zone: str, assault: bool) -> bool:
        """Rules.movement.transport_from_hostile_start: does this transport, which began the turn in
        `zone` beside enemy ships, neither load nor offload there (but for an assault, where allowed)?"""
        rule = self.w.rules.movement.transport_from_hostile_start
        if rule == "as_any" or host.start != zone or zone not in self.hostile_at_start:
            return False
        return not (rule == "assault_only" and assault)

    def bars_landing(self, units: list[Unit], zone: str) -> bool:
        """Some of these air units attacked this turn, `zone` saw a battle, and the rules keep them from landing there."""
        return (zone in self.battle_spaces and any(u.combat_path > 0 or u.phase == "combat" for u in units)
                and not self.sea_battle_landing())

    # --- graph --------------------------------------------------------------------------------
    def _passable(self, space: str) -> bool:
        """Neither an impassable neutral nor a territory of a power at peace with the mover (Rules.politics),
        but the friendly neutral a noncombat move is taking (Politics.neutrals)."""
        if space == getattr(self, "_taking", None):
            return True
        return not self.w.space(space).impassable and not self.w.is_closed(space)

    def _impassable(self, move: Move, space: str, key: str = "to") -> Problem:
        if self.w.space(space).impassable:
            return _problem(move, f"{space} is an impassable neutral", R_NEUTRAL, "go around it", "move.neutral", key=key)
        holder = self.w.control.get(space)
        if space != move.to and self.w.takes_by_moving_in(space):
            # a friendly neutral is taken by ending a noncombat move in it, never passed through
            return _problem(move, f"{space}, held by {holder}, is taken by ending a noncombat move in it, not passed through",
                            "Neutral territories: a friendly neutral is moved into in noncombat move",
                            f"move into {space} and stop there; go on from it next turn", "move.at-peace", key=key)
        return _problem(move, f"{space} is held by {holder}, with which {self.w.power} is not at war: no unit may enter or fly over it",
                        "Political rules: powers not at war", self._peace_hint(holder or "", otherwise="go around it"), "move.at-peace", key=key)

    def _neighbours(self, domain: str, here: str) -> list[str]:
        w = self.w
        out = []
        for n in sorted(w.board.neighbours(here)):
            if not self._passable(n):
                continue
            sp = w.space(n)
            if domain == "land" and not sp.is_land:
                continue
            if domain == "sea":
                if not sp.is_sea:
                    continue
                if not w.canal_open(here, n, subs=getattr(self, "_subs_only", False)) or w.strait_closed(here, n):
                    continue
            out.append(n)
        return out

    def _step_cost(self, flying: bool) -> Callable[[str, str], int] | None:
        """The cost of one step of the moving power's air units when a rule makes some steps free
        (Rules.hooks.free_air_steps); None: every step costs 1."""
        w = self.w
        if not flying or w.rules.hooks.free_air_steps is None:
            return None
        free = w.rules.hooks.free_air_steps(w.options, w.power, w.board, w.control)
        if not free:
            return None
        return lambda a, b: 0 if (a, b) in free else 1

    def path_cost(self, frm: str, path: list[str], *, flying: bool = False) -> int:
        cost = self._step_cost(flying)
        if cost is None:
            return len(path)
        total, prev = 0, frm
        for space in path:
            total += cost(prev, space)
            prev = space
        return total

    def find_path(self, domain: str, frm: str, to: str, budget: int, may_pass: Callable[[str], bool], *,
                  flying: bool = False) -> list[str] | None:
        """Shortest path within `budget` spaces whose intermediate spaces satisfy `may_pass`
        (`flying`: the moving power's air units, whose steps may cost less by a rule)."""
        if frm == to:
            return []
        cost = self._step_cost(flying)
        path = (self._cheapest_path(domain, frm, to, budget, may_pass, cost) if cost is not None
                else self._shortest_path(domain, frm, to, budget, may_pass))
        if path and domain == "air":
            # of equally short ways, the one over the fewest enemy antiaircraft guns that fire at
            # aircraft flying over (Revised, Europe, Pacific): the path a player plots
            guns = self._overflight_guns()
            if guns and any(s in guns for s in path[:-1]):
                path = self._path_fewest_guns(domain, frm, to, budget, may_pass, cost or (lambda a, b: 1), guns) or path
        return path

    def _overflight_guns(self) -> frozenset[str]:
        """Hostile territories whose antiaircraft guns fire at the mover's aircraft flying over
        (MovementRules.aa_fires_at_overflight); none where no gun fires at overflight."""
        w = self.w
        if w.rules.movement.aa_fires_at_overflight == "never":
            return frozenset()
        return frozenset(t for t, sp in w.board.spaces.items() if sp.is_land and w.is_hostile_territory(t)
                         and any(w.utype(u).has("aa") for u in w.enemy_units_at(t)))

    def _path_fewest_guns(self, domain: str, frm: str, to: str, budget: int, may_pass: Callable[[str], bool],
                          cost: Callable[[str, str], int], guns: frozenset[str]) -> list[str] | None:
        """A cheapest path, then the fewest gun territories passed over, then the first by name."""
        import heapq

        heap: list[tuple[int, int, tuple[str, ...]]] = [(0, 0, ())]
        done: set[str] = set()
        while heap:
            spent, crossed, path = heapq.heappop(heap)
            here = path[-1] if path else frm
            if here == to:
                return list(path)
            if here in done:
                continue
            done.add(here)
            if here != frm and not may_pass(here):
                continue
            for n in self._neighbours(domain, here):
                d = spent + cost(here, n)
                if d <= budget and n not in done:
                    heapq.heappush(heap, (d, crossed + (1 if here in guns else 0), (*path, n)))
        return None

    def _shortest_path(self, domain: str, frm: str, to: str, budget: int, may_pass: Callable[[str], bool]) -> list[str] | None:
        prev: dict[str, str] = {frm: ""}
        queue = deque([(frm, 0)])
        while queue:
            here, dist = queue.popleft()
            if dist >= budget:
                continue
            if here != frm and not may_pass(here):
                continue
            for n in self._neighbours(domain, here):
                if n in prev:
                    continue
                prev[n] = here
                if n == to:
                    path = [n]
                    while prev[path[-1]] != frm:
                        path.append(prev[path[-1]])
                    return list(reversed(path))
                queue.append((n, dist + 1))
        return None

    def reachable(self, domain: str, frm: str, budget: int, may_pass: Callable[[str], bool]) -> set[str]:
        """Every space `find_path` finds a path to from `frm` (not flying): one breadth-first search
        for all of them, rather than one per destination."""
        seen = {frm}
        queue = deque([(frm, 0)])
        while queue:
            here, dist = queue.popleft()
            if dist >= budget or (here != frm and not may_pass(here)):
                continue
            for n in self._neighbours(domain, here):
                if n not in seen:
                    seen.add(n)
                    queue.append((n, dist + 1))
        return seen

    def _cheapest_path(self, domain: str, frm: str, to: str, budget: int, may_pass: Callable[[str], bool],
                       cost: Callable[[str, str], int]) -> list[str] | None:
        """find_path when some steps cost 0 (a 0-1 breadth-first search)."""
        best: dict[str, int] = {frm: 0}
        prev: dict[str, str] = {frm: ""}
        queue = deque([frm])
        while queue:
            here = queue.popleft()
            if here == to:
                path = [to]
                while prev[path[-1]] != frm:
                    path.append(prev[path[-1]])
                return list(reversed(path))
            if here != frm and not may_pass(here):
                continue
            for n in self._neighbours(domain, here):
                step = cost(here, n)
                d = best[here] + step
                if d > budget or (n in best and best[n] <= d):
                    continue
                best[n], prev[n] = d, here
                queue.appendleft(n) if step == 0 else queue.append(n)
        return None

    def air_distance(self, frm: str, targets: Callable[[str], bool], budget: int, *, flying: bool = False) -> int | None:
        cost = self._step_cost(flying)
        if cost is not None:
            best = {frm: 0}
            dq = deque([frm])
            while dq:
                here = dq.popleft()
                if targets(here):
                    return best[here]
                for n in self._neighbours("air", here):
                    step = cost(here, n)
                    d = best[here] + step
                    if d > budget or (n in best and best[n] <= d):
                        continue
                    best[n] = d
                    dq.appendleft(n) if step == 0 else dq.append(n)
            return None
        seen = {frm}
        queue = deque([(frm, 0)])
        while queue:
            here, dist = queue.popleft()
            if targets(here):
                return dist
            if dist >= budget:
                continue
            for n in self._neighbours("air", here):
                if n not in seen:
                    seen.add(n)
                    queue.append((n, dist + 1))
        return None

    # --- selection ----------------------------------------------------------------------------
    def _select(self, move: Move, phase: str, problems: list[Problem]) -> list[Unit] | None:
        w = self.w
        chosen: list[Unit] = []
        candidates: dict[str, list[Unit]] = {}
        for utype, count in move.units.items():
            pool = [u for u in w.owned(w.power, move.frm, [utype]) if u.id not in {c.id for c in chosen}]
            offloading = w.is_sea(move.frm) and not w.is_sea(move.to)
            if phase == "noncombat":
                movable = [u for u in pool if self.may_move_in_noncombat(u)
                           or (offloading and u.carrier is not None and u.loaded_phase == "noncombat")
                           or self._continues(u, phase)]
                # another power's units this one commands (Rules.hooks.commands, Revised's Joint
                # Strike) move in noncombat only to land those that attacked
                movable = [u for u in movable if u.owner not in w.commanded or u.phase == "combat"]
            else:
                movable = [u for u in pool if (u.phase is None and not u.fought)
                           or (offloading and u.carrier is not None and u.loaded_phase == "combat")
                           or self._moves_on(u) or self._continues(u, phase)]
            if move.cargo is not None and pool and w.carries_land(pool[0]):
                movable.sort(key=lambda u: (not self._cargo_matches(u, move.cargo or {}), u.id))
            else:
                movable.sort(key=lambda u: (-len(w.cargo_of(u)) if w.carries_land(u) else 0, u.moved, u.id))
                movable = self._best_fit(move, phase, movable, count)
            if len(movable) < count:
                have = len(pool)
                if have < count:
                    hint = f"{count_of(have, utype)} of {w.power} stand{'s' if have == 1 else ''} in {move.frm}" if have else self._where_are(utype)
                    carried = self._carried_away(utype, move.frm)
                    if carried:
                        hint = carried
                    problems.append(_problem(move, f"{w.power} has {count_of(have, utype)} in {move.frm}, not {count}", "Units must exist where the order names them", hint, "move.no-units", key="units"))
                else:
                    captured = [u for u in pool if u.captured]
                    if captured and len(movable) + len(captured) >= count:
                        problems.append(_problem(move, f"{len(captured)} of the {utype} in {move.frm} changed hands with the territory this turn "
                                                       "and cannot move until their new owner's next turn", "Conclude Combat, capturing a territory: its antiaircraft "
                                                       "guns and complexes change hands and stay there that turn", "move them next turn", "move.captured", key="units"))
                        return None
                    aboard = [u for u in pool if u not in movable and u.carrier is not None and not w.space(move.frm).is_land]
                    hint = (f"{count_of(len(aboard), utype)} in {move.frm} {'is' if len(aboard) == 1 else 'are'} aboard: cargo sails with "
                            f"its {w.utype(w.units[aboard[0].carrier]).name}, so name only the ship in this order" if aboard else
                            self._why_not_in_noncombat(pool, utype) if phase == "noncombat" else
                            f"the other {have - len(movable)} already moved in this combat move: a unit makes one combat move, "
                            "so give the whole way in one order (via: ...) or order fewer")
                    problems.append(_problem(move, f"only {len(movable)} of the {count_of(have, utype)} in {move.frm} may still move in {phase} move", R_NONCOMBAT if phase == "noncombat" else R_COMBAT, hint, "move.already-moved", key="units"))
                return None
            chosen.extend(movable[:count])
            candidates[utype] = movable
        if w.is_sea(move.frm) and not w.is_sea(move.to) and all(u.carrier is not None and w.utype(u).domain == "land" for u in chosen):
            return self._offload_choice(move, candidates)
        return chosen

    def _best_fit(self, move: Move, phase: str, movable: list[Unit], count: int) -> list[Unit]:
        """Aircraft alike but for the movement they have left (one flew in combat, one did not): the
        order takes those with the least that still reach, so a later order's longer flight finds
        the one with more, whichever order is written first."""
        left = {u.id: self._allowance(u, phase) for u in movable}
        if count >= len(movable) or len(set(left.values())) < 2 or any(self.w.utype(u).domain != "air" for u in movable):
            return movable
        way = [*move.via, move.to] if move.via else self.find_path("air", move.frm, move.to, 99, lambda s: True, flying=True)
        if not way:
            return movable
        needed = self.path_cost(move.frm, way, flying=True)
        return sorted(movable, key=lambda u: (left[u.id] < needed, left[u.id]))

    def _offload_choice(self, move: Move, candidates: dict[str, list[Unit]]) -> list[Unit]:
        """Which of the land units aboard in a sea zone offload: as few ships as possible, each
        emptied where it can be, and none that already offloaded elsewhere.  Which ship holds which
        rider is not written in the state, so "1 marine, 1 infantry" to Guam and "2 infantry" to
        the Marianas from two transports is two transports' landings (Pacific, Amphibious
        Assaults: "two different transports in the same sea zone can unload into two different
        territories"), not one transport offloading twice."""
        w = self.w
        need = dict(move.units)
        self._repack(move.frm, need)
        by_host: dict[str, list[Unit]] = {}
        for utype in need:
            for u in candidates[utype]:
                by_host.setdefault(u.carrier or "", []).append(u)

        def rank(hid: str) -> tuple[object, ...]:
            host = w.units[hid]
            # a ship that may not offload in this phase at all (it fought or retreated) comes last
            barred = host.retreated or (move.phase == "noncombat" and not self._may_work_after_combat(host, "offload"))
            elsewhere = bool(host.offloaded_to and host.offloaded_to != move.to and not self._may_assault_again(host, move.phase))
            gives = sum(min(need[t], sum(1 for u in by_host[hid] if u.type == t)) for t in need)
            left = len(w.cargo_of(host)) - gives
            return (barred, elsewhere, host.offloaded_to != move.to, not w.utype(host).has("transport"), -gives, left, hid)

        chosen: list[Unit] = []
        for hid in sorted(by_host, key=rank):
            for u in sorted(by_host[hid], key=lambda u: u.id):
                if need.get(u.type, 0) > 0:
                    need[u.type] -= 1
                    chosen.append(u)
        return chosen

    def _repack(self, zone: str, need: Mapping[str, int]) -> None:
        """Cargo that was aboard before this turn rides no ship the state names (it keeps counts per
        zone, not per transport), so any packing of it onto the transports that sailed together is
        the true one: the riders an offload asks for are packed onto as few of them as they fit,
        the rest after, so each ship can empty where the player sends its riders (Pacific: "two
        different transports in the same sea zone can unload into two different territories").
        The ships: those of the mover's side in `zone` that started the turn together and sailed
        together (the same moves in the same phase: ships that parted carry what they carried when
        they parted), offloaded nothing and took no one aboard this turn.  Kept as it was if the
        riders would not fit."""
        w = self.w
        side = w.ruleset.side_of(w.power)
        ships = [h for h in w.units_at(zone) if w.carries_land(h) and w.ruleset.side_of(h.owner) == side
                 and not h.offloaded_to and not h.unloaded]
        groups: dict[str, list[Unit]] = {}
        for h in ships:
            cargo = w.cargo_of(h)
            if all(r.loaded_phase is None and w.utype(r).domain == "land" for r in cargo):
                groups.setdefault(f"{h.start}|{h.phase}|{'/'.join(h.path)}|{h.retreated}", []).append(h)
        for hosts in groups.values():
            riders = [r for h in hosts for r in w.cargo_of(h) if w.utype(r).domain == "land"]
            if len(hosts) < 2 or not riders:
                continue
            wanted = dict(need)
            first, rest = [], []
            for r in sorted(riders, key=lambda r: r.id):
                if r.owner == w.power and wanted.get(r.type, 0) > 0:
                    wanted[r.type] -= 1
                    first.append(r)
                else:
                    rest.append(r)
            was = {r.id: r.carrier for r in riders}
            for r in riders:
                r.carrier = None
            for batch in (first, rest):
                for r in sorted(batch, key=lambda r: (-w.utype(r).transport_size, r.id)):
                    fits = [h for h in hosts if w.ruleset.side_of(h.owner) == w.ruleset.side_of(r.owner) and w.has_room(h, r.type)]
                    if not fits:
                        break
                    load = {h.id: sum(w.utype(c).transport_size for c in w.cargo_of(h)) for h in fits}
                    r.carrier = sorted(fits, key=lambda h: (h.owner != r.owner, not w.utype(h).has("transport"), -load[h.id], h.id))[0].id
            if any(r.carrier is None for r in riders):
                for r in riders:
                    r.carrier = was[r.id]

    def _why_not_in_noncombat(self, pool: list[Unit], utype: str) -> str:
        """The hint for units in `pool` that may not make this noncombat move: movement spent, a
        commanded power's unit that did not attack, or having moved or fought in combat."""
        w = self.w
        patrol = [u for u in pool if u.phase == "noncombat" and u.mission == "cap"]
        if patrol:
            return (f"{count_of(len(patrol), utype)} in {patrol[0].space} {'flies' if len(patrol) == 1 else 'fly'} combat air patrol there "
                    "from this noncombat move and land in Phase 2 of your next turn: a patrol stays over its sea zone")
        spent = [u for u in pool if u.phase == "noncombat" and u.moved >= self._movement(u) and not u.fought]
        if spent:
            return f"{count_of(len(spent), utype)} there already used {'its' if len(spent) == 1 else 'their'} whole movement this turn"
        idle = [u for u in pool if u.owner in w.commanded and u.phase != "combat"]
        if idle:
            return f"in noncombat move only {possessive(idle[0].owner)} {plural(utype)} that attacked may move, to land"
        rocket = "; an antiaircraft gun that fired a rocket has fought" if w.utype(pool[0]).has("aa") else ""
        return f"units that moved in combat move or fought cannot move in noncombat move (air units excepted{rocket})"

    def _carried_away(self, utype: str, space: str) -> str:
        """Why units that stood in `space` are gone: a carrier or transport took them along."""
        w = self.w
        gone = [u for u in w.units.values() if u.owner == w.power and u.type == utype and u.start == space
                and u.space != space and u.carrier is not None]
        if not gone:
            return ""
        host = w.units.get(gone[0].carrier)
        host_type = host.type if host is not None else "carrier"
        said = f"{count_of(len(gone), utype)} aboard the {host_type} that moved from {space} to {gone[0].space} went with it"
        if any(u.stowed for u in gone):
            return (f"{said} as cargo and flies no more this turn: an air unit must take off before its carrier "
                    "moves, so list its move before the carrier's")
        return f"{said}: units aboard move with their {host_type}, so they need no move of their own"

    def _continues(self, u: Unit, phase: str) -> bool:
        """A move given in legs: a unit that already moved in this phase may go on from where it
        stands with the movement it has left, as the rulebooks' transport does ("pick up cargo,
        move one sea zone, pick up more cargo, move one more sea zone", 1942 Second Edition,
        Transports), unless its move ended there: it entered a battle, offloaded, loaded as cargo,
        fought, retreated or flies a mission."""
        w = self.w
        if (u.phase != phase or u.fought or u.retreated or u.offloaded_to or u.carrier is not None or u.mission
                or u.loaded_phase is not None or u.moved >= self._movement(u)):
            return False
        if phase == "combat":
            if w.is_sea(u.space):
                return not w.is_hostile_sea_zone(u.space)
            return not w.is_hostile_territory(u.space) and not w.enemy_units_at(u.space)
        return True

    def _movement(self, u: Unit) -> int:
        return self._structure_move(u) if self.w.utype(u).domain == "structure" else self.w.utype(u).move

    def _moves_on(self, u: Unit) -> bool:
        """Rules.movement.transport_combat_move_in_legs: a transport that made a combat move to a zone that is
        not hostile, has not fought and has movement left may make another - if it has not offloaded,
        or a rule lets it assault again (Revised Lightning Assaults: "They may move, attack a coastal
        territory, then move again and attack a second coastal territory")."""
        w = self.w
        return (w.rules.movement.transport_combat_move_in_legs and w.carries_land(u) and u.phase == "combat" and not u.fought
                and (not u.offloaded_to or self._may_assault_again(u, "combat"))
                and u.moved < w.utype(u).move and not w.is_hostile_sea_zone(u.space))

    def _cargo_matches(self, transport: Unit, cargo: dict[str, int] | object) -> bool:
        aboard: dict[str, int] = {}
        for r in self.w.cargo_of(transport):
            aboard[r.type] = aboard.get(r.type, 0) + 1
        return bool(aboard) and all(cargo.get(t, 0) >= n for t, n in aboard.items())  # type: ignore[union-attr]

    def _where_are(self, utype: str) -> str:
        spaces = sorted({u.space for u in self.w.units.values() if u.owner == self.w.power and u.type == utype})
        if not spaces:
            return f"{self.w.power} has no {plural(utype)}"
        return f"{possessive(self.w.power)} {plural(utype)} stand in " + ", ".join(spaces[:6]) + (" ..." if len(spaces) > 6 else "")

    def may_move_in_noncombat(self, u: Unit) -> bool:
        """May this unit make a noncombat move at all (whatever the destination)?"""
        if u.retreated and self.w.utype(u).domain != "air":
            return False
        if self.w.utype(u).domain == "air":
            # air units that fought or raided still fly home in noncombat; a fighter sent on combat air
            # patrol stays over its sea zone (Pacific, Phase 6: "your CAP must land in Phase 2 of your next turn")
            return not (u.phase == "noncombat" and u.mission == "cap")
        if u.after_battle_move > 0 and u.phase == "combat":
            return True  # a rule lets it move on after its battle (Rules.hooks.move_after_battle)
        return u.phase is None and not u.fought and u.loaded_phase != "combat"

    def _cap_problem(self, move: Move, units: list[Unit]) -> Problem | None:
        """Pacific, Phase 6, Establish Combat Air Patrol: "moving fighter planes that have not moved
        this turn from any territory to an adjacent sea zone. However, a CAP fighter may not be moved
        to a sea zone in which the presence of enemy pieces would cause combat"."""
        w = self.w
        rule = "Establish Combat Air Patrol"
        if not w.rules.movement.combat_air_patrol:
            return _problem(move, "there is no combat air patrol in this game", "Game rules", "remove mission: cap", "move.mission", key="mission")
        if move.phase != "noncombat":
            return _problem(move, "a combat air patrol is set up in noncombat move", rule, "move it under noncombat_move:", "cap.phase", key="mission")
        if any(not w.utype(u).has("fighter") for u in units):
            return _problem(move, "only fighters fly combat air patrol", rule, "move the other units without mission: cap", "cap.not-fighter", key="units")
        if any(u.phase is not None or u.moved or u.fought for u in units):
            return _problem(move, "only fighters that have not moved this turn may fly combat air patrol", rule,
                            "choose fighters that stayed put this turn", "cap.moved", key="units")
        if not w.space(move.frm).is_land or not w.is_sea(move.to) or not w.board.are_adjacent(move.frm, move.to):
            return _problem(move, f"a combat air patrol flies from a territory to a sea zone next to it; {move.frm} to {move.to} is not that",
                            rule, f"patrol a sea zone next to {move.frm}", "cap.not-adjacent")
        if any(not e.submerged for e in w.enemy_units_at(move.to)):
            return _problem(move, f"enemy units in {move.to} would cause combat: no combat air patrol may fly there", rule, f"attack {move.to} in combat_move, or patrol a zone with no enemy", "cap.enemy-zone")
        return None

    # --- the move -----------------------------------------------------------------------------
    def apply(self, move: Move) -> list[Problem]:
        w = self.w
        problems: list[Problem] = []
        phase = move.phase
        self._taking: str | None = None
        self.last_path: list[str] = []  # the spaces the move entered, for the report
        self.last_units: list[Unit] = []
        if (phase == "noncombat" and not w.space(move.to).impassable and w.is_closed(move.to)
                and w.takes_by_moving_in(move.to)):
            self._taking = move.to  # a friendly neutral: only land units enter, and take it
        try:
            return self._apply_move(move, problems)
        finally:
            self._taking = None

    def _apply_move(self, move: Move, problems: list[Problem]) -> list[Problem]:
        w = self.w
        phase = move.phase
        if not self._passable(move.to):
            return [self._impassable(move, move.to)]
        units = self._select(move, phase, problems)
        if units is None:
            return problems
        self.last_units = units  # the units the order moves: riders aboard its ships are told apart (riders())

        def may_bomb(u: Unit) -> bool:
            return (w.utype(u).has("bomber") or bool(w.utype(u).bombs)
                    or (w.rules.hooks.may_bomb is not None and w.rules.hooks.may_bomb(w.options, w.power, w.utype(u))))

        if move.mission == "strategic_bombing" and not all(may_bomb(u) for u in units):
            return [_problem(move, "only bombers make strategic bombing raids", "Strategic Bombing Raids", "fighters may escort a raid with mission: escort (optional rule)", "raid.not-bomber", key="units")]
        if move.target is not None and move.mission != "strategic_bombing":
            return [_problem(move, "target: names the facility a bombing raid strikes", "Bombing raids", "add mission: strategic_bombing, or remove target:", "raid.target", key="target")]
        raid_target = self._raid_target(move, units) if move.mission == "strategic_bombing" else None
        if isinstance(raid_target, Problem):
            return [raid_target]
        self._striking = raid_target
        if move.mission in ("strategic_bombing", "escort") and w.control.get(move.to) in w.rules.economy.countries_without_income:
            # Pacific, Strategic Bombing Raids: "Japan may not launch a Strategic Bombing Raid against
            # China, as China does not hold any IPCs to give up"
            return [_problem(move, f"{w.control[move.to]} holds no IPCs to give up: {move.to} cannot be raided", "Strategic Bombing Raids",
                             "raid a complex of a country that collects income", "raid.no-ipcs")]
        if move.mission == "cap":
            cap = self._cap_problem(move, units)
            if cap:
                return [cap]
        elif move.mission == "airborne":
            return self._airborne(move, units)
        elif move.mission not in (None, "strategic_bombing", "escort"):
            hook = w.rules.hooks.one_way_missions
            if any(hook is None or move.mission not in hook(w.options, w.power, w.utype(u)) for u in units):
                return [_problem(move, f"these units cannot fly a {move.mission} mission in this game", "Game options",
                                 "a game option allows it (e.g. Revised Kamikaze Attacks: Japanese air units)", "move.mission", key="units")]
            if phase != "combat" or not w.is_sea(move.to) or not any(w.utype(e).domain == "sea" for e in w.enemy_units_at(move.to)):
                return [_problem(move, f"a {move.mission} attack is a combat move against enemy sea units; {move.to} holds none",
                                 "Game options", "aim the attack at a sea zone with enemy ships, in combat_move", "move.mission-target")]
        if move.mission == "escort" and any(not w.utype(u).has("fighter") for u in units):
            return [_problem(move, "only fighters escort bombing raids", "Strategic Bombing Raids, optional rule: escorts and interceptors", "send the other units without mission: escort", "raid.not-fighter", key="units")]
        domains = {w.utype(u).domain for u in units}
        if "structure" in domains:
            return self._move_structures(move, units)
        if phase == "combat" and not w.rules.movement.aa_moves_in_combat and any(w.utype(u).has("moves_noncombat_only") for u in units):
            gun = next(u.type for u in units if w.utype(u).has("moves_noncombat_only"))
            return [_problem(move, f"{plural(gun)} cannot move in combat move", R_AAA, "move it in noncombat_move", "move.aaa-combat", key="units")]
        frm_sea, to_sea = w.is_sea(move.frm), w.is_sea(move.to)
        land = [u for u in units if w.utype(u).domain == "land"]
        if land and not frm_sea and to_sea:
            return self._load(move, land, units)
        if land and frm_sea and not to_sea:
            return self._offload(move, land, units)
        if len(domains) > 1:
            # Different kinds moving together: each kind by its own rules, and the move is made
            # whole or not at all (a refused second kind must not leave the first moved).
            import copy

            involved = [*units, *(r for u in units for r in w.cargo_of(u))]
            saved = [(u, copy.copy(u.__dict__)) for u in involved]
            for u, d in saved:
                d["path"] = list(u.path)
            pending = copy.deepcopy(dict(w.pending))
            # in noncombat move the ships go first, so air units aboard carriers of this same order ride
            # with them (MovementRules.carrier_air_in_noncombat_move) and need no flight of their own
            order = sorted(domains, key=lambda d: (d != "sea", d)) if move.phase == "noncombat" else sorted(domains)
            ships = {u.id for u in units if w.utype(u).domain == "sea"}
            if move.phase == "noncombat":
                self._seat_on_ordered_carriers(units, ships)
            paths = []
            for domain in order:
                sub = [u for u in units if w.utype(u).domain == domain
                       and not (move.phase == "noncombat" and domain == "air" and u.carrier in ships and u.space == move.to)]
                if sub:
                    problems += self._move_group(move, domain, sub)
                    paths.append(self.last_path)
            # one path for the report when every kind went the same way; none when they went apart
            self.last_path = paths[0] if paths and all(p == paths[0] for p in paths) else []
            if problems:
                for u, d in saved:
                    u.__dict__.update(d)
                w.pending.clear()
                w.pending.update(pending)
            return problems
        return self._move_group(move, domains.pop(), units)

    def riders(self) -> dict[str, int]:
        """Air units the last move took along aboard its carriers without naming them (1942, 1940: a
        carrier's fighters ride with it in noncombat move; Europe, Pacific: those left aboard as cargo),
        so the report shows everything that moved."""
        w = self.w
        moved = getattr(self, "last_units", [])
        named = {u.id for u in moved}
        ships = {u.id for u in moved if w.utype(u).domain == "sea"}
        out: dict[str, int] = {}
        for u in w.units.values():
            if u.carrier in ships and u.id not in named and w.utype(u).domain == "air" and w.units[u.carrier].space != u.start:
                out[u.type] = out.get(u.type, 0) + 1
        return out

    def _seat_on_ordered_carriers(self, units: list[Unit], ships: set[int]) -> None:
        """An order of carriers and air units aboard carriers in one zone: seat the ordered air units on
        the ordered carriers (swapping with air units not ordered), as a player who moves them together
        means; they could as well take off and land on the other carrier."""
        w = self.w
        carriers = [u for u in units if u.id in ships and w.utype(u).has("carrier")]
        air = [u for u in units if w.utype(u).domain == "air" and u.carrier is not None]
        away = [a for a in air if a.carrier not in ships and w.units.get(a.carrier) is not None
                and w.units[a.carrier].space == a.space and w.units[a.carrier].owner == a.owner]
        strangers = [r for c in carriers for r in w.cargo_of(c) if w.utype(r).domain == "air" and r not in air and r.owner == c.owner]
        for a in away:
            seat = next((c for c in carriers if c.owner == a.owner and w.has_room(c, a.type)), None)
            if seat is not None:
                a.carrier = seat.id
            elif strangers:
                other = strangers.pop(0)
                other.carrier, a.carrier = a.carrier, other.carrier

    def _at_peace_in(self, move: Move, space: str) -> Problem | None:
        """Rules.politics, P14: "A power cannot attack a territory controlled by or containing units of
        a power for which it is not at war" (sea zones excepted): why `move` may not attack `space`."""
        w = self.w
        if w.rules.politics is None or not w.space(space).is_land:
            return None
        holder = w.control.get(space)
        peace = sorted({x.owner for x in w.units_at(space) if w.utype(x).domain != "structure" and w.relation(x.owner) == "peace"}
                       | ({holder} if holder is not None and w.relation(holder) == "peace" else set()))
        if not peace:
            return None
        return _problem(move, f"{space} holds units of {', '.join(peace)}, with which {w.power} is not at war: it cannot be attacked"
                        if holder not in peace else f"{space} is held by {holder}, with which {w.power} is not at war: it cannot be attacked",
                        "Political rules (P14): a power cannot attack a territory controlled by or containing units of a power it is not at war with",
                        self._peace_hint(peace[0]), "move.at-peace")

    def _canal_closed(self, move: Move, canal: Any, a: str, b: str, key: str = "to") -> Problem:
        """A canal or strait closed to the mover; one held by a neutral nobody may enter is closed to
        every side for good (Europe, The Gameboard: "No naval units may pass through the neutral
        Turkish sea zone")."""
        name = canal.name if canal is not None else "canal"
        name = name[0].lower() + name[1:] if name.lower().startswith("the ") else f"the {name}"
        holders = tuple(canal.controlled_by) if canal is not None else ()
        neutral = [t for t in holders if t in self.w.board.spaces and self.w.space(t).impassable]
        if neutral:
            return _problem(move, f"{name} between {a} and {b} is closed to every sea unit: {' and '.join(neutral)} "
                            f"{'is a neutral' if len(neutral) == 1 else 'are neutrals'} nobody may enter",
                            "Neutral territories: no naval unit passes through a neutral's sea passage",
                            "go round by another way; air units may fly over", "move.canal", key=key)
        return _problem(move, f"{name} between {a} and {b} is closed to your side", R_CANAL,
                        "your side must control " + " and ".join(holders) + " at the start of your turn", "move.canal", key=key)

    def _peace_hint(self, owner: str, otherwise: str = "attack elsewhere") -> str:
        """What would open a territory of `owner` to the mover: a declaration of war on a power; for a
        neutral (a bystander), what the neutral rules ask instead - no declaration names it."""
        w = self.w
        name = w.ruleset.power_name(owner)
        neutrals = w.rules.politics.neutrals if w.rules.politics is not None else None
        if name in w.ruleset.turn_order or neutrals is None:
            return f"declare war on {name} first (declare_war:), or {otherwise}"
        mover = w.ruleset.power_name(w.power)
        at_war = w.at_war_with_anyone(mover, neutrals)
        if mover in neutrals.taken_by_moving_in.get(name, ()):
            return (f"{name} territories are friendly to {w.power}: move in during noncombat_move to take them"
                    + ("" if at_war else f", once {w.power} is at war"))
        patron = neutrals.at_war_with_enemies_of.get(name)
        if patron is not None and w.ruleset.side_of(mover) == w.ruleset.side_of(patron):
            # the patron's own side: no declaration opens it (1940: only the UK and ANZAC walk into the Dutch)
            takers = sorted(t for t in neutrals.taken_by_moving_in.get(name, ()) if t != mover)
            return (f"{name} is on {possessive(patron)} side, and no declaration opens it to {w.power}"
                    + (f": only {' and '.join(takers)} move in, in noncombat_move" if takers else "") + f"; {otherwise}")
        if patron is not None:
            return f"attacking {name} is war on {patron}: declare war on {patron} first (declare_war:), or {otherwise}"
        if mover in neutrals.attackable_by.get(name, ()) and not at_war:
            return f"while at war with no one, {w.power} enters no neutral territory: declare war on an enemy first, or {otherwise}"
        return f"{w.ruleset.side_of(mover)} powers never attack {name}: {otherwise}"

    def could_move(self, move: Move, units: list[Unit]) -> bool:
        """Would this move of these units be legal now?  Nothing is moved (and it takes no neutral)."""
        domain = self.w.utype(units[0]).domain
        taking, self._taking = getattr(self, "_taking", None), None
        try:
            return not isinstance(self._check_group(move, domain, units), Problem)
        finally:
            self._taking = taking

    def _check_group(self, move: Move, domain: str, units: list[Unit]) -> tuple[list[str], str | None, int] | Problem:
        """The path, the territory blitzed on the way and the movement spent by a group's move, or
        why it is refused; nothing is moved."""
        w = self.w
        phase = move.phase
        budget = min(self._allowance(u, phase) for u in units)
        stowed: dict[str, int] = {}
        for u in units:
            if domain == "air" and u.stowed:
                stowed[u.type] = stowed.get(u.type, 0) + 1
        if stowed:
            # Europe and Pacific, Aircraft Carriers: "If the fighter doesn't take off before you move the
            # carrier, the fighter is treated as cargo for the remainder of your turn and may not fly"
            one = sum(stowed.values()) == 1
            return _problem(move, f"{units_text(dict(sorted(stowed.items())))} rode {'its carrier' if one else 'their carriers'} as cargo "
                            "this turn: cargo may not fly for the rest of the turn",
                            "Aircraft Carriers: a fighter that did not take off before its carrier moved is cargo for the rest of the turn",
                            "order the air units' own move before the carrier's, or with it in one order", "move.air-stowed", key="units")
        if domain == "land" and any(u.carrier is not None for u in units):
            return _problem(move, "land units aboard a transport move with the transport, or offload to a territory", R_TRANSPORT, "move the transport, or order the units from the sea zone to a coastal territory", "move.cargo")
        if domain == "land" and w.is_sea(move.to):
            return _problem(move, f"land units cannot move into {move.to}", R_TRANSPORT, "load them aboard a transport from an adjacent territory", "move.land-to-sea")
        if domain == "sea" and not w.is_sea(move.to):
            return _problem(move, f"sea units cannot move onto land ({move.to})", "Sea units", "move them to a sea zone; land units offload with a move from the sea zone to the coast", "move.sea-to-land")
        if self._taking is not None and domain != "land":
            return _problem(move, f"{move.to} is a friendly neutral: only land units enter it, in noncombat move, and take it",
                             "Neutral territories: a friendly neutral is moved into by land units", "move land units in first",
                             "move.friendly-neutral")
        if (self._taking is not None and not any(w.utype(u).attack > 0 for u in units)
                and self._taking not in (w.pending.get("neutrals_taken") or ())):
            # TripleA's notes for the box: "Friendly Neutrals can not be 'captured' with an AA Gun, only by
            # land units with an attack power" (as no unit without one captures a territory)
            return _problem(move, f"{move.to} is a friendly neutral: it is taken by land units that can attack, and these cannot",
                             "Neutral territories: a friendly neutral is moved into by land units", "move an infantry or another fighting unit in first",
                             "move.friendly-neutral")
        if domain == "air" and any(u.id in w.grounded_air(u.space) for u in units):
            return _problem(move, "these aircraft are aboard a damaged carrier, which cannot launch them", "Aircraft carriers",
                             "repair the carrier at a naval base first", "move.damaged-carrier", key="units")
        if (domain == "sea" and not w.rules.movement.carrier_moves_after_landing and any(w.utype(u).has("carrier") for u in units)
                and any(w.utype(f).domain == "air" and f.phase == "noncombat" and w.is_friendly(f.owner) for f in w.units_at(move.frm))):
            # a fighter whose noncombat move ended in the carrier's zone has landed on it
            return _problem(move, "a fighter landed on this aircraft carrier this turn: the carrier may not move for the rest of the turn",
                             "Aircraft Carriers: a carrier a fighter landed on stays for the rest of the turn",
                             "move the carrier first, then land the fighter", "move.carrier-landed", key="units")
        if domain == "sea" and any(u.offloaded_to and not self._may_assault_again(u, phase) for u in units):
            carrying = sorted({u.type for u in units if u.offloaded_to})
            text = ("a transport that has offloaded cannot move again this turn" if all(w.utype(u).has("transport") for u in units if u.offloaded_to)
                    else f"the {carrying[0]} carried units as a transport and offloaded them: like a transport, it cannot move again this turn")
            return _problem(move, text, R_TRANSPORT, "move it before it offloads", "move.transport-offloaded", key="units")
        self._subs_only = domain == "sea" and all(w.utype(u).has("submarine") for u in units)
        steps = self._path_for(move, domain, units, budget)
        extra, within = self._bonus(move, units)
        lent = False  # the bonus is in `budget` already
        if extra and (isinstance(steps, Problem) or len(steps.path) > budget):
            # A rule lends extra movement, perhaps only along certain spaces (Rules.hooks.movement_bonus).
            if within is None:
                longer = self._path_for(move, domain, units, budget + extra)
            else:
                route = [*move.via, move.to] if move.via is not None else self.find_path(domain, move.frm, move.to, budget + extra, lambda s: s in within)
                longer = None if route is None or any(s not in within for s in route) else self._check_given_path(move, domain, units, route)
            if isinstance(longer, Step) and self.path_cost(move.frm, longer.path, flying=domain == "air") <= budget + extra:
                steps, budget, lent = longer, budget + extra, True
            elif isinstance(longer, Problem) and longer.code == "move.too-far" and within is None:
                steps = longer  # too far even with the bonus: say the movement left counting it (an air base's +1)
        if isinstance(steps, Problem):
            return steps
        path, blitzed = steps.path, steps.blitzed
        cost = self.path_cost(move.frm, path, flying=domain == "air")
        if cost > budget:
            # the movement left as the player counts it: with a bonus lent everywhere (an air base's +1)
            shown = budget + extra if extra and within is None and not lent else budget
            return _problem(move, f"{move.frm} to {move.to} takes {cost} moves; these units have {shown} left", "Movement allowance", "give a shorter path with via:, or split the move", "move.too-far")
        if phase == "combat" and domain != "sea":
            # its territories are closed (`_passable`); so is any other a land unit enters or an attack
            # ends in while such units stand there
            for s in ([s for s in path if w.space(s).is_land] if domain == "land" else path[-1:]):
                peace = self._at_peace_in(move, s)
                if peace:
                    return peace
        hook = w.rules.hooks.move_restriction
        if hook is not None:
            why = hook(w.options, w.power, units=[w.utype(u) for u in units], owners=frozenset(u.owner for u in units),
                       phase=phase, domain=domain, path=tuple(path), frm=move.frm, world=w)
            if why:
                return _problem(move, why, "Political rules: powers not at war", MOVE_RESTRICTION_HINT, "move.restricted")
        confined = self._confined(units)
        if confined is not None:
            outside = [s for s in path if s not in confined]
            if outside:
                return _problem(move, f"{outside[0]} is outside the area these units may move in", "Movement restrictions",
                                 "stay within " + ", ".join(sorted(confined)), "move.confined")
        if domain == "air" and phase == "noncombat" and move.mission != "cap":
            landing = self.landing_problem(move, units, path[-1] if path else move.frm)
            if landing:
                return landing
        return path, blitzed, cost

    def _move_group(self, move: Move, domain: str, units: list[Unit]) -> list[Problem]:
        w = self.w
        phase = move.phase
        checked = self._check_group(move, domain, units)
        if isinstance(checked, Problem):
            return [checked]
        path, blitzed, cost = checked
        self.last_path = list(path)
        stowed: dict[str, int] = {}
        for u in units:
            if phase == "noncombat":
                u.after_battle_move = 0
            if u.carrier is not None and domain == "air":
                u.carrier = None
            if domain == "sea" and (path or phase == "combat"):
                for t in self._carrier_air(u, phase):
                    stowed[t] = stowed.get(t, 0) + 1
            if domain == "air" and phase == "noncombat":  # its flight to land (a combat move must end in its battle)
                u.leg_from = (u.space, u.moved)
            w.move_unit(u, path, cost)
            u.phase = phase
            u.order = move.yaml_path
            if move.mission:
                u.mission = move.mission
                u.raid_target = getattr(self, "_striking", None)
        if stowed and phase == "combat":
            said = units_text(dict(sorted(stowed.items())))
            self.warnings.append(Problem(
                "warning", f"{said} left aboard stay there as cargo: they may not fly, fight or be taken as casualties "
                f"this turn, and go down with their carrier if it sinks",
                rule="Aircraft Carriers: a fighter must take off before its carrier moves",
                hint=f"to fly or fight with them, list their own move before the carrier's, or order them with it: "
                     f"units: '{units_text(dict(sorted({**move.units, **stowed}.items())))}'",
                path=(*move.yaml_path, "units"), code="move.air-stowed"))
        if blitzed:
            self.capture_by_blitz(blitzed)
        if self._taking is not None and path and path[-1] == self._taking:
            self._note_taken()
        if phase == "combat" and domain == "sea" and w.rules.economy.convoy_captured_in_passing:
            # Battle of the Atlantic: ships with a combat value take the empty enemy convoy centres
            # they enter or pass through; where enemy units are, a battle decides it.
            if any(w.utype(u).attack > 0 for u in units):
                for space in path:
                    if self._enemy_convoy(space, routes=True) and not any(not e.submerged for e in w.enemy_units_at(space)):
                        taken = w.pending.setdefault("convoys", [])  # type: ignore[union-attr]
                        assert isinstance(taken, list)
                        taken.append(space)
        return []

    def _carrier_air(self, carrier: Unit, phase: str) -> list[str]:
        """A ship moves: its owner's air units still aboard stay in the air where it was, ride along as
        cargo, or ride along free to fly on (Rules.movement.carrier_air_in_combat_move, _noncombat_move).
        Returns the types of those that became cargo."""
        w = self.w
        rule = w.rules.movement.carrier_air_in_combat_move if phase == "combat" else w.rules.movement.carrier_air_in_noncombat_move
        stowed: list[str] = []
        for rider in w.cargo_of(carrier):
            if w.utype(rider).domain != "air" or rider.owner != carrier.owner:
                continue
            if rule == "in_the_air":
                rider.carrier = None  # launched: it stays in the starting zone for a move of its own
            elif rule == "cargo":
                # Europe and Pacific, Aircraft Carriers: a fighter that did not take off before its
                # carrier moved "is treated as cargo for the remainder of your turn and may not fly,
                # fight or be used as a casualty"
                rider.moved = max(rider.moved, w.utype(rider).move)
                rider.phase = phase
                rider.stowed = True
                stowed.append(rider.type)
        return stowed

    def _airborne(self, move: Move, units: list[Unit]) -> list[Problem]:
        """An airborne assault (Rules.airborne): infantry from an operational base, flown like air units
        to a hostile territory within reach; they move no more this turn."""
        w = self.w
        rule = w.rules.airborne
        r = "Combat Phase: Airborne Assault"
        if rule is None:
            return [_problem(move, "there are no airborne assaults in this game", "Game rules", "remove mission: airborne", "move.mission", key="mission")]
        if move.phase != "combat":
            return [_problem(move, "an airborne assault is a combat move", r, "move them under combat_move:", "airborne.phase")]
        wrong = sorted({u.type for u in units if u.type not in rule.units})
        if wrong:
            return [_problem(move, f"only {', '.join(sorted(rule.units))} make airborne assaults, not {', '.join(wrong)}", r, "move the other units without mission: airborne", "airborne.unit", key="units")]
        if any(u.start != move.frm or u.moved for u in units):
            return [_problem(move, "paratroopers jump from where they began the turn, before any other move", r, "write the airborne move first, from the base", "airborne.moved", key="units")]
        holder = w.control_at_start.get(move.frm)
        if holder is None or not w.is_friendly(holder) or not w.facility_operative(move.frm, rule.base_tag):
            return [_problem(move, f"{move.frm} has no operational air strip or air base of {possessive(w.power)} side held since the turn began",
                             r, "jump from a territory with an operational air strip", "airborne.no-base")]
        jumped = sum(1 for u in w.units.values() if u.owner == w.power and u.mission == "airborne" and u.start == move.frm)
        if jumped + len(units) > rule.per_base:
            return [_problem(move, f"a base sends {rule.per_base} paratroopers a turn; {move.frm} has sent {jumped}", r, f"send at most {rule.per_base} from {move.frm}", "airborne.too-many", key="units")]
        reach = rule.reach + (1 if rule.farther_from is not None and any(
            u.type == rule.farther_from and w.facility_operative(move.frm, rule.base_tag) for u in w.units_at(move.frm)) else 0)
        if not w.is_hostile_territory(move.to):
            return [_problem(move, f"an airborne assault attacks a hostile territory; {move.to} is not one", r, "move them there in noncombat_move, without mission: airborne", "airborne.target")]
        peace = self._at_peace_in(move, move.to)
        if peace:
            return [peace]
        steps = self._path_for(move, "air", units, reach)
        if isinstance(steps, Problem):
            return [steps]
        cost = self.path_cost(move.frm, steps.path, flying=True)
        if cost > reach:
            return [_problem(move, f"{move.frm} to {move.to} is {cost} spaces; paratroopers from {move.frm} reach {reach}", r,
                             "an operational air base reaches one space farther", "move.too-far")]
        self.last_path = list(steps.path)
        for u in units:
            w.move_unit(u, steps.path, cost)
            u.moved = max(u.moved, w.utype(u).move)
            u.phase, u.order, u.mission = "combat", move.yaml_path, "airborne"
        return []

    def _holds_convoy_in_place(self, move: Move, units: list[Unit]) -> bool:
        """Pacific, Phase 5: "Submarines that begin a turn in an empty sea zone containing an enemy
        convoy route or convoy center may spend one of their two moves to remain in the sea zone and
        take control of it" (EconomyRules.subs_take_convoy_in_place)."""
        w = self.w
        return (w.rules.economy.subs_take_convoy_in_place and move.phase == "combat" and bool(units)
                and all(w.utype(u).has("submarine") and u.start == move.frm and not u.moved for u in units)
                and self._enemy_convoy(move.frm, routes=True) and not any(not e.submerged for e in w.enemy_units_at(move.frm)))

    def _enemy_convoy(self, space: str, *, routes: bool = False) -> bool:
        """A convoy centre (or, with `routes`, a convoy route) an enemy controls (Rules.economy; map
        `convoy: true`, `convoy_route`).  Only centres bar noncombat moves (Europe)."""
        w = self.w
        sp = w.board.spaces[space]
        return (sp.convoy or (routes and sp.convoy_route is not None)) and w.is_enemy(w.control.get(space), w.power)

    def _structure_move(self, u: Unit) -> int:
        hook = self.w.rules.hooks.structure_move
        return hook(self.w.options, self.w.power, self.w.utype(u)) if hook is not None else 0

    def _move_structures(self, move: Move, units: list[Unit]) -> list[Problem]:
        """Complexes move only where a rule lets them (Rules.hooks.structure_move): overland, in noncombat
        move, into a friendly territory without a complex."""
        w = self.w
        if not all(self._structure_move(u) > 0 for u in units):
            return [_problem(move, "industrial complexes cannot move", "Unit Profiles: industrial complex", "remove the complex from the move", "move.structure", key="units")]
        rule = "Industrial complexes moved by a game option"
        if any(w.utype(u).domain != "structure" for u in units):
            return [_problem(move, "an industrial complex moves on its own", rule, "order the other units in another move", "move.structure-mixed", key="units")]
        if move.phase != "noncombat":
            return [_problem(move, "industrial complexes move only in noncombat move", rule, "move it in noncombat_move", "move.structure-combat", key="units")]
        if w.is_sea(move.to) or w.is_sea(move.frm):
            return [_problem(move, "industrial complexes move overland only: transports cannot carry them", rule, "move it overland to a territory next to this one", "move.structure-sea")]
        there = [u for u in w.units_at(move.to) if w.utype(u).has("factory")]
        if len(there) + len(units) > w.rules.production.max_complexes_per_territory:
            return [_problem(move, f"{move.to} would have more than {w.rules.production.max_complexes_per_territory} industrial complex", rule + ": one complex per territory", "move it to a territory with no complex", "move.structure-twice")]
        return self._move_group(move, "land", units)

    def _allowance(self, u: Unit, phase: str) -> int:
        if self.w.utype(u).domain == "structure":
            return self._structure_move(u) - u.moved
        if phase == "noncombat" and u.after_battle_move > 0 and u.phase == "combat":
            return u.after_battle_move
        return self.w.utype(u).move - u.moved

    def _raid_target(self, move: Move, units: list[Unit]) -> str | None | Problem:
        """The facility a raid strikes (units.yaml `bombs`): the one `target:` names, else the territory's
        complex, else the first base every raider may strike.  None: the rule system's only target, the
        complex (no raider names `bombs`)."""
        w = self.w
        if move.target is None and not any(w.utype(u).bombs for u in units):
            if not any(w.utype(f).has("factory") and w.is_enemy(f.owner) for f in w.units_at(move.to)):
                # "move your bomber into a territory with an Industrial Complex" (Europe, SBR step 1)
                return _problem(move, f"{move.to} has no enemy industrial complex to raid", "Strategic Bombing Raids",
                                "raid a territory with an enemy industrial complex, or attack without mission: strategic_bombing",
                                "raid.target", key="to")
            return None

        def strikes(u: Unit, facility: str) -> bool:
            tags = w.utype(u).bombs or (("factory",) if w.utype(u).has("bomber") else ())
            return any(w.ruleset.units[facility].has(t) for t in tags)

        present = sorted({f.type for f in w.units_at(move.to) if w.utype(f).domain == "structure" and w.is_enemy(f.owner)},
                         key=lambda t: (not w.ruleset.units[t].has("factory"), t))
        fit = [t for t in present if all(strikes(u, t) for u in units)]
        if move.target is not None:
            if move.target not in fit:
                return _problem(move, f"these units cannot raid a {move.target} in {move.to}", "Bombing raids",
                                "facilities they may raid there: " + (", ".join(fit) or "none"), "raid.target", key="target")
            return move.target
        if not fit:
            return _problem(move, f"{move.to} has no enemy facility these units may raid", "Bombing raids",
                            "strategic bombers raid complexes and bases, tactical bombers bases only", "raid.target", key="to")
        return fit[0]

    def _confined(self, units: list[Unit]) -> frozenset[str] | None:
        """The spaces these units' owner never leaves (Rules.hooks.confined_to), or None."""
        hook = self.w.rules.hooks.confined_to
        if hook is None:
            return None
        areas = [a for a in (hook(self.w.options, o) for o in sorted({u.owner for u in units})) if a is not None]
        return frozenset.intersection(*areas) if areas else None

    def _bonus(self, move: Move, units: list[Unit]) -> tuple[int, frozenset[str] | None]:
        """Extra movement every unit of the group gets from `Rules.hooks.movement_bonus`, and the spaces
        the whole path must stay within to use it (None: anywhere)."""
        w = self.w
        hook = w.rules.hooks.movement_bonus
        if hook is None or not units:
            return 0, None
        extra: int | None = None  # the least of allowance + bonus over the group, less the least allowance
        within: frozenset[str] | None = None
        least = min(self._allowance(u, move.phase) for u in units)
        for u in units:
            more, spaces = hook(w.options, w.power, w.utype(u), phase=move.phase, frm=move.frm, to=move.to,
                                start=u.start, moved=u.moved, arrived_this_phase=u.phase == move.phase,
                                board=w.board, control=w.control, world=w, group=tuple(w.utype(x) for x in units))
            reach = self._allowance(u, move.phase) + more
            extra = reach if extra is None else min(extra, reach)
            if spaces is not None:
                within = frozenset(spaces) if within is None else within & frozenset(spaces)
        return max(0, (extra or 0) - least) if extra is not None else 0, within

    def _path_for(self, move: Move, domain: str, units: list[Unit], budget: int) -> Step | Problem:
        w = self.w
        phase = move.phase
        if domain == "land":
            blitz = self._can_blitz(units)

            def friendly(s: str) -> bool:
                return w.is_friendly_territory(s)

            if move.via is not None:
                return self._check_given_path(move, domain, units, [*move.via, move.to])
            path = self.find_path("land", move.frm, move.to, budget, friendly)
            if path is not None:
                return self._check_given_path(move, domain, units, path)
            if blitz and phase == "combat":
                # A blitz: through exactly one empty hostile territory.
                for mid in self._neighbours("land", move.frm):
                    if w.board.are_adjacent(mid, move.to) and self._blitzable(mid):
                        return self._check_given_path(move, domain, units, [mid, move.to])
            return self._no_path(move, domain, budget)
        if move.via is not None:
            return self._check_given_path(move, domain, units, [*move.via, move.to])
        if domain == "sea" and move.frm == move.to and self._holds_convoy_in_place(move, units):
            return self._check_given_path(move, domain, units, [move.to])
        if domain == "sea":
            subs = all(w.utype(u).has("submarine") for u in units)

            def sea_ok(s: str) -> bool:
                if phase == "noncombat" and not w.rules.economy.convoy_open_in_noncombat and self._enemy_convoy(s):
                    return False
                if subs and w.rules.movement.subs_ignore_hostile_zones:
                    return not w.enemy_destroyer_at(s)
                return not w.is_hostile_sea_zone(s, subs=subs)

            path = self.find_path("sea", move.frm, move.to, budget, sea_ok)
        else:
            path = self.find_path("air", move.frm, move.to, budget, lambda s: not self.neutral_below(s), flying=True)
        if path is None:
            return self._no_path(move, domain, budget)
        return self._check_given_path(move, domain, units, path)

    def neutral_below(self, space: str) -> bool:
        """A neutral territory air units may not fly over (Politics.neutrals.no_overflight)."""
        w = self.w
        neutrals = w.rules.politics.neutrals if w.rules.politics is not None else None
        owner = w.control.get(space)
        return (neutrals is not None and neutrals.no_overflight and owner is not None and w.space(space).is_land
                and any(b.name == owner for b in w.ruleset.bystanders))

    def _no_path(self, move: Move, domain: str, budget: int) -> Problem:
        w = self.w
        if domain == "sea":
            # Would the move fit if canals and straits were open?  Then one of them is the reason.
            sea_only = self.find_path("air", move.frm, move.to, budget, lambda s: w.is_sea(s))
            if sea_only is not None and all(w.is_sea(s) for s in sea_only):
                prev = move.frm
                for s in sea_only:
                    if w.strait_closed(prev, s):
                        return _problem(move, f"the straits are closed: no sea unit may move between {prev} and {s}", "Optional rule: Turkish straits closed", "go round by another way", "move.straits")
                    canal = w.board.canal_between(prev, s)
                    if canal and not w.canal_open(prev, s):
                        return self._canal_closed(move, canal, prev, s)
                    prev = s
        unrestricted = self.find_path(domain, move.frm, move.to, 99, lambda s: True, flying=domain == "air")
        if unrestricted is None:
            if domain == "sea":
                direct = self.find_path("air", move.frm, move.to, 99, lambda s: w.is_sea(s))
                if direct is not None:
                    return _problem(move, f"no sea route from {move.frm} to {move.to}: a canal on the way is closed to your side", R_CANAL, "a canal may be used only if your side controlled its territories at the start of the turn", "move.canal")
            return _problem(move, f"{move.to} cannot be reached from {move.frm} by {domain} units", "Movement", "check the map: the spaces are not connected for these units", "move.unreachable")
        needed = self.path_cost(move.frm, unrestricted, flying=domain == "air")
        if needed > budget:
            return _problem(move, f"{move.frm} to {move.to} is {needed} spaces; these units have {budget} movement left", "Movement allowance",
                            "the shortest way: " + " - ".join((move.frm, *unrestricted)), "move.too-far")
        if domain == "land":
            return _problem(move, f"the way from {move.frm} to {move.to} passes through hostile territory", R_LAND, "land units stop on entering a hostile territory; only tanks blitz through one empty one", "move.through-hostile")
        if domain == "air":  # only neutral territories bar a flight within range (neutral_below)
            below = sorted(s for s in unrestricted[:-1] if self.neutral_below(s))
            return _problem(move, f"every way from {move.frm} to {move.to} within {budget} spaces flies over a neutral territory"
                            + (f" ({', '.join(below)})" if below else ""), "Neutral territories: no flight over them",
                            "fly around the neutrals, or land nearer", "move.neutral-overflight")
        return _problem(move, f"the way from {move.frm} to {move.to} passes through a hostile sea zone", R_SEA, "sea units stop on entering a sea zone with enemy surface warships (submarines pass unless a destroyer is there)", "move.through-hostile-sea")

    def _can_blitz(self, units: list[Unit]) -> bool:
        """Tanks blitz; a unit whose profile names `blitz_with` partners blitzes when the move carries
        as many such partners as it has such units (1940: "May blitz when paired with a tank (1 mech
        per tank)")."""
        w = self.w
        riders = [u for u in units if not w.utype(u).has("blitz")]
        if not riders or any(not w.utype(u).blitz_with for u in riders):
            return not riders
        tags = {t for u in riders for t in w.utype(u).blitz_with}
        partners = sum(1 for u in units if w.utype(u).has("blitz") and any(w.utype(u).has(t) for t in tags))
        return len(riders) <= partners

    def _blitzable(self, space: str) -> bool:
        w = self.w
        if not w.is_hostile_territory(space):
            return False
        return not any(w.utype(u).domain in w.rules.movement.blitz_blocked_by_domains and not w.utype(u).has("passed_by_blitz")
                       for u in w.enemy_units_at(space))

    def _check_given_path(self, move: Move, domain: str, units: list[Unit], path: list[str]) -> Step | Problem:
        w = self.w
        prev = move.frm
        blitzed: str | None = None
        for i, space in enumerate(path):
            last = i == len(path) - 1
            if prev == space and i == 0 and self._holds_convoy_in_place(move, units):
                continue  # a submarine spends a move to take the convoy zone it starts in (EconomyRules)
            if not w.board.are_adjacent(prev, space):
                return _problem(move, f"{prev} and {space} are not adjacent", "Movement: spaces must be adjacent", "give the spaces in order with via:", "move.not-adjacent", key="via" if move.via else "to")
            if not self._passable(space):
                return self._impassable(move, space, key="via" if move.via else "to")
            if domain == "air" and not last and self.neutral_below(space):
                return _problem(move, f"air units may not fly over the neutral {space}", "Neutral territories: no flight over them",
                                "fly around it", "move.neutral-overflight", key="via" if move.via else "to")
            if domain == "sea" and w.strait_closed(prev, space):
                return _problem(move, f"the straits are closed: no sea unit may move between {prev} and {space}", "Optional rule: Turkish straits closed", "air units may still fly over", "move.straits")
            if domain == "sea" and not w.canal_open(prev, space, subs=getattr(self, "_subs_only", False)):
                return self._canal_closed(move, w.board.canal_between(prev, space), prev, space, key="via" if move.via else "to")
            if domain == "land" and w.is_sea(space):
                return _problem(move, f"land units cannot enter {space}", R_TRANSPORT, "land units cross the sea aboard a transport: a move into its zone loads them", "move.land-to-sea")
            if domain == "sea" and not w.is_sea(space):
                return _problem(move, f"sea units cannot enter {space}", "Sea units", "give a way through sea zones only (via:)", "move.sea-to-land")
            if domain == "sea" and move.phase == "noncombat" and not self.w.rules.economy.convoy_open_in_noncombat and self._enemy_convoy(space):
                return _problem(move, f"{space} is a convoy centre the enemy controls: naval units may not enter it in noncombat move",
                                R_NONCOMBAT + ": naval units may not be moved into enemy-controlled convoy centres",
                                "take it back in combat move with a ship that has an attack value", "move.noncombat-convoy",
                                key="via" if move.via else "to")
            if not last:
                if domain == "land":
                    if move.phase == "noncombat":
                        if not w.is_friendly_territory(space):
                            return _problem(move, f"noncombat moves may pass only friendly territories; {space} is hostile", R_NONCOMBAT, "go round by friendly territories (via:), or attack it in combat_move", "move.noncombat-hostile")
                    elif not w.is_friendly_territory(space):
                        if blitzed is None and self._can_blitz(units) and self._blitzable(space):
                            blitzed = space
                        elif self._can_blitz(units):
                            return _problem(move, f"a tank can blitz only through an unoccupied hostile territory; {space} holds enemy units or is not the first", R_BLITZ, "stop in it and fight", "move.blitz-blocked")
                        else:
                            tags = {p for u in units for p in w.utype(u).blitz_with}
                            partners = sorted(n for n, t in w.ruleset.units.items() if t.tags & tags)
                            hint = ("only tanks may blitz through one empty hostile territory" if not partners else
                                    f"these blitz only beside {article(' or '.join(partners))} in the same order, one for each "
                                    f"(units: '1 {partners[0]}, 1 {units[0].type}'), ending where it ends")
                            return _problem(move, f"land units stop on entering hostile {space}", R_LAND, hint, "move.through-hostile")
                elif domain == "sea":
                    subs = all(w.utype(u).has("submarine") for u in units)
                    if subs and w.rules.movement.subs_ignore_hostile_zones:
                        if w.enemy_destroyer_at(space):
                            return _problem(move, f"submarines stop on entering {space}: an enemy destroyer is there", R_SUBS, f"end the move in {space}, or go round it (via:)", "move.sub-destroyer")
                    elif w.is_hostile_sea_zone(space, subs=subs):
                        return _problem(move, f"sea units stop on entering hostile {space}", R_SEA, "only submarines pass enemy warships, and not where a destroyer is", "move.through-hostile-sea")
                    elif (w.rules.movement.destroyers_reveal_submerged_subs and any(w.utype(u).has("destroyer") for u in units)
                          and any(e.submerged and w.utype(e).has("submarine") for e in w.enemy_units_at(space))):
                        return _problem(move, f"a destroyer entering {space} reveals the enemy submarines submerged there, which ends its move",
                                        R_SEA + ": destroyers immediately reveal submerged submarines", "end the destroyer's move there",
                                        "move.destroyer-reveals")
                    # Enemy submarines and transports do not block movement (Combat Move).
            prev = space
        # The destination.
        dest = path[-1] if path else move.frm
        if move.phase == "noncombat":
            if domain == "land" and not w.is_friendly_territory(dest) and dest != getattr(self, "_taking", None):
                holder = w.control.get(dest)
                neutral = holder is not None and holder not in w.ruleset.turn_order and w.ruleset.power_name(holder) not in w.ruleset.turn_order
                return _problem(move, f"noncombat moves must end in friendly territory; {dest} is hostile"
                                + (f" ({holder}: a neutral not friendly to your side is entered only by attacking it in the combat phase)"
                                   if neutral else ""),
                                R_NONCOMBAT, "attack it in combat_move instead", "move.noncombat-hostile")
            if domain == "sea":
                subs = (all(w.utype(u).has("submarine") for u in units) and w.rules.movement.subs_ignore_hostile_zones
                        and w.rules.movement.subs_end_noncombat_in_hostile_zones)
                enemies = w.enemy_units_at(dest)
                # A noncombat sea move ends only beside enemy units the rule system lets it
                # (Rules.movement.noncombat_sea_may_end_beside); submerged submarines never count, and where
                # the system allows it submarines end in hostile zones unless a destroyer is there.
                beside = w.rules.movement.noncombat_sea_may_end_beside
                blocking = [u for u in enemies if not (w.utype(u).tags & beside) and not u.submerged and u.id not in self.ignored]
                if subs and (w.rules.movement.subs_end_noncombat_beside_destroyers or not w.enemy_destroyer_at(dest)):
                    blocking = []
                if blocking:
                    return _problem(move, f"noncombat moves cannot end in {dest}: enemy {blocking[0].type} is there", R_NONCOMBAT, "attack it in combat_move instead", "move.noncombat-hostile")
        return Step(path, blitzed)

    def capture_by_blitz(self, space: str) -> None:
        """A blitzing tank takes control of the empty territory it passes (Tanks and Blitzing)."""
        self.w.pending.setdefault("blitzed", [])  # type: ignore[union-attr]
        blitzed = self.w.pending["blitzed"]
        assert isinstance(blitzed, list)
        blitzed.append(space)

    # --- transports ---------------------------------------------------------------------------
    def _may_assault_again(self, host: Unit, phase: str) -> bool:
        """May this transport, which has offloaded, move, load and offload again in this combat
        move (Rules.hooks.assaults_per_turn)?"""
        hook = self.w.rules.hooks.assaults_per_turn
        if hook is None or phase != "combat" or host.phase not in (None, "combat"):
            return False
        return host.assaults < hook(self.w.options, self.w.power, self.w.utype(host))

    def _after_combat_bar(self, host: Unit, what: str) -> str | None:
        """Why this transport may not `what` ("load" or "offload") in noncombat move after what it did
        in combat, or None when it may."""
        if host.phase != "combat" and not host.fought:
            return None
        if self._escaped(host):
            return None  # "A transport that moves in this way is not considered to have been in combat this turn"
        if host.retreated:
            return f"a transport that retreated cannot {what} this turn"
        if self.w.rules.movement.transport_after_combat == "nothing":
            return f"a transport that moved or fought in combat cannot {what} in noncombat move"
        if host.noncombat_work not in (None, what):
            return (f"a transport that moved or fought in combat may load or offload in noncombat move, not both: "
                    f"the one in {host.space} {'loaded' if host.noncombat_work == 'load' else 'offloaded'} already")
        return None

    def _escaped(self, host: Unit) -> bool:
        """Europe and Pacific, Transports (Rules.movement.transport_from_hostile_start "never" or
        "assault_only"): a transport that began the turn beside enemy ships "may move out of an
        enemy-filled sea zone and into a friendly or empty zone, where it may load or unload
        normally. A transport that moves in this way is not considered to have been in combat" -
        it moved in combat move, fought no battle and is no longer where it began."""
        return (self.w.rules.movement.transport_from_hostile_start != "as_any" and host.phase == "combat"
                and not host.fought and not host.retreated and host.start in self.hostile_at_start
                and host.space != host.start and not host.offloaded_to)

    def _may_work_after_combat(self, host: Unit, what: str) -> bool:
        """May this transport load (or offload) in noncombat after what it did in combat?  If so, it
        has now done that kind of work."""
        if self._after_combat_bar(host, what) is not None:
            return False
        if host.phase == "combat" or host.fought:
            host.noncombat_work = what
        return True

    def _why_no_transport(self, move: Move, room: str, hint: str) -> tuple[str, str]:
        """The refusal when transports are in the zone but none may take the units: say why."""
        w = self.w
        present = [u for u in w.units_at(move.to) if w.carries_land(u) and w.shares_with(u.owner)]
        if not present:
            return room, hint
        why = set()
        for u in present:
            if u.offloaded_to and not self._may_assault_again(u, move.phase):
                why.add("offloaded this turn, and a transport that offloads loads no more that turn")
            elif u.owner != w.power and move.phase == "combat":
                why.add("is an ally's, which carries your units only in noncombat movement")
            else:
                why.add("came there after the war was declared, and only one already there may load")
        return "no transport that may load now", f"the transport{'s' if len(present) > 1 else ''} in {move.to}: " + "; ".join(sorted(why))

    def _load(self, move: Move, land: list[Unit], units: list[Unit]) -> list[Problem]:
        w = self.w
        if len(land) != len(units):
            return [_problem(move, "only land units board transports", R_TRANSPORT, "move the land units into the zone in one order, the ships in another", "move.load-mixed", key="units")]
        if not w.board.are_adjacent(move.frm, move.to):
            return [_problem(move, f"{move.frm} is not adjacent to {move.to}", R_TRANSPORT, "land units load from a territory adjacent to the transport's sea zone", "move.load-not-adjacent")]
        if any(u.moved for u in land):
            return [_problem(move, "loading is a land unit's whole move; these units already moved", R_TRANSPORT, "load units that have not moved this turn", "move.load-after-move", key="units")]
        confined = self._confined(land)
        if confined is not None and move.to not in confined:
            # 1940, China (P10): "Chinese units cannot be loaded onto transports" - its area holds no sea zone
            return [_problem(move, f"these units may not leave their area, so they board no transport in {move.to}",
                             "Movement restrictions", "move them by land within " + ", ".join(sorted(confined)), "move.confined", key="units")]
        declared = w.hostile_by_declaration(move.to)
        if w.is_hostile_sea_zone(move.to) and not declared:
            return [_problem(move, f"transports cannot load in hostile {move.to}", R_TRANSPORT, "clear the sea zone first, or load elsewhere", "move.load-hostile")]
        def usable(host: Unit) -> bool:
            if declared and (host.path or host.space != host.start):
                return False  # only a transport that was already there when the war was declared
            if host.owner != w.power and move.phase == "combat":
                return False  # an ally's transport cannot carry you into an assault on your turn
            if move.phase == "noncombat" and not self._may_work_after_combat(host, "load"):
                return False  # it moved, fought or retreated in combat: no loading now
            return not host.offloaded_to or self._may_assault_again(host, move.phase)

        hosts = [u for u in w.units_at(move.to) if w.carries_land(u) and w.shares_with(u.owner) and usable(u)]
        if not hosts:
            # a friend's transport there, but a power at war with no one shares none (1940, P14)
            apart = sorted({u.owner for u in w.units_at(move.to) if w.carries_land(u) and w.is_friendly(u.owner)
                            and not w.shares_with(u.owner)})
            if apart:
                return [_problem(move, f"{w.power} may not board {possessive(apart[0])} transports in {move.to}: one of the two "
                                 "is at war with no one, and such a power shares no ships", "Political rules (P14)",
                                 "load onto your own transport, or wait until both are at war", "move.at-peace")]
        if not hosts and move.phase == "noncombat":
            bars = [b for u in w.units_at(move.to) if w.carries_land(u) and w.shares_with(u.owner)
                    and (b := self._after_combat_bar(u, "load")) is not None]
            if bars:
                return [_problem(move, bars[0], R_TRANSPORT, "load onto a transport that did not move or fight in combat",
                                 "move.load-after-combat")]
        held = [h for h in hosts if self._held_by_hostile_start(h, move.to, assault=False)]
        if held and len(held) == len(hosts):
            return [_problem(move, f"a transport that began the turn in {move.to} beside enemy ships does not load there this turn",
                             R_TRANSPORT + ": a transport starting beside enemy ships may not load or unload in that sea zone",
                             "move the transport out to a friendly or empty zone and load there", "move.load-hostile-start")]
        hosts = [h for h in hosts if h not in held]
        # Cargo this power loaded in this phase is repacked with the new units, biggest first onto the
        # fullest transport it fits (best fit): "2 infantry" then "2 tanks" onto three transports gives
        # two transports of a tank and an infantry each.  A rider changes only between ships that have
        # been together since it boarded - none moved yet, or all moved alike (same start and path) -
        # so it could have boarded the other at the time.
        def company(h: Unit) -> tuple[object, ...]:
            return (None,) if h.phase is None else (h.phase, h.start, tuple(h.path), h.offloaded_to)

        movable = [r for h in hosts for r in w.cargo_of(h) if r.owner == w.power and r.loaded_phase == move.phase]
        before = {r.id: r.carrier for r in movable}
        mates = {r.id: [h for h in hosts if company(h) == company(w.units[r.carrier])] for r in movable if r.carrier is not None}
        for r in movable:
            r.carrier = None
        riders = sorted([*movable, *land], key=lambda u: (-w.utype(u).transport_size, u.id))
        for rider in riders:
            candidates = mates.get(rider.id, hosts) if rider in movable else hosts
            fits = [h for h in candidates if w.has_room(h, rider.type)]
            if not fits:
                for r in riders:
                    r.carrier = before.get(r.id)
                room = "no transport" if not hosts else "not enough room aboard the transports"
                hint = cargo_rule_text(w, hosts[0] if hosts else None)
                others = [h for h in hosts if not w.utype(h).has("transport")]
                if hosts and len(others) == len(hosts):
                    # ships that carry by a rule of their own (Pacific's Japanese destroyers: one infantry)
                    kinds = sorted({h.type for h in others})
                    extra = w.extra_cargo(others[0])
                    room = f"no room aboard the {' or '.join(plural(k) for k in kinds)} in {move.to} for {rider.type}"
                    hint = (f"a {kinds[0]} carries {extra[0]} {' or '.join(sorted(extra[1]))} at most, and nothing else"
                            if extra is not None else f"a {kinds[0]} carries no {rider.type}")
                    return [_problem(move, room, R_TRANSPORT, hint, "move.load-capacity", key="units")]
                if not hosts:
                    room, hint = self._why_no_transport(move, room, hint)
                return [_problem(move, f"{room} in {move.to} for {units_text(dict(move.units)) if len(move.units) > 1 or sum(move.units.values()) > 1 else rider.type}", R_TRANSPORT, hint, "move.load-capacity", key="units")]
            load = {h.id: sum(w.utype(c).transport_size for c in w.cargo_of(h)) for h in fits}
            # own ships first, then transports before ships that carry by a rule of their own (Pacific:
            # a Japanese destroyer that unloads infantry gives no support shot, so it carries only what
            # the transports cannot), then the fullest
            best = sorted(fits, key=lambda h: (h.owner != w.power, not w.utype(h).has("transport"), -load[h.id], h.id))[0]
            rider.carrier = best.id
        for rider in land:
            rider.space = move.to
            rider.moved = w.utype(rider).move
            rider.phase = move.phase
            rider.loaded_phase = move.phase
            rider.order = move.yaml_path
            rider.path.append(move.to)
        return []

    def _offload(self, move: Move, land: list[Unit], units: list[Unit]) -> list[Problem]:
        w = self.w
        if len(land) != len(units):
            return [_problem(move, "only land units offload from transports", R_TRANSPORT, "move the land units ashore in one order, the ships in another", "move.offload-mixed", key="units")]
        if not w.board.are_adjacent(move.frm, move.to):
            return [_problem(move, f"{move.to} is not adjacent to {move.frm}", R_TRANSPORT, "transports offload into a territory next to their sea zone", "move.offload-not-adjacent")]
        if w.is_hostile_sea_zone(move.frm) and move.phase == "noncombat":
            return [_problem(move, f"transports cannot offload in hostile {move.frm}", R_TRANSPORT, f"clear {move.frm} with a sea battle in combat_move first", "move.offload-hostile")]
        hosts = {u.carrier for u in land}
        for rider in land:
            host = w.units.get(rider.carrier) if rider.carrier is not None else None
            if host is not None and host.owner != rider.owner and rider.loaded_phase is not None:
                # 1942 Second Edition and Revised, Transports: "Land units belonging to friendly powers
                # must load on their controller's turn, be carried on your turn, and offload on a later
                # turn of their controller."
                return [_problem(move, f"{possessive(rider.owner)} {rider.type} loaded onto {possessive(host.owner)} transport this turn: it offloads "
                                       f"on a later turn of {rider.owner}, after {host.owner} has carried it", R_TRANSPORT,
                                 "load it now and offload it on your next turn", "move.offload-ally-same-turn", key="units")]
        for hid in hosts:
            if hid is None:
                return [_problem(move, "these land units are not aboard a transport", R_TRANSPORT, f"load them first: a move from the coast into {move.frm}", "move.offload-not-aboard", key="units")]
            host = w.units[hid]
            if (move.phase == "noncombat" and host.offloaded_phase == "combat"
                    and not (w.rules.movement.offloads_again_after_assault and host.offloaded_to == move.to)):
                # once it offloads, a transport cannot move, load or offload again that turn, so an
                # assault's transport is done (Revised: but more may offload into the same territory)
                return [_problem(move, f"this transport offloaded in the combat move (into {host.offloaded_to}): it cannot "
                                       "offload again this turn", R_TRANSPORT, "offload the rest on a later turn", "move.offload-twice")]
            if host.offloaded_to and host.offloaded_to != move.to and not self._may_assault_again(host, move.phase):
                return [_problem(move, f"a transport cannot offload in two territories in one turn (it offloaded in {host.offloaded_to})", R_TRANSPORT, f"offload into {host.offloaded_to}, or use another transport", "move.offload-twice")]
            if host.retreated:
                return [_problem(move, "a transport that retreated cannot offload this turn", R_TRANSPORT, "offload next turn", "move.offload-retreated")]
            if self._held_by_hostile_start(host, move.frm, assault=move.phase == "combat"):
                return [_problem(move, f"a transport that began the turn in {move.frm} beside enemy ships does not offload there this turn",
                                 R_TRANSPORT + ": a transport starting beside enemy ships may not load or unload in that sea zone",
                                 "move the transport out to a friendly or empty zone and offload from there", "move.offload-hostile-start")]
            if move.phase == "noncombat" and not self._may_work_after_combat(host, "offload"):
                return [_problem(move, self._after_combat_bar(host, "offload") or "", R_TRANSPORT, "offload with another transport, or next turn", "move.offload-after-combat")]
        hostile = w.is_hostile_territory(move.to)
        if move.phase == "combat" and not hostile:
            return [_problem(move, f"offloading into friendly {move.to} is not a combat move", R_END_IN_COMBAT, "offload there in noncombat_move", "move.offload-friendly")]
        peace = self._at_peace_in(move, move.to) if move.phase == "combat" else None
        if peace:
            return [peace]  # an amphibious assault is an attack
        if move.phase == "noncombat" and hostile:
            return [_problem(move, f"{move.to} is hostile: offloading into it is an amphibious assault, a combat move", R_NONCOMBAT, "write the offload in combat_move", "move.offload-hostile-noncombat")]
        hook = w.rules.hooks.move_restriction  # a landing enters the territory as a land move does (1940, P14)
        why = hook(w.options, w.power, units=[w.utype(u) for u in land], owners=frozenset(u.owner for u in land), phase=move.phase,
                   domain="land", path=(move.to,), frm=move.frm, world=w) if hook is not None else None
        if why:
            return [_problem(move, why, "Political rules: powers not at war", MOVE_RESTRICTION_HINT, "move.restricted")]
        for rider in land:
            host = w.units[rider.carrier]  # type: ignore[index]
            if move.phase == "combat" and host.offloaded_to != move.to:
                host.assaults += 1
            host.offloaded_to = move.to
            host.offloaded_phase = host.offloaded_phase or move.phase
            host.unloaded += w.utype(rider).transport_size
            rider.carrier = None
            rider.space = move.to
            rider.moved = w.utype(rider).move
            rider.phase = move.phase
            rider.path.append(move.to)
            rider.came_by = host.id
            rider.order = move.yaml_path
            if move.phase == "combat":
                rider.seaborne_from = move.frm
        if self._taking == move.to:
            self._note_taken()  # a landing takes a friendly neutral as a walk does (1940: Java, Sumatra)
        return []

    def _note_taken(self) -> None:
        """A friendly neutral entered (`_taking`): taken once every noncombat move is made."""
        taken = self.w.pending.setdefault("neutrals_taken", [])  # type: ignore[union-attr]
        assert isinstance(taken, list)
        if self._taking not in taken:
            taken.append(self._taking)


def cargo_rule_text(w: World, host: Unit | None) -> str:
    """What a transport of this rule system holds, said from the cargo sizes in its data (each
    system's Transports rule: 1942 "one land unit plus one infantry", Pacific "one tank, or two of
    any other land unit"): "1 tank, or 2 of artillery, infantry or marine in any mix"."""
    kinds = [t for t in w.ruleset.units.values() if t.has("transport")]
    host_type = w.utype(host) if host is not None and w.utype(host).has("transport") else (kinds[0] if kinds else None)
    if host_type is None:
        return "land units travel aboard transports"
    classes: dict[int, list[str]] = {}
    for t in w.ruleset.units.values():
        if t.domain == "land" and t.transport_size > 0:
            classes.setdefault(t.transport_size, []).append(t.name)
    sizes = sorted(classes, reverse=True)
    loads: list[list[tuple[int, int]]] = []

    def fill(i: int, left: int, combo: list[tuple[int, int]]) -> None:
        if i == len(sizes):
            if combo and all(left < s for s in sizes):  # full: nothing more fits
                loads.append(combo)
            return
        for n in range(left // sizes[i], -1, -1):
            fill(i + 1, left - n * sizes[i], combo + ([(sizes[i], n)] if n else []))

    fill(0, host_type.transport_capacity, [])

    def part(size: int, n: int) -> str:
        names = sorted(classes[size])
        if len(names) == 1:
            return count_of(n, names[0])
        either = ", ".join(names[:-1]) + " or " + names[-1]
        return f"{n} {either}" if n == 1 else f"{n} of {either} in any mix"

    return f"a {host_type.name} carries " + ", or ".join(" and ".join(part(s, n) for s, n in load) for load in loads)

