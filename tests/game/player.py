"""A random player for soak tests: it drafts orders from what it sees on the board, then keeps
only what the validator accepts, so that long games of every rule system reach battles, captures,
fallen capitals and placements the hand-written cases do not.

It knows no rule: it buys what it can pay for, attacks enemy neighbours, marches and flies to
neighbours and places at its complexes; every choice the rules forbid is found by `Game.check`
and dropped (the item a problem points at, else one item of the section it names), until the
orders pass.  With `reach`, it also sends each stack anywhere within its movement, joins the
attacks of other stacks, lands its aircraft after combat and sails carried assaults with escorts:
moves of several spaces reach rules (blitzes, paths through hostile spaces, landing duties) that
moves to neighbours never do."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import yaml

from pbem.engine.model import GameState
from pbem.engine.problems import ProblemsError
from pbem.game.game import Game


class _Dumper(yaml.SafeDumper):
    """Writes a unit map used by two moves twice: orders files may not hold YAML aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


SECTIONS = ("declare_war", "develop", "repair", "purchase", "rockets", "combat_move", "battles", "noncombat_move", "place")
DEVELOPMENTS = ("Jet Fighters", "Rockets", "Super Submarines", "Long-Range Aircraft", "Combined Bombardment", "Heavy Bombers")
MOST_REPAIRS = 40  # validations before the player gives up and passes its turn


class RandomPlayer:
    """One random player for every power of a game, seeded: the same seed plays the same game."""

    def __init__(self, game: Game, rng: random.Random, reach: bool = False) -> None:
        self.ruleset = game.ruleset
        self.rng = rng
        self.patrols = game.rules.movement.combat_air_patrol
        self.reach = reach

    # drafting ------------------------------------------------------------------------------
    def draft(self, state: GameState, power: str) -> dict[str, Any]:
        """Orders as a player might first write them, many of them illegal: `orders` prunes them."""
        rs, rng = self.ruleset, self.rng
        board = rs.board
        side = rs.side_of(power)
        mine = {s: dict(by[power]) for s, by in sorted(state.units.items()) if by.get(power)}

        def hostile(space: str) -> bool:
            owner = state.control.get(space)
            enemy_units = any(o != power and self._known(o) and rs.side_of(o) != side for o in state.units.get(space, {}))
            return (owner is not None and self._known(owner) and rs.side_of(owner) != side) or enemy_units

        def some(counts: dict[str, int], domains: tuple[str, ...]) -> dict[str, int]:
            picked = {u: rng.randint(1, n) for u, n in counts.items()
                      if n > 0 and u in rs.units and rs.units[u].domain in domains and rs.units[u].move > 0
                      and rng.random() < 0.7}
            return picked

        combat: list[dict[str, Any]] = []
        noncombat: list[dict[str, Any]] = []
        battles: dict[str, Any] = {}
        moved: dict[str, dict[str, int]] = {}
        for space, counts in mine.items():
            here = board.spaces[space]
            neighbours = sorted(n for n in board.neighbours(space) if not board.spaces[n].impassable)
            if not neighbours:
                continue
            domains = ("land",) if here.is_land else ("sea",)
            targets = [n for n in neighbours if hostile(n) and board.spaces[n].kind == here.kind]
            if targets and rng.random() < 0.5:
                units = some(counts, domains)
                if units:
                    target = rng.choice(targets)
                    combat.append({"units": units, "from": space, "to": target})
                    moved.setdefault(space, {}).update(units)
                    if rng.random() < 0.3:
                        battles[target] = self._directive(units, space)
            air = some(counts, ("air",))
            if air and rng.random() < 0.3:
                target = rng.choice(neighbours)
                if hostile(target):
                    combat.append({"units": air, "from": space, "to": target})
                    noncombat.append({"units": air, "from": target, "to": space})
                    moved.setdefault(space, {}).update(air)
            raid = [n for n in self._within(space, 3) if hostile(n) and any(
                rs.units[u].has("factory") for by in state.units.get(n, {}).values() for u in by if u in rs.units)]
            bombers = {u: n for u, n in counts.items() if u in rs.units and rs.units[u].has("bomber")}
            if raid and bombers and rng.random() < 0.4:
                target = rng.choice(raid)
                combat.append({"units": bombers, "from": space, "to": target, "mission": "strategic_bombing"})
                noncombat.append({"units": bombers, "from": target, "to": space})
                moved.setdefault(space, {}).update(bombers)
            if here.is_land and rng.random() < 0.4:
                combat += self._assault(state, power, space, counts, hostile)
            left = {u: n - moved.get(space, {}).get(u, 0) for u, n in counts.items()}
            patrol = {u: n for u, n in left.items() if n > 0 and u in rs.units and rs.units[u].lands_on_carriers}
            if self.patrols and here.is_land and patrol and rng.random() < 0.3:
                zones = [n for n in neighbours if board.spaces[n].is_sea]
                if zones:  # Pacific, Combat Air Patrol
                    noncombat.append({"units": patrol, "from": space, "to": rng.choice(zones), "mission": "cap"})
                    left = {u: n - patrol.get(u, 0) for u, n in left.items()}
            if rng.random() < 0.3:
                units = some(left, domains + ("air",))
                friendly = [n for n in neighbours if not hostile(n)]
                if units and friendly:
                    noncombat.append({"units": units, "from": space, "to": rng.choice(friendly)})
        orders: dict[str, Any] = {"game": None, "power": power, "round": state.round}
        enemies = sorted(p for p in rs.turn_order if rs.side_of(p) != side)
        if enemies and rng.random() < 0.15:
            orders["declare_war"] = [rng.choice(enemies)]  # refused where the rules have no such choice
        if rng.random() < 0.15:  # Revised, Develop Weapons (refused where there is no such phase)
            orders["develop"] = {"development": rng.choice(DEVELOPMENTS), "dice": rng.randint(1, 2)}
        guns = [s for s, counts in mine.items() if board.spaces[s].is_land and any(
            rs.units[u].has("aa") or rs.units[u].has("air_base") for u in counts if u in rs.units)]
        if guns and rng.random() < 0.3:  # with Rockets: an antiaircraft gun (Revised) or an air base (AMS) strikes
            gun = rng.choice(guns)
            targets = [t for t in self._within(gun, 3) if hostile(t) and any(
                rs.units[u].has("factory") for by in state.units.get(t, {}).values() for u in by if u in rs.units)]
            if targets:
                orders["rockets"] = [{"from": gun, "target": rng.choice(targets)}]
        damaged = {t: n for t, n in sorted(state.damage.items()) if n > 0 and state.control.get(t) in
                   {c.name for c in rs.power(power).economies}}
        if damaged and rng.random() < 0.5:
            orders["repair"] = {t: rng.randint(1, n) for t, n in damaged.items()}
        if self.reach:
            far_combat, far_battles, far_noncombat = self._far_moves(state, power, hostile)
            combat += far_combat
            battles.update(far_battles)
            noncombat += far_noncombat
        purchase, place = self._buy_and_place(state, power)
        if purchase:
            orders["purchase"] = purchase
        if combat:
            orders["combat_move"] = combat
        if battles:
            orders["battles"] = battles
        if noncombat:
            orders["noncombat_move"] = noncombat
        if place:
            orders["place"] = place
        return orders

    def _assault(self, state: GameState, power: str, space: str, counts: dict[str, int], hostile) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
        """An amphibious assault from `space`: land units board a transport in a zone beside it and
        land on a hostile coast of that zone."""
        rs, rng, board = self.ruleset, self.rng, self.ruleset.board
        for zone in sorted(board.neighbours(space)):
            if not board.spaces[zone].is_sea or not any(rs.units[u].transport_capacity for u in state.units.get(zone, {}).get(power, {})
                                                       if u in rs.units):
                continue
            coasts = sorted(n for n in board.neighbours(zone) if n != space and board.spaces[n].is_land and hostile(n))
            cargo = [u for u, n in counts.items() if n > 0 and u in rs.units and rs.units[u].transport_size]
            if coasts and cargo:
                units = {rng.choice(cargo): 1}
                target = rng.choice(coasts)
                return [{"units": units, "from": space, "to": zone}, {"units": units, "from": zone, "to": target}]
        return []

    def _far_moves(self, state: GameState, power: str, hostile) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:  # type: ignore[no-untyped-def]
        """Moves of several spaces: each unit type of a stack attacks a hostile space within its
        movement (most often one another stack attacks too), aircraft land after it on a friendly
        territory within what movement is left, others march or sail to a friendly space in reach;
        land units board a transport beside them and land on a hostile coast it can reach."""
        rs, rng, board = self.ruleset, self.rng, self.ruleset.board
        side = rs.side_of(power)

        def friendly(space: str) -> bool:
            owner = state.control.get(space)
            return owner is not None and self._known(owner) and rs.side_of(owner) == side

        combat: list[dict[str, Any]] = []
        noncombat: list[dict[str, Any]] = []
        battles: dict[str, Any] = {}
        attacked: list[str] = []
        for space, by in sorted(state.units.items()):
            counts = dict(by.get(power, {}))
            for unit, n in sorted(counts.items()):
                profile = rs.units.get(unit)
                if profile is None or profile.move <= 0 or profile.domain not in ("land", "sea", "air") or n <= 0:
                    continue
                units = {unit: rng.randint(1, n)}
                air = profile.domain == "air"
                reach = self._reach(space, profile.domain, max(1, profile.move - 1) if air else profile.move)
                reach.pop(space, None)
                on_land = profile.domain == "land"
                targets = sorted(t for t in reach if hostile(t) and (air or board.spaces[t].is_land == on_land))
                roll = rng.random()
                if targets and roll < 0.45:
                    joint = [t for t in targets if t in attacked]
                    target = rng.choice(joint) if joint and rng.random() < 0.7 else rng.choice(targets)
                    attacked.append(target)
                    combat.append({"units": units, "from": space, "to": target})
                    if air:
                        home = self._reach(target, "air", profile.move - reach[target])
                        lands = sorted(t for t in home if t != target and board.spaces[t].is_land and friendly(t))
                        if lands:
                            noncombat.append({"units": units, "from": target, "to": rng.choice(lands)})
                    if rng.random() < 0.25:
                        battles[target] = self._directive(units, space)
                elif roll < 0.7:
                    ends = sorted(t for t in reach if not hostile(t) and (
                        (air and board.spaces[t].is_land and friendly(t)) or (on_land and friendly(t))
                        or (profile.domain == "sea" and not board.spaces[t].is_land)))
                    if ends:
                        noncombat.append({"units": units, "from": space, "to": rng.choice(ends)})
            if board.spaces[space].is_land and rng.random() < 0.5:
                combat += self._carried_assault(state, power, space, counts, hostile)
        return combat, battles, noncombat

    def _carried_assault(self, state: GameState, power: str, space: str, counts: dict[str, int], hostile) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
        """A land unit boards a transport beside `space`, which sails (with some of the warships
        there) to a zone off a hostile coast within its movement; the unit lands there."""
        rs, rng, board = self.ruleset, self.rng, self.ruleset.board
        cargo = [u for u, n in counts.items() if n > 0 and u in rs.units and rs.units[u].domain == "land" and rs.units[u].transport_size]
        for zone in sorted(board.neighbours(space)):
            ships = state.units.get(zone, {}).get(power, {})
            carriers = [u for u in ships if u in rs.units and rs.units[u].transport_capacity]
            if not cargo or not carriers or not board.spaces[zone].is_sea:
                continue
            seas = self._reach(zone, "sea", rs.units[carriers[0]].move)
            coasts = sorted({c for z in seas for c in board.neighbours(z) if board.spaces[c].is_land and c != space and hostile(c)})
            if not coasts:
                continue
            coast = rng.choice(coasts)
            offshore = rng.choice(sorted(z for z in seas if coast in board.neighbours(z)))
            load = {rng.choice(cargo): 1}
            moves = [{"units": load, "from": space, "to": zone}]
            if offshore != zone:
                escort = {u: 1 for u in sorted(ships) if u in rs.units and rs.units[u].attack > 0 and rng.random() < 0.5}
                moves.append({"units": {carriers[0]: 1, **load, **escort}, "from": zone, "to": offshore})
            moves.append({"units": load, "from": offshore, "to": coast})
            return moves
        return []

    def _reach(self, start: str, domain: str, steps: int) -> dict[str, int]:
        """The spaces a unit of `domain` could reach in `steps` moves on an empty board, by distance."""
        board = self.ruleset.board
        seen = {start: 0}
        edge = deque([start])
        while edge:
            here = edge.popleft()
            if seen[here] >= steps:
                continue
            for n in sorted(board.neighbours(here)):
                sp = board.spaces[n]
                if sp.impassable or n in seen or (domain == "land" and not sp.is_land) or (domain == "sea" and sp.is_land):
                    continue
                seen[n] = seen[here] + 1
                edge.append(n)
        return seen

    def _within(self, space: str, steps: int) -> list[str]:
        """The spaces at most `steps` moves away (a bomber's raid and its way home)."""
        board = self.ruleset.board
        seen, edge = {space}, [space]
        for _ in range(steps):
            edge = sorted({n for s in edge for n in board.neighbours(s) if not board.spaces[n].impassable} - seen)
            seen.update(edge)
        return sorted(seen - {space})

    def _known(self, name: str) -> bool:
        try:
            self.ruleset.power(name)
            return True
        except KeyError:
            return False

    def _directive(self, units: dict[str, int], origin: str) -> dict[str, Any]:
        rng = self.rng
        directive: dict[str, Any] = {}
        if rng.random() < 0.5:
            order = sorted(units)
            rng.shuffle(order)
            directive["order_of_loss"] = order
        if rng.random() < 0.4:
            directive["retreat"] = {"to": origin, "when": rng.choice(["after round 1", "after round 2", "attackers <= 1",
                                                                       "defenders outnumber"])}
        if any(self.ruleset.units[u].hits > 1 for u in units if u in self.ruleset.units) and rng.random() < 0.3:
            directive["damage_first"] = False
        # the other keys, which the validator drops where they do not apply (bombard with no landing ...)
        if rng.random() < 0.2:
            directive["bombard"] = rng.choice(["1 battleship", "1 cruiser", "1 destroyer", "2 battleships"])
        if rng.random() < 0.1:
            directive["call_off"] = rng.choice(["always", "attackers <= 2", "defenders outnumber"])
        if rng.random() < 0.1:
            directive["hold_territory"] = rng.random() < 0.5
        if rng.random() < 0.1:
            directive["submerge"] = rng.random() < 0.5
        return directive

    def _buy_and_place(self, state: GameState, power: str) -> tuple[Any, dict[str, dict[str, int]]]:
        """Units each economy can pay for, placed at its complexes (ships in a zone beside one)."""
        rs, rng, board = self.ruleset, self.rng, self.ruleset.board
        economies = rs.power(power).economies
        buyable = sorted(u.name for u in rs.units.values() if u.cost > 0 and u.domain in ("land", "sea", "air"))
        bought: dict[str, dict[str, int]] = {}
        place: dict[str, dict[str, int]] = {}
        for country in economies:
            money = state.treasury.get(country.name, 0)
            sites = sorted(s for s, by in state.units.items() if board.spaces[s].is_land
                           and state.control.get(s) == country.name
                           and any(rs.units[u].has("factory") for u in by.get(power, {}) if u in rs.units))
            if not sites:
                continue
            mine: dict[str, int] = {}
            for _ in range(rng.randint(0, 6)):
                unit = rng.choice(buyable)
                if rs.units[unit].cost <= money:
                    money -= rs.units[unit].cost
                    mine[unit] = mine.get(unit, 0) + 1
                    site = rng.choice(sites)
                    if rs.units[unit].domain == "sea":
                        zones = sorted(n for n in board.neighbours(site) if board.spaces[n].is_sea)
                        if not zones:
                            continue
                        site = rng.choice(zones)
                    place.setdefault(site, {})
                    place[site][unit] = place[site].get(unit, 0) + 1
            if mine:
                bought[country.name] = mine
        if len(economies) == 1:
            return bought.get(economies[0].name, {}), place
        return bought, place

    def standing(self, game: Game, power: str) -> bytes:
        """Random standing orders: an order of loss of every unit type, submarines that submerge or
        not, and (Pacific's Japan) kamikaze at any ships."""
        rs, rng = self.ruleset, self.rng
        units = sorted(u.name for u in rs.units.values() if u.domain in ("land", "sea", "air"))
        rng.shuffle(units)
        policy: dict[str, Any] = {"order_of_loss": units, "submerge": rng.random() < 0.5, "hold_territory": rng.random() < 0.3}
        two_hit = sorted(u.name for u in rs.units.values() if u.hits > 1)
        if two_hit and rng.random() < 0.3:
            policy["damage_first"] = rng.choice([False, two_hit[:1]])
        orders: dict[str, Any] = {"default": policy}
        if any(space.kamikaze for space in rs.board.spaces.values()) and power == "Japan":
            ships = sorted(u.name for u in rs.units.values() if u.domain == "sea")
            orders["kamikaze"] = [{"targets": rng.sample(ships, 2), "count": rng.randint(1, 2)}]
        if game.rules.scramble is not None:
            bases = sorted(s for s, by in game.state().units.items() if any(
                rs.units[u].has("air_base") for u in by.get(power, {}) if u in rs.units))
            if bases:
                orders["scramble"] = [{"from": b} for b in bases if rng.random() < 0.7]
        doc = {"game": game.config.game, "power": power, "standing_orders": orders}
        return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True).encode()

    # repairing -------------------------------------------------------------------------------
    def orders(self, game: Game) -> bytes:
        """The draft with what the validator refuses taken out, as an orders file."""
        state = game.state()
        power = game.power_to_move(state)
        orders = self.draft(state, power)
        orders["game"] = game.config.game
        for _ in range(MOST_REPAIRS):
            text = yaml.dump(orders, Dumper=_Dumper, sort_keys=False, allow_unicode=True).encode()
            try:
                game.check(text, "random.yaml")
                return text
            except ProblemsError as err:
                if not self._drop(orders, [p.path for p in err.problems]):
                    break
        return f"game: {game.config.game}\npower: {power}\nround: {state.round}\n".encode()

    def _drop(self, orders: dict[str, Any], paths: list[tuple[Any, ...]]) -> bool:
        """Drop the items the problems point at (the last first, so indices hold); a problem
        without a path drops the last section.  False when nothing is left to drop."""
        dropped = False
        # a problem that names only a list section (cargo loaded but not landed) drops one of its
        # items, chosen at random, rather than every move of the turn
        paths = list(dict.fromkeys((p[0], self.rng.randrange(len(orders[p[0]]))) if len(p) == 1
                                   and isinstance(orders.get(p[0]), list) and len(orders[p[0]]) > 1 else p for p in paths))
        for path in sorted((p for p in paths if p and p[0] in orders and p[0] in SECTIONS),
                           key=lambda p: (p[0], p[1] if len(p) > 1 and isinstance(p[1], int) else -1), reverse=True):
            section = orders.get(path[0])
            if section is None:
                continue
            item = path[1] if len(path) > 1 else None
            if isinstance(section, list) and isinstance(item, int) and item < len(section):
                del section[item]
            elif isinstance(section, dict) and item in section:
                del section[item]
            else:
                del orders[path[0]]
            if not orders.get(path[0], True):
                orders.pop(path[0], None)
            dropped = True
        if not dropped:
            for key in reversed(SECTIONS):
                if key in orders:
                    del orders[key]
                    return True
        return dropped
