"""The battle as pure step functions: dice are a question the engine asks.

A round is a fixed list of phases.  For each phase the engine states the dice it needs as
`Volley`s (who fires, in which groups, at which hit values and at what) and, given the number of
hits per fire class, returns the next state.  `fight` answers the questions with real dice; the
odds calculator answers them with every possible number of hits and its exact probability.
Both walk the same functions, so there is one copy of the rules.

States are tuples (a `NamedTuple`) rather than dataclasses because the odds calculator hashes
millions of them.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple, Sequence

from pbem.engine.combat.casualties import Category, LossPlan, Taken, can_hit
from pbem.engine.combat.model import (
    Battle,
    Boost,
    CasualtiesChosen,
    Casualty,
    DiceGroup,
    Event,
    FireClass,
    Force,
    Orders,
    Retreated,
    Side,
    Submerged,
    Winner,
)

if TYPE_CHECKING:
    import numpy as np

Hits = tuple[tuple[FireClass, int], ...]  # hits per fire class, sorted by class
# "parting": Europe's defending submarines that were to submerge but were hit in this round's fire
# take their parting shot (no dice in other rule systems)
PHASES = ("opening", "surprise", "fire", "parting", "end")


class State(NamedTuple):
    """Where the battle stands between phases; counts are per side category (see `Engine`)."""

    round: int
    a: tuple[int, ...]  # attacking units on the battle strip
    d: tuple[int, ...]
    a_pending: tuple[int, ...]  # casualties behind the casualty strip: they still fire
    d_pending: tuple[int, ...]
    a_submerged: tuple[int, ...]
    d_submerged: tuple[int, ...]
    a_retreated: tuple[int, ...]
    over: str  # "" while the battle goes on, else the winner
    no_combat: bool = False  # ended before any round (e.g. AAA alone)


@dataclass(frozen=True)
class Volley:
    """Dice one side rolls in one step, grouped by hit value in a stable order (value, unit)."""

    side: Side
    step: str  # label step: aa, bombard, surprise-attacker, surprise-defender, attacker, defender
    groups: tuple[DiceGroup, ...]

    @property
    def classes(self) -> tuple[FireClass, ...]:
        return tuple(sorted({g.fire_class for g in self.groups}))


def _tuple_sub(x: Sequence[int], y: Sequence[int]) -> tuple[int, ...]:
    return tuple(map(operator.sub, x, y))


def _tuple_add(x: Sequence[int], y: Sequence[int]) -> tuple[int, ...]:
    return tuple(map(operator.add, x, y))


class _Firing(NamedTuple):
    """A side's dice in one kind of round (round 1 or later), per category whatever its count."""

    # per category: its value, submarine?, aircraft?, may artillery support it?, does it pair?, dice per unit
    categories: tuple[tuple[int, bool, bool, bool, bool, int], ...]
    infantry: tuple[int, ...]  # categories artillery supports this round (an attack only)
    artillery: tuple[int, ...]
    per_artillery: int  # infantry each artillery supports (0: none, or not the attacker)
    any_paired: bool
    boosts: tuple[Boost, ...]


class Engine:
    """The rules of one battle, with its categories and each side's loss plan built once."""

    def __init__(self, battle: Battle, attacker_orders: Orders, defender_orders: Orders):
        if not any(f.count for f in battle.attackers) and not any(
            s.count for s in battle.sacrifices if s.side == "attacker"
        ):
            raise ValueError(f"battle at {battle.space} has no attacking units")
        self._tagged: dict[tuple[str, str], tuple[int, ...]] = {}  # (side, tag) -> its categories (`_has`)
        self.battle = battle
        self.rules = battle.rules
        self.kind = battle.kind
        self.orders = {"attacker": attacker_orders, "defender": defender_orders}
        # the phases this battle can use: the parting shot only where defending subs hold their fire
        # to submerge (Europe), so other battles do not walk a phase that never rolls
        parting = (self.kind == "sea" and defender_orders.submerge == "always"
                   and self.rules.submerge_timing == "attacker_at_strike_defender_instead_of_return_fire")
        self.phases = PHASES if parting else tuple(p for p in PHASES if p != "parting")
        self.a_cats, a_start = self._categories(battle.attackers, battle.attacker_damaged)
        self.d_cats, d_start = self._categories(battle.defenders, battle.damaged)
        self.a_start = a_start
        self.d_start = d_start
        land = battle.kind == "land"
        self.plans: dict[str, LossPlan] = {
            "attacker": LossPlan(
                self.a_cats,
                attacker_orders,
                keep_one=land and attacker_orders.hold_territory,
                combat_value=[c.profile.attack > 0 and not c.profile.has("cannot_attack") for c in self.a_cats],
                transports_last=self.rules.transports_chosen_last,
                aa_can_be_casualty=self.rules.aa_can_be_casualty,
                strength=[0 if c.profile.has("cannot_attack") else c.profile.attack for c in self.a_cats],
            ),
            "defender": LossPlan(
                self.d_cats,
                defender_orders,
                keep_one=land and defender_orders.hold_territory,
                combat_value=[c.profile.defense > 0 for c in self.d_cats],
                transports_last=self.rules.transports_chosen_last,
                aa_can_be_casualty=self.rules.aa_can_be_casualty,
                strength=[c.profile.defense for c in self.d_cats],
            ),
        }
        if attacker_orders.aa_order_of_loss:
            # antiaircraft hits follow their own order when the attacker wrote one
            self.plans["attacker-aa"] = LossPlan(
                self.a_cats,
                Orders(order_of_loss=attacker_orders.aa_order_of_loss),
                keep_one=False,
                combat_value=[c.profile.attack > 0 for c in self.a_cats],
                transports_last=self.rules.transports_chosen_last,
                aa_can_be_casualty=self.rules.aa_can_be_casualty,
                strength=[0 if c.profile.has("cannot_attack") else c.profile.attack for c in self.a_cats],
            )
        seaborne = sum(f.count for f in battle.attackers if f.seaborne)
        ships = list(battle.bombard) if land else []
        if self.rules.bombard_cap_per_seaborne_unit:
            ships = ships[:seaborne]
        if self.rules.bombard_targets == "land" and not any(
            f.count and battle.units[f.unit].domain == "land" for f in battle.defenders
        ):
            ships = []  # CombatRules.bombard_targets: no land unit to fire at, the step is skipped
        self.bombard_ships = tuple(ships)
        self.has_aa = land and any(c.profile.has("aa") for c in self.d_cats)
        retreat = attacker_orders.retreat
        # round 1 differs from later rounds: the odds calculator keeps it apart (State.round)
        self.sacrifices = tuple(s for s in battle.sacrifices if s.count)
        first_round_special = (
            self.has_aa or bool(self.bombard_ships) or bool(self.sacrifices) or self._first_cycle_differs()
            or (not land and not self.rules.surprise_repeats_every_round)  # subs strike by surprise in round 1 only
        )
        cap = 2 if first_round_special else 1
        # from `settled_round` on, rounds differ only in whether the attacker retreats after them
        # (an order to retreat after round N): the odds' fast paths play those rounds one by one
        self.settled_round = cap
        if retreat.kind == "after_round":
            cap = max(cap, retreat.value)
        self.steady_round = cap
        self.a_idx = self._index(self.a_cats)
        self.d_idx = self._index(self.d_cats)
        # memos of pure functions (the odds calculator asks the same questions many times)
        self._never_retreats = retreat.kind == "never"
        self._d_fights = tuple(i for i, c in enumerate(self.d_cats) if self._value("defender", c) > 0)
        # AA units that cannot be casualties go back to the board after opening fire (Revised step 3):
        # they do not keep a battle going.  Empty when AA can be taken as casualties (1942).
        self._d_aside = frozenset(
            i for i, c in enumerate(self.d_cats) if c.profile.has("aa") and not self.rules.aa_can_be_casualty
        )
        self._volley_memo: dict[tuple[str, int, tuple[int, ...], tuple[int, ...]], Volley] = {}
        self._hurt_memo: dict[tuple[str, tuple[bool, ...], tuple[bool, ...]], bool] = {}
        self._doomed_memo: dict[tuple[str, tuple[bool, ...], tuple[bool, ...]], bool] = {}
        self._conclude_memo: dict[tuple[tuple[bool, ...], tuple[bool, ...], bool], Winner | None] = {}
        self._take_memo: dict[tuple[object, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._firing_memo: dict[tuple[str, bool], _Firing] = {}

    def idle_phases(self, round_: int) -> frozenset[str]:
        """The phases that leave every state of this battle as it is in round `round_` (no dice, no
        change): the odds skip them.  Opening fire where no bombardment or AA gun fires in that
        round and no AA gun stands aside (Revised: it may leave the defender alone on the strip).
        Tests hold `apply` to this."""
        bombard = bool(self.bombard_ships) and round_ == 1
        aa = self.has_aa and (round_ == 1 or not self.rules.aa_first_round_only)
        strikes = round_ == 1 and any(s.before_surprise_strike for s in self.sacrifices)
        return frozenset() if bombard or aa or strikes or self._d_aside else frozenset({"opening"})

    def _first_cycle_differs(self) -> bool:
        """Does a unit here fire with a first-cycle profile (its value, or artillery support, differs)?"""
        return any(self._first_cycle(c, 1) for c in self.a_cats + self.d_cats)

    # ------------------------------------------------------------------ categories
    def _categories(
        self, forces: Iterable[Force], damaged: Mapping[str, Mapping[str, int]]
    ) -> tuple[tuple[Category, ...], tuple[int, ...]]:
        counts: dict[tuple[str, str, bool, bool], int] = {}
        order: list[tuple[str, str, bool, bool]] = []
        left_damaged = {o: dict(m) for o, m in damaged.items()}
        for force in forces:
            profile = self.battle.profile(force.owner, force.unit)
            if profile.domain == "structure" or force.count == 0:
                continue  # industrial complexes are not placed on the battle strip
            keys = [(force.unit, force.owner, force.seaborne, False)]
            if profile.hits >= 2:
                keys.append((force.unit, force.owner, force.seaborne, True))
            for key in keys:
                if key not in counts:
                    counts[key] = 0
                    order.append(key)
            hurt = min(force.count, left_damaged.get(force.owner, {}).get(force.unit, 0)) if profile.hits >= 2 else 0
            if hurt:
                left_damaged[force.owner][force.unit] -= hurt
                counts[keys[1]] += hurt
            counts[keys[0]] += force.count - hurt
        cats = tuple(Category(u, o, s, dmg, self.battle.profile(o, u)) for (u, o, s, dmg) in order)
        return cats, tuple(counts[k] for k in order)

    @staticmethod
    def _index(cats: Sequence[Category]) -> dict[tuple[str, str, bool, bool], int]:
        return {(c.unit, c.owner, c.seaborne, c.damaged): i for i, c in enumerate(cats)}

    def cats(self, side: Side) -> tuple[Category, ...]:
        return self.a_cats if side == "attacker" else self.d_cats

    # ------------------------------------------------------------------ state helpers
    def initial(self, log: list[Event] | None = None) -> State:
        """Round 1 before any dice; ends at once when the defender has nothing that fights."""
        zero_a = (0,) * len(self.a_cats)
        zero_d = (0,) * len(self.d_cats)
        state = State(1, self.a_start, self.d_start, zero_a, zero_d, zero_a, zero_d, zero_a, "")
        if self.kind == "land":
            state = self._aa_alone_logged(state, log)
            if not self._d_on(state.d) and not (self._d_aside and self._opening_volleys(state)):
                return state._replace(over="attacker", no_combat=True)
        elif (any(state.a) and self._d_on(state.d) and not self.battle.sacrifices
              and all(c.profile.has("transport") for n, c in zip(state.d, self.d_cats) if n)
              and self._transports_doomed("defender", state.d, state.a)):
            # 1942, Transports: units "ending their combat movement in a sea zone containing only
            # enemy transports automatically destroy those transports" - before any die, a
            # submarine's surprise strike included
            return self._conclude(self._defenceless(state, log), log)
        elif (any(state.a) and self._d_on(state.d) and not self.battle.sacrifices
              and self._winner(state, False) == "none"):
            # Condition A before any die: nothing on either side can ever hit the other (1942:
            # aircraft against a lone submarine with no destroyer), so no one rolls
            return state._replace(over="none")
        return state

    def _d_on(self, d: Sequence[int]) -> bool:
        """Has the defender units on the battle strip (AA set aside after opening fire excluded)?"""
        if not self._d_aside:
            return any(d)
        return any(n for i, n in enumerate(d) if n and i not in self._d_aside)

    def _tagged_with(self, side: Side, tag: str) -> tuple[int, ...]:
        """The side's categories whose units have the tag, found once per side and tag."""
        where = self._tagged.get((side, tag))
        if where is None:
            where = self._tagged[(side, tag)] = tuple(i for i, c in enumerate(self.cats(side)) if c.profile.has(tag))
        return where

    def _has(self, side: Side, counts: Sequence[int], tag: str) -> bool:
        for i in self._tagged_with(side, tag):
            if counts[i]:
                return True
        return False

    def _value(self, side: Side, c: Category) -> int:
        if side == "attacker":
            return 0 if c.profile.has("cannot_attack") else c.profile.attack
        return c.profile.defense

    def _round_value(self, side: Side, c: Category, round: int) -> int:
        """`_value` in `round`: round 1 may fire with a first-cycle profile (Battle.first_cycle_profiles)."""
        if round != 1 or not self.battle.first_cycle_profiles:
            return self._value(side, c)
        p = self.battle.round_profile(c.owner, c.unit, 1)
        if side == "attacker":
            return 0 if p.has("cannot_attack") else p.attack
        return p.defense

    def _first_cycle(self, c: Category, round: int) -> bool:
        """Does `c` fire with a first-cycle profile this round?"""
        return round == 1 and c.unit in self.battle.first_cycle_profiles.get(c.owner, {})

    def _aa_alone(self, state: State) -> State:
        """AAA with no defending combat units are destroyed without a battle (AAA profile: "If a
        territory containing AAA units and no combat units is attacked").  Only while it is still
        attacked: when the last attackers and defending combat units die together, nobody is left
        to destroy it and the defender keeps the territory with its AAA."""
        if not self.rules.aa_destroyed_when_alone or self.kind != "land" or not any(state.a):
            return state
        d = state.d
        for i in self._d_fights:
            if d[i]:
                return state
        return state._replace(d=(0,) * len(self.d_cats))

    def side_counts(self, state: State, side: Side) -> tuple[int, ...]:
        return state.a if side == "attacker" else state.d

    # ------------------------------------------------------------------ fire classes
    def _air_class(self, side: Side, own: Sequence[int], enemy: Sequence[int]) -> FireClass:
        enemy_side: Side = "defender" if side == "attacker" else "attacker"
        if self.kind != "sea" or not self._has(enemy_side, enemy, "submarine"):
            return "any"
        if self.rules.air_hits_subs == "always" or self._has(side, own, "destroyer"):
            return "any"
        return "not_sub"

    def _sub_class(self, side: Side, enemy: Sequence[int]) -> FireClass:
        enemy_side: Side = "defender" if side == "attacker" else "attacker"
        if self.rules.subs_can_hit_air:
            return "any"
        if any(n and c.profile.domain == "air" for n, c in zip(enemy, self.cats(enemy_side))):
            return "not_air"
        return "any"

    def _surprise(self, side: Side, state: State) -> bool:
        """Do this side's subs strike (or may they submerge) in step 2 of this round?"""
        if self.kind != "sea":
            return False
        allowed = self.rules.sub_surprise_attacker if side == "attacker" else self.rules.sub_surprise_defender
        if not allowed:
            return False
        if state.round > 1 and not self.rules.surprise_repeats_every_round:
            return False
        enemy_side: Side = "defender" if side == "attacker" else "attacker"
        enemy = state.d if side == "attacker" else state.a
        if self.rules.surprise_cancelled_by_destroyer and self._has(enemy_side, enemy, "destroyer"):
            return False
        return True

    # ------------------------------------------------------------------ volleys
    def enemy_kinds(self, side: Side, enemy: Sequence[int]) -> tuple[bool, bool, bool, bool, bool]:
        """All that `side`'s surprise and fire volleys read of the enemy's units: whether it has
        submarines (`_air_class`), air units (`_sub_class`), destroyers (`_surprise`,
        `_holds_fire_to_submerge`), units other than air units and other than submarines
        (`_has_target`) - never how many.  The odds calculator asks for a side's volley once per
        own units and enemy kinds; tests hold the volleys to this."""
        enemy_side: Side = "defender" if side == "attacker" else "attacker"
        cats = self.cats(enemy_side)
        return (
            any(n and c.profile.has("submarine") for n, c in zip(enemy, cats)),
            any(n and c.profile.domain == "air" for n, c in zip(enemy, cats)),
            any(n and c.profile.has("destroyer") for n, c in zip(enemy, cats)),
            any(n and c.profile.domain != "air" for n, c in zip(enemy, cats)),
            any(n and not c.profile.has("submarine") for n, c in zip(enemy, cats)),
        )

    def _has_target(self, side: Side, enemy: Sequence[int], cls: FireClass) -> bool:
        """May a unit of this fire class roll at all?  Always, where units roll without targets
        (CombatRules.fire_without_targets); else only while the enemy has a unit it may hit."""
        if self.rules.fire_without_targets or cls not in ("not_air", "not_sub"):
            return True
        _, _, _, not_air, not_sub = self.enemy_kinds(side, enemy)
        return not_air if cls == "not_air" else not_sub

    def volleys(self, state: State, phase: str) -> tuple[Volley, ...]:
        """The dice this phase needs from `state` (empty: the phase is deterministic)."""
        if state.over:
            return ()
        if phase == "opening":
            return self._opening_volleys(state)
        if phase == "surprise":
            return self._surprise_volleys(self._submerge(state, log=None))
        if phase == "fire":
            out = []
            for side in ("attacker", "defender"):
                v = self._fire_volley(side, state)
                if v.groups:
                    out.append(v)
            return tuple(out)
        if phase == "parting":
            v = self._parting_volley(state)
            return (v,) if v.groups else ()
        return ()

    def side_volleys(self, state: State, phase: str, side: Side) -> tuple[Volley, ...]:
        """`volleys` of one side: the odds ask each side's volleys apart, once per own units and
        enemy kinds, and a fire phase need not make the other side's."""
        if phase == "fire" and not state.over:
            v = self._fire_volley(side, state)
            return (v,) if v.groups else ()
        if phase == "surprise" and not state.over:
            return self._surprise_volleys(self._submerge(state, log=None), only=side)
        return tuple(v for v in self.volleys(state, phase) if v.side == side)

    def _parting_volley(self, state: State) -> Volley:
        """Europe, German Submarines vs. Allied Ships: "If the sub was hit, it may still take a parting
        shot" - a defending sub that held its fire to submerge fires once it is known to be hit."""
        groups: dict[tuple[str, int, str], int] = {}
        if self._holds_fire_to_submerge("defender", state) and any(state.d_pending):
            cls = self._sub_class("defender", state.a)
            if not self._has_target("defender", state.a, cls):
                return Volley("defender", "parting-shot", ())
            for n, c in zip(state.d_pending, self.d_cats):
                value = self._round_value("defender", c, state.round)
                if n and value > 0 and c.profile.has("submarine"):
                    groups[(c.unit, value, cls)] = groups.get((c.unit, value, cls), 0) + n
        ordered = sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        return Volley("defender", "parting-shot", tuple(DiceGroup(u, v, n, cls, "parting shot") for (u, v, cls), n in ordered))

    def _opening_volleys(self, state: State) -> tuple[Volley, ...]:
        out: list[Volley] = []
        if state.round == 1 and self.sacrifices:
            out.extend(self._sacrifice_volleys(None, before_surprise_strike=True))
        if state.round == 1 or not self.rules.bombard_first_round_only:
            if self.bombard_ships and state.round == 1:
                groups: dict[tuple[str, int], int] = {}
                cls: FireClass = "not_air" if self.rules.bombard_targets == "land" else "any"
                for ship in self.bombard_ships:
                    key = (ship, self.battle.profile(self.battle.attacker, ship).bombard)
                    groups[key] = groups.get(key, 0) + 1
                out.append(
                    Volley(
                        "attacker",
                        "bombard",
                        tuple(DiceGroup(u, v, n, cls) for (u, v), n in sorted(
                            groups.items(), key=lambda g: (-g[0][1], g[0][0]) if self.rules.bombard_strongest_first else _gkey(g))),
                    )
                )
        if self.has_aa and (state.round == 1 or not self.rules.aa_first_round_only):
            guns = sum(n for n, c in zip(state.d, self.d_cats) if c.profile.has("aa"))
            targets: dict[str, int] = {}
            for n, c in zip(state.a, self.a_cats):
                if n and c.profile.domain == "air" and c.unit not in self.battle.aa_immune:
                    targets[c.unit] = targets.get(c.unit, 0) + n
            planes = sum(targets.values())
            hit = self.rules.aa_hit if self.battle.aa_hit is None else self.battle.aa_hit
            per_gun = self.rules.aa_shots_per_unit
            shots = planes if per_gun is None else max(0, guns * per_gun - self.battle.aa_shots_spent)  # None: one gun, a die per aircraft
            if self.rules.aa_one_shot_per_air_unit:
                shots = min(shots, planes)
            if guns and planes and shots:
                if self.rules.aa_casualty_chooser == "targeted":
                    # FAQ: each die is rolled against a specific aircraft; its hit destroys that one
                    groups = tuple(
                        DiceGroup("antiaircraft", hit, n, f"target:{u}", f"at {u}")  # type: ignore[arg-type]
                        for u, n in sorted(targets.items())
                    )
                    out.append(Volley("defender", "aa", groups))
                else:
                    out.append(Volley("defender", "aa", (DiceGroup("antiaircraft", hit, shots, "air"),)))
        return tuple(out)

    def _surprise_volleys(self, state: State, only: Side | None = None) -> tuple[Volley, ...]:
        """The volleys of step 2 (of one side with `only`)."""
        out: list[Volley] = []
        for side, step, value in (
            ("attacker", "surprise-attacker", self.rules.sub_surprise_attack_value),
            ("defender", "surprise-defender", self.rules.sub_surprise_defense_value),
        ):
            if only not in (None, side) or not self._surprise(side, state):
                continue
            own = state.a if side == "attacker" else state.d
            enemy = state.d if side == "attacker" else state.a
            cls = self._sub_class(side, enemy)
            if not self._has_target(side, enemy, cls):
                continue  # nothing the subs may hit: they do not roll (CombatRules.fire_without_targets)
            groups: dict[tuple[str, int], int] = {}
            notes: dict[tuple[str, int], str] = {}
            boosts = self._live_boosts([b for b in self.battle.boosts if b.side == side], own, self.cats(side))
            for n, c in zip(own, self.cats(side)):
                if n and c.profile.has("submarine"):
                    v = self._value(side, c) if self.rules.surprise_uses_unit_values else value
                    boost = boosts.get((c.owner, c.unit))
                    if boost and boost[0] > 0:  # Battle.boosts (AMS wolf packs)
                        boosted = min(n, boost[0])
                        boost[0] -= boosted
                        groups[(c.unit, v + boost[1])] = groups.get((c.unit, v + boost[1]), 0) + boosted
                        notes[(c.unit, v + boost[1])] = boost[2]
                        n -= boosted
                    if n:
                        groups[(c.unit, v)] = groups.get((c.unit, v), 0) + n
            if groups:
                ordered = sorted(groups.items(), key=_gkey)
                out.append(Volley(side, step, tuple(DiceGroup(u, v, n, cls, notes.get((u, v), "")) for (u, v), n in ordered)))
        if state.round == 1:
            out.extend(self._sacrifice_volleys(only, before_surprise_strike=False))
        return tuple(out)

    def _sacrifice_volleys(self, only: Side | None, before_surprise_strike: bool) -> list[Volley]:
        """Units that fire in round 1 and are lost for it (Battle.sacrifices), in step 2 or, where
        they strike before the submarines (Sacrifice.before_surprise_strike), in opening fire: enemy
        sea units only; they are off the strip, so no hit can be assigned to them."""
        out: list[Volley] = []
        for side in ("attacker", "defender"):
            if only not in (None, side):
                continue
            sgroups: dict[tuple[str, int, str], int] = {}
            for s in self.sacrifices:
                if s.side == side and s.before_surprise_strike == before_surprise_strike:
                    cls = f"target:{s.target}" if s.target else "not_air"
                    sgroups[(s.unit, s.value, cls)] = sgroups.get((s.unit, s.value, cls), 0) + s.count
            if sgroups:
                ordered = sorted(sgroups.items(), key=lambda g: (g[0][1], g[0][0], g[0][2]))
                out.append(
                    Volley(side, f"sacrifice-{side}", tuple(DiceGroup(u, v, n, cls) for (u, v, cls), n in ordered))  # type: ignore[arg-type]
                )
        return out

    def _fire_volley(self, side: Side, state: State) -> Volley:
        key = (side, state.round, state.a, state.d)  # all the volley depends on
        got = self._volley_memo.get(key)
        if got is None:
            got = self._volley_memo[key] = self._make_fire_volley(side, state)
        return got

    def _firing(self, side: Side, rnd: int) -> _Firing:
        """What the side's categories fire with in round `rnd`, whatever their counts: built once
        per side for round 1 and once for later rounds (nothing else changes a unit's dice)."""
        key = (side, rnd == 1)
        got = self._firing_memo.get(key)
        if got is None:
            cats = self.cats(side)
            attacking = side == "attacker"
            dice_of = self.battle.attack_dice if attacking else {}
            per_artillery = self.rules.artillery_supports if self.battle.artillery_supports is None else self.battle.artillery_supports
            got = self._firing_memo[key] = _Firing(
                tuple(
                    (self._round_value(side, c, rnd), c.profile.has("submarine"), c.profile.domain == "air",
                     c.profile.has("infantry") and not self._first_cycle(c, rnd),
                     attacking and bool(c.profile.paired_attack), dice_of.get(c.owner, {}).get(c.unit, 1) if dice_of else 1)
                    for c in cats),
                # a first-cycle profile is the unit's value: "Artillery allows infantry to attack with
                # a 2, not with a +1" (Revised FAQ, Marines)
                tuple(i for i in self._tagged_with(side, "infantry") if not self._first_cycle(cats[i], rnd))
                if attacking and per_artillery else (),
                self._tagged_with(side, "artillery") if attacking and per_artillery else (),
                per_artillery if attacking else 0,
                attacking and any(c.profile.paired_attack for c in cats),
                tuple(b for b in self.battle.boosts if b.side == side),
            )
        return got

    @staticmethod
    def _live_boosts(boosts: Any, own: Any, cats: Any) -> dict[tuple[str, str], list[Any]]:
        """The boosts in force for this volley, as [count left, delta, note] by (owner, unit): one with
        `at_least` only while that many of its units are on the strip."""
        out = {}
        for b in boosts:
            if b.at_least and sum(n for n, c in zip(own, cats) if c.owner == b.owner and c.unit == b.unit) < b.at_least:
                continue
            out[(b.owner, b.unit)] = [b.count, b.delta, b.note]
        return out

    def _make_fire_volley(self, side: Side, state: State) -> Volley:
        own = state.a if side == "attacker" else state.d  # includes casualties behind the strip
        enemy = state.d if side == "attacker" else state.a
        cats = self.cats(side)
        firing = self._firing(side, state.round)
        surprised = self._surprise(side, state)
        air_cls = self._air_class(side, own, enemy)
        sub_cls: FireClass | None = None  # asked when a submarine fires
        supported = 0
        if firing.per_artillery:
            infantry = sum([own[i] for i in firing.infantry])
            artillery = sum([own[i] for i in firing.artillery])
            supported = min(infantry, artillery * firing.per_artillery)
        # units that attack better paired one to one with a partner (1940: a tactical bomber with a
        # fighter or a tank): a pool of partners per set of partner tags, each partner pairing once
        # one pool of partner units shared by every kind that pairs (a tank pairs with a tactical
        # bomber or, with AMS Blitz Tactics, a mechanized infantry - not with both)
        partners: list[list] = []  # [tags, count left]
        if firing.any_paired:
            partners = [[c.profile.tags, n] for n, c in zip(own, cats) if n and not c.profile.paired_attack]
        groups: dict[tuple[str, int, str, str], int] = {}
        each: dict[tuple[str, int, str, str], int] = {}  # dice per unit where not one (its dice are the group's count)
        boosts = self._live_boosts(firing.boosts, own, cats) if firing.boosts else None
        holding = self._holds_fire_to_submerge(side, state) if self.kind == "sea" else False
        bonus = self.rules.artillery_bonus
        for n, c, (value, is_sub, is_air, supportable, paired_attack, dice) in zip(own, cats, firing.categories):
            if not n or value <= 0:
                continue
            cls: FireClass = "any"
            if is_sub:
                if surprised:
                    continue  # fired (or submerged) in step 2
                if holding:
                    continue  # they submerge instead of firing back; those hit fire in the "parting" phase
                if sub_cls is None:
                    sub_cls = self._sub_class(side, enemy)
                cls = sub_cls
            elif is_air:
                cls = air_cls
            if cls != "any" and not self._has_target(side, enemy, cls):
                continue  # nothing it may hit: it does not roll (CombatRules.fire_without_targets)
            if supportable and supported:
                boosted = min(n, supported)
                supported -= boosted
                key = (c.unit, value + bonus, cls, "supported by artillery")
                groups[key] = groups.get(key, 0) + boosted
                n -= boosted
                if not n:
                    continue
            if paired_attack:
                paired = 0
                for partner in partners:
                    if paired < n and partner[1] and partner[0] & set(c.profile.paired_with):
                        take = min(n - paired, partner[1])
                        partner[1] -= take
                        paired += take
                if paired:
                    key = (c.unit, value + c.profile.paired_attack - c.profile.attack, cls, "paired")
                    groups[key] = groups.get(key, 0) + paired
                    n -= paired
                    if not n:
                        continue
            boost = boosts.get((c.owner, c.unit)) if boosts else None
            if boost and boost[0] > 0:
                boosted = min(n, boost[0])
                boost[0] -= boosted
                key = (c.unit, value + boost[1], cls, boost[2])
                groups[key] = groups.get(key, 0) + boosted
                n -= boosted
                if not n:
                    continue
            key = (c.unit, value, cls, "")
            if dice != 1:
                n *= dice
                if not n:
                    continue  # units that only take hits (e.g. Europe's allied ships against a submarine)
                key = (c.unit, value, cls, f"{dice} dice each")  # a group of its own: another owner's may roll one
                each[key] = dice
            groups[key] = groups.get(key, 0) + n
        ordered = sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][3], kv[0][2]))
        best = self.battle.best_of.get(self.battle.attacker, {}) if side == "attacker" else {}  # an attack only
        return Volley(side, side, tuple(DiceGroup(u, v, n, cls, note, best.get(u, 1), each.get((u, v, cls, note), 1))
                                        for (u, v, cls, note), n in ordered))

    # ------------------------------------------------------------------ apply
    def apply(
        self, state: State, phase: str, hits: Sequence[Mapping[FireClass, int]], log: list[Event] | None = None
    ) -> State:
        """The state after `phase`, given the hits per fire class of each of its volleys."""
        if state.over:
            return state
        if phase == "opening":
            return self._apply_opening(state, hits, log)
        if phase == "surprise":
            return self._apply_surprise(state, hits, log) if self.kind == "sea" else state
        if phase == "fire":
            return self._apply_fire(state, hits, log)
        if phase == "parting":
            volley = self._parting_volley(state)
            return self.parting_casualties(state, volley, hits[0], log) if volley.groups and hits else state
        return self._end_round(state, log)

    def _take(
        self, side: Side, state: State, hits: Mapping[FireClass, int], step: str, pending: bool, log: list[Event] | None
    ) -> State:
        """Assign `hits` to `side`'s units; kills go behind the casualty strip if `pending`."""
        own = (state.a, state.a_pending) if side == "attacker" else (state.d, state.d_pending)
        if log is None:  # the odds calculator: the same side, hits and step give the same casualties
            key = (side, step == "aa", pending, own, tuple(sorted(hits.items())))
            got = self._take_memo.get(key)
            if got is None:
                got = self._take_memo[key] = self._casualties(side, own[0], own[1], hits, step, pending)[:2]
            counts, pend = got
        else:
            counts, pend, taken = self._casualties(side, own[0], own[1], hits, step, pending)
            total = sum(hits.values())
            if total:
                log.append(
                    CasualtiesChosen(
                        state.round, step, side, _casualties(self.cats(side), taken), total - sum(t.count for t in taken)
                    )
                )
        if side == "attacker":
            return state._replace(a=counts, a_pending=pend)
        return state._replace(d=counts, d_pending=pend)

    def _casualties(
        self, side: Side, own: tuple[int, ...], own_pending: tuple[int, ...], hits: Mapping[FireClass, int], step: str,
        pending: bool,
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Taken, ...]]:
        """`side`'s counts and casualties behind the strip after `hits`, and the casualties taken."""
        counts, pend = list(own), list(own_pending)
        available = [n - p for n, p in zip(counts, pend)]
        taken = self._plan(side, step).assign(available, hits)
        idx = self.a_idx if side == "attacker" else self.d_idx
        cats = self.cats(side)
        for t in taken:
            c = cats[t.category]
            if t.effect == "damaged":
                counts[t.category] -= t.count
                counts[idx[(c.unit, c.owner, c.seaborne, True)]] += t.count
                available[idx[(c.unit, c.owner, c.seaborne, True)]] += t.count
            elif c.two_hit:
                # sunk with both hits in one volley: it was moved to the damaged count above
                j = idx[(c.unit, c.owner, c.seaborne, True)]
                if pending:
                    pend[j] += t.count
                else:
                    counts[j] -= t.count
            elif pending:
                pend[t.category] += t.count
            else:
                counts[t.category] -= t.count
        return tuple(counts), tuple(pend), taken

    def _plan(self, side: Side, step: str) -> LossPlan:
        """The order of loss a step's hits follow: antiaircraft hits their own, where written."""
        return self.plans["attacker-aa"] if step == "aa" and "attacker-aa" in self.plans else self.plans[side]

    def casualties_many(
        self, side: Side, counts: "np.ndarray", pending: "np.ndarray", hits: Mapping[FireClass, "np.ndarray"], step: str,
        behind: bool,
    ) -> tuple["np.ndarray", "np.ndarray"]:
        """`_casualties` for many rows of one side at once, counts and casualties behind the strip
        only (`behind`: kills go there): what the odds calculator asks thousands of times.  Tests
        hold it to `_casualties` row by row."""
        destroyed, damaged = self._plan(side, step).assign_many(counts - pending, hits)
        counts, pending = counts.copy(), pending.copy()
        idx = self.a_idx if side == "attacker" else self.d_idx
        for i, c in enumerate(self.cats(side)):
            if c.two_hit:
                j = idx[(c.unit, c.owner, c.seaborne, True)]
                counts[:, i] -= damaged[:, i]
                counts[:, j] += damaged[:, i]
            else:
                j = i
            if behind:
                pending[:, j] += destroyed[:, i]
            else:
                counts[:, j] -= destroyed[:, i]
        return counts, pending

    def _apply_opening(self, state: State, hits: Sequence[Mapping[FireClass, int]], log: list[Event] | None) -> State:
        aa_fired = bombarded = struck = False
        for volley, h in zip(self._opening_volleys(state), hits):
            if volley.step.startswith("sacrifice-"):
                # Sacrifice.before_surprise_strike: what they sink is gone before step 2, unless it fires back
                target: Side = "defender" if volley.side == "attacker" else "attacker"
                pending = self._sacrifice_victims_fire_back(volley.side)
                struck = struck or not pending
                state = self._take(target, state, h, volley.step, pending, log)
            elif volley.step == "bombard":
                pending = self.rules.bombard_casualties_fire_back
                bombarded = bombarded or not pending
                state = self._take("defender", state, h, "bombard", pending, log)
            else:
                aa_fired = True
                state = self._take("attacker", state, h, "aa", False, log)
        if (self._d_aside or (aa_fired and not any(state.a)) or (bombarded and not self._d_on(state.d))
                or (struck and not (any(state.a) and any(state.d)))):
            # AA went back to the board, or it destroyed every attacker, or a bombardment whose
            # casualties do not fire back destroyed every defender: anything left to fight?
            # (1942 Second Edition, Antiaircraft Artillery: with every attacking air unit gone
            # and nothing else attacking, there is no round of combat and no defender fires;
            # Revised, Shore Bombardment: "the enemy units do not fire back", so the land units
            # roll at no one)
            state = self._conclude(state, log)
        return state

    def _submerges_at(self, side: Side, timing: str) -> bool:
        """Do this side's subs submerge at this point of the round (CombatRules.submerge_timing)?"""
        rule = self.rules.submerge_timing
        if rule == "attacker_at_strike_defender_instead_of_return_fire":
            return timing == ("instead_of_surprise_strike" if side == "attacker" else "instead_of_return_fire")
        return rule == timing

    def _holds_fire_to_submerge(self, side: Side, state: State) -> bool:
        """Europe: defending subs that will submerge do not fire back."""
        return (side == "defender" and self.kind == "sea" and self.orders[side].submerge == "always"
                and self._submerges_at(side, "instead_of_return_fire")
                and not (self.rules.submerge_cancelled_by_destroyer and self._has("attacker", state.a, "destroyer")))

    def submerge(self, state: State) -> State:
        """The subs that submerge at the start of step 2 instead of striking, as `apply` of the
        surprise phase moves them first: the odds' sea tables ask it apart from the strikes."""
        return self._submerge(state, None)

    def _submerge(self, state: State, log: list[Event] | None, timing: str = "instead_of_surprise_strike") -> State:
        """Subs whose orders say so submerge, at the point of the round the rules set (`timing`)."""
        if self.kind != "sea":
            return state
        for side in ("attacker", "defender"):
            if self.orders[side].submerge != "always" or not self._submerges_at(side, timing):  # type: ignore[arg-type]
                continue
            enemy_side: Side = "defender" if side == "attacker" else "attacker"
            enemy = state.d if side == "attacker" else state.a
            if self.rules.submerge_cancelled_by_destroyer and self._has(enemy_side, enemy, "destroyer"):
                continue
            state = self._dive(state, side, log, timing)
        return state

    def _dive(self, state: State, side: Side, log: list[Event] | None, timing: str) -> State:
        """Every submarine of `side` on the strip submerges."""
        own = list(state.a if side == "attacker" else state.d)
        under = list(state.a_submerged if side == "attacker" else state.d_submerged)
        moved = []
        for i, c in enumerate(self.cats(side)):
            if own[i] and c.profile.has("submarine"):
                moved.append((c.owner, c.unit, own[i]))
                under[i] += own[i]
                own[i] = 0
        if not moved:
            return state
        if log is not None:
            log.append(Submerged(state.round, side, tuple(moved), timing))
        if side == "attacker":
            return state._replace(a=tuple(own), a_submerged=tuple(under))
        return state._replace(d=tuple(own), d_submerged=tuple(under))

    def _apply_surprise(self, state: State, hits: Sequence[Mapping[FireClass, int]], log: list[Event] | None) -> State:
        state = self._submerge(state, log)
        volleys = self._surprise_volleys(state)
        keep = self.rules.surprise_casualties_fire_back
        later = []  # sacrifices whose victims still fire this round (Sacrifice.fire_back)
        for volley, h in zip(volleys, hits):
            target: Side = "defender" if volley.side == "attacker" else "attacker"
            if volley.step.startswith("sacrifice-") and not keep and self._sacrifice_victims_fire_back(volley.side):
                later.append((target, volley, h))
                continue
            if volley.step.startswith("sacrifice-") and not keep and not self._sacrificed_submarines(volley.side):
                # Revised, Step 3: a destroyer keeps only the submarines' casualties on the board
                # ("The submarines' casualties can fire back"): a kamikaze's victims leave at once
                state = self._take(target, state, h, volley.step, False, log)
                continue
            state = self.surprise_casualties(state, volley, h, log)
        return self.after_surprise(state, later, log)

    def surprise_casualties(
        self, state: State, volley: Volley, hits: Mapping[FireClass, int], log: list[Event] | None = None
    ) -> State:
        """One volley of step 2 (a surprise strike): its hits become casualties of the other side,
        behind the casualty strip until `after_surprise`.  Like `fire_casualties`, it changes only
        the side it hits."""
        side, step, behind = self._struck("surprise", volley)
        return self._take(side, state, hits, step, behind, log)

    def after_surprise(self, state: State, later: Sequence[tuple[Side, Volley, Mapping[FireClass, int]]] = (),
                       log: list[Event] | None = None) -> State:
        """Step 2 once its strikes are assigned: casualties leave unless they fire back, then
        defenceless transports and the end of the battle (`later`: sacrifices whose victims fire back)."""
        state = self.surprise_leave(self.surprise_leave(state, "attacker"), "defender")
        for target, volley, h in later:
            state = self._take(target, state, h, volley.step, True, log)
        if self.kind == "sea":
            state = self._defenceless(state, log)
            state = self._conclude(state, log)
        return state

    def surprise_leave(self, state: State, side: Side) -> State:
        """`side`'s casualties of step 2 leave the strip now, unless they fire back: a question of
        that side alone (the odds calculator asks it per side)."""
        if self.rules.surprise_casualties_fire_back:
            return state
        # Revised step 3: "If a destroyer is present ... the destroyer's player skips this step"
        if self.rules.surprise_victims_fire_back_with_own_destroyer and self._has(
            side, state.a if side == "attacker" else state.d, "destroyer"
        ):
            return state
        return self._remove_pending_of(side, state)

    def leave_many(self, side: Side, when: str, counts: "np.ndarray", pending: "np.ndarray"
                   ) -> tuple["np.ndarray", "np.ndarray"]:
        """`end_of_fire` (`when` "fire") or `surprise_leave` (`when` "surprise") for many rows of
        one side's counts and casualties behind the strip: what the odds calculator asks of every
        volley's results at once.  Tests hold it to those row by row."""
        import numpy as np

        if when == "surprise":
            if self.rules.surprise_casualties_fire_back:
                return counts, pending
            stay = np.zeros(len(counts), dtype=bool)
            if self.rules.surprise_victims_fire_back_with_own_destroyer:
                tagged = list(self._tagged_with(side, "destroyer"))
                if tagged:
                    stay = counts[:, tagged].sum(axis=1) > 0
        elif when == "fire":
            stay = np.zeros(len(counts), dtype=bool)
        else:
            raise ValueError(f"no casualties leave at {when!r}")
        return np.where(stay[:, None], counts, counts - pending), np.where(stay[:, None], pending, 0)

    def _sacrifice_victims_fire_back(self, side: Side) -> bool:
        return any(s.fire_back for s in self.sacrifices if s.side == side)

    def _sacrificed_submarines(self, side: Side) -> bool:
        """Are this side's sacrifices submarines (Revised Kaiten Torpedoes), whose casualties a
        destroyer may keep firing, as every submarine's?"""
        return any(self.battle.profile(s.owner, s.unit).has("submarine") for s in self.sacrifices if s.side == side)

    def _apply_fire(self, state: State, hits: Sequence[Mapping[FireClass, int]], log: list[Event] | None) -> State:
        volleys = [v for v in (self._fire_volley("attacker", state), self._fire_volley("defender", state)) if v.groups]
        for volley, h in zip(volleys, hits):
            state = self.fire_casualties(state, volley, h, log)
        return state

    def fire_casualties(
        self, state: State, volley: Volley, hits: Mapping[FireClass, int], log: list[Event] | None = None
    ) -> State:
        """One volley of step 3/4: its hits become casualties of the other side (the defender's
        behind the casualty strip, as they fire back).  Each volley changes only the side it hits,
        so the odds calculator may combine the two volleys' outcomes computed separately."""
        side, step, behind = self._struck("fire", volley)
        return self._take(side, state, hits, step, behind, log)

    def parting_casualties(
        self, state: State, volley: Volley, hits: Mapping[FireClass, int], log: list[Event] | None = None
    ) -> State:
        """Europe's parting shot: its hits are the attacker's casualties at once.  Like
        `fire_casualties`, it changes only the side it hits."""
        side, step, behind = self._struck("parting", volley)
        return self._take(side, state, hits, step, behind, log)

    def _struck(self, phase: str, volley: Volley) -> tuple[Side, str, bool]:
        """Who a volley of step 2 ("surprise"), steps 3/4 ("fire") or a parting shot ("parting")
        hits, the step its casualties are chosen in, and whether they go behind the casualty strip
        (they fire back)."""
        if phase == "parting":
            return "attacker", "parting-shot", False
        if phase == "surprise":
            return ("defender" if volley.side == "attacker" else "attacker"), volley.step, True
        if volley.side == "attacker":
            return "defender", "attacker", True
        return "attacker", "defender", False

    def volley_casualties_many(
        self, volley: Volley, phase: str, counts: "np.ndarray", pending: "np.ndarray", hits: Mapping[FireClass, "np.ndarray"]
    ) -> tuple["np.ndarray", "np.ndarray"]:
        """`surprise_casualties` (phase "surprise"), `fire_casualties` (phase "fire") or
        `parting_casualties` for many rows of the side `volley` hits: its counts and casualties
        behind the strip per row."""
        side, step, behind = self._struck(phase, volley)
        return self.casualties_many(side, counts, pending, hits, step, behind)

    def _remove_pending_of(self, side: Side, state: State) -> State:
        if side == "attacker":
            if not any(state.a_pending):
                return state
            return state._replace(a=_tuple_sub(state.a, state.a_pending), a_pending=(0,) * len(self.a_cats))
        if not any(state.d_pending):
            return state
        return state._replace(d=_tuple_sub(state.d, state.d_pending), d_pending=(0,) * len(self.d_cats))

    def _remove_pending(self, state: State) -> State:
        if not any(state.a_pending) and not any(state.d_pending):
            return state
        zero_a = (0,) * len(self.a_cats)
        zero_d = (0,) * len(self.d_cats)
        a = _tuple_sub(state.a, state.a_pending) if any(state.a_pending) else state.a
        d = _tuple_sub(state.d, state.d_pending) if any(state.d_pending) else state.d
        return State(state.round, a, d, zero_a, zero_d, *state[5:])  # = _replace(...), cheaper

    # ------------------------------------------------------------------ step 5 - 6
    def _can_hurt(self, side: Side, own: Sequence[int], enemy: Sequence[int]) -> bool:
        key = (side, tuple(map(bool, own)), tuple(map(bool, enemy)))  # all the answer depends on
        got = self._hurt_memo.get(key)
        if got is None:
            got = self._hurt_memo[key] = self._can_hurt_now(side, own, enemy)
        return got

    def _can_hurt_now(self, side: Side, own: Sequence[int], enemy: Sequence[int]) -> bool:
        enemy_side: Side = "defender" if side == "attacker" else "attacker"
        enemy_cats = self.cats(enemy_side)
        air_cls = self._air_class(side, own, enemy)
        sub_cls = self._sub_class(side, enemy)
        for n, c in zip(own, self.cats(side)):
            if not n or self._value(side, c) <= 0:
                continue
            cls = sub_cls if c.profile.has("submarine") else air_cls if c.profile.domain == "air" else "any"
            if any(m and can_hit(cls, e.profile) for m, e in zip(enemy, enemy_cats)):
                return True
        return False

    def _defenceless(self, state: State, log: list[Event] | None) -> State:
        """Transports nobody can protect are destroyed at once (sidebar next to step 5)."""
        if not self.rules.defenceless_transports:
            return state
        for side in ("defender", "attacker"):
            if side == "attacker" and self._may_retreat():
                continue  # attacking transports can retreat instead
            own = list(state.a if side == "attacker" else state.d)
            enemy = state.d if side == "attacker" else state.a
            cats = self.cats(side)
            key = (side, tuple(map(bool, own)), tuple(map(bool, enemy)))  # all the answer depends on
            doomed = self._doomed_memo.get(key)
            if doomed is None:
                doomed = self._doomed_memo[key] = self._transports_doomed(side, own, enemy)
            if not doomed:
                continue
            lost: list[Casualty] = []
            for i, c in enumerate(cats):
                if own[i] and c.profile.has("transport"):
                    lost.extend(
                        Casualty(c.owner, c.unit, "destroyed", "defenceless transports") for _ in range(own[i])
                    )
                    own[i] = 0
            if log is not None:
                log.append(CasualtiesChosen(state.round, "defenceless", side, tuple(lost)))
            if side == "attacker":
                state = state._replace(a=tuple(own))
            else:
                state = state._replace(d=tuple(own))
        return state

    def _transports_doomed(self, side: Side, own: Sequence[int], enemy: Sequence[int]) -> bool:
        cats = self.cats(side)
        if not any(n and c.profile.has("transport") for n, c in zip(own, cats)):
            return False
        escorts = [n if not c.profile.has("transport") else 0 for n, c in zip(own, cats)]
        enemy_side: Side = "defender" if side == "attacker" else "attacker"
        return not (self._can_hurt(side, escorts, enemy) or not self._can_hurt(enemy_side, enemy, own))

    def _may_retreat(self) -> bool:
        return self.battle.can_retreat

    def _conclude(self, state: State, log: list[Event] | None) -> State:
        """Condition A: one side has nothing left on the strip, or neither can hurt the other."""
        retreated = any(state.a_retreated)
        # the answer depends only on which categories are present
        key = (tuple(map(bool, state.a)), tuple(map(bool, state.d)), retreated)
        if key in self._conclude_memo:
            winner = self._conclude_memo[key]
        else:
            winner = self._conclude_memo[key] = self._winner(state, retreated)
        if winner is None:
            return state
        if any(state.a_pending) or any(state.d_pending):
            # The battle ends here: casualties behind the strip were to die at the end of this
            # step, so they are removed before the result is read (a lone kamikaze's hit counts).
            state = self._remove_pending(state)
            winner = self._winner(state, retreated)
            if winner is None:
                return state
        return State(*state[:8], winner, state.no_combat)  # = _replace(over=winner), cheaper

    def _winner(self, state: State, retreated: bool) -> Winner | None:
        a_on = any(state.a)
        d_on = self._d_on(state.d)
        winner: Winner | None = None
        if not d_on:
            winner = "attacker" if a_on else ("retreat" if retreated else "draw")
        elif not a_on:
            winner = "retreat" if retreated else "defender"
        elif not self._can_hurt("attacker", state.a, state.d) and not self._can_hurt("defender", state.d, state.a):
            winner = "retreat" if retreated else "none"
        return winner

    def _wants_retreat(self, state: State) -> bool:
        cond = self.orders["attacker"].retreat
        if cond.kind == "never" or any(state.a_retreated):
            return False
        if cond.kind == "after_round":
            return state.round >= cond.value
        attackers = sum(state.a)
        if cond.kind == "when_attackers_at_most":
            return attackers <= cond.value
        if cond.kind == "when_no_land_units":
            return not any(n for c, n in zip(self.a_cats, state.a) if c.profile.domain == "land")
        return sum(state.d) > attackers  # when_defenders_outnumber

    def _submerge_on_retreat(self, state: State) -> bool:
        """Do the attacker's submarines submerge as it retreats (Orders.submerge "on_retreat")?
        Where the rules let attacking subs submerge at all, and no destroyer stops them."""
        return (self.kind == "sea" and self.orders["attacker"].submerge == "on_retreat"
                # 1942, 1940: a sub submerges only "anytime it would otherwise make a Surprise Strike";
                # at the retreat it goes with the rest ("All such units must retreat together")
                and self.rules.submerge_timing not in ("never", "instead_of_surprise_strike")
                and not (self.rules.submerge_cancelled_by_destroyer and self._has("defender", state.d, "destroyer")))

    def retreat_destination(self) -> str | None:
        wanted = self.orders["attacker"].retreat_to
        if wanted is not None and wanted in self.battle.retreat_to:
            return wanted
        return self.battle.retreat_to[0] if self.battle.retreat_to else None

    @cached_property
    def retreating(self) -> tuple[bool, ...]:
        """Per attacking category: does it leave the strip when the attacker retreats?  Air units
        always may (Step 6, Condition B); other units need a destination; seaborne units, and
        land units beside them, as the rules say."""
        amphibious = any(c.seaborne for c in self.a_cats)
        dest = self.retreat_destination()
        out = []
        for c in self.a_cats:
            ok = c.profile.domain == "air" or dest is not None
            if c.seaborne and not self.rules.seaborne_can_retreat:
                ok = False
            elif amphibious and c.profile.domain == "land" and not self.rules.overland_can_retreat_from_amphibious:
                ok = False
            out.append(ok)
        return tuple(out)

    def _retreat(self, state: State, log: list[Event] | None) -> State:
        if self._never_retreats or not self._wants_retreat(state):
            return state
        if self._submerge_on_retreat(state):  # (submerging needs no space to retreat to)
            state = self._dive(state, "attacker", log, "at_press_or_retreat")
            if not any(state.a):
                return state._replace(over="retreat")
        if not self.battle.can_retreat:
            return state
        dest = self.retreat_destination()
        a = list(state.a)
        ret = list(state.a_retreated)
        moved, stayed = [], []
        for i, (c, ok) in enumerate(zip(self.a_cats, self.retreating)):
            if not a[i]:
                continue
            if ok:
                moved.append((c.owner, c.unit, a[i]))
                ret[i] += a[i]
                a[i] = 0
            else:
                stayed.append((c.owner, c.unit, a[i]))
        if not moved:
            return state
        if log is not None:
            log.append(Retreated(state.round, dest, tuple(moved), tuple(stayed)))
        state = state._replace(a=tuple(a), a_retreated=tuple(ret))
        if not any(a):
            state = state._replace(over="retreat")
        return state

    def end_of_fire(self, state: State) -> State:
        """The first step of a round's end: casualties behind the strip leave (Step 5, remove
        casualties).  The rest of the end phase (`_end_round`) reads only the strip."""
        return self._remove_pending(state)

    def _end_round(self, state: State, log: list[Event] | None) -> State:
        state = self.end_of_fire(state)
        if self.kind == "land":
            state = self._aa_alone_logged(state, log)
        else:
            state = self._defenceless(state, log)
        state = self._conclude(state, log)
        if not state.over and self.kind == "sea" and self.rules.submerge_timing == "at_press_or_retreat":
            state = self._conclude(self._submerge(state, log, "at_press_or_retreat"), log)
        if not state.over and self.kind == "sea" and self.rules.submerge_timing == "attacker_at_strike_defender_instead_of_return_fire":
            state = self._conclude(self._submerge(state, log, "instead_of_return_fire"), log)
        if not state.over:
            state = self._retreat(state, log)
        if not state.over:
            state = State(state.round + 1, *state[1:])  # = _replace(round=...), cheaper
        return state

    def _aa_alone_logged(self, state: State, log: list[Event] | None) -> State:
        after = self._aa_alone(state)
        if log is not None and after.d != state.d:
            lost = tuple(
                Casualty(c.owner, c.unit, "destroyed", "aa alone")
                for n, c in zip(state.d, self.d_cats)
                for _ in range(n)
            )
            log.append(CasualtiesChosen(state.round, "conclude", "defender", lost))
        return after


def _gkey(item: tuple[tuple[str, int], int]) -> tuple[int, str]:
    (unit, value), _ = item
    return (value, unit)


def _casualties(cats: Sequence[Category], taken: Sequence[Taken]) -> tuple[Casualty, ...]:
    out: list[Casualty] = []
    for t in taken:
        c = cats[t.category]
        effect = "damaged" if t.effect == "damaged" else "destroyed"
        out.extend(Casualty(c.owner, c.unit, effect, t.reason, c.seaborne) for _ in range(t.count))
    return tuple(out)
