"""Choosing casualties: the owner's order of loss, under "as many hits as possible must be assigned".

Each unit is one or two *slots* (a two-hit unit: a damage slot, then a kill slot).  Slots are
ranked by the owner's order of loss; a set of slots can take the hits when every slot is matched
to a hit whose fire class may be assigned to it.  Those sets form a transversal matroid, so taking
slots greedily in rank order whenever the set stays matchable yields both the largest number of
hits assigned (the rule) and, among such choices, the one the owner ranks best (the order of loss).
That makes the solver exact, not a heuristic: the rulebook's cruiser-and-two-subs example
(General Combat step 3, p. 17) comes out as the rule says.

Matchability is Hall's condition over *signatures* (the set of fire classes that may hit a slot);
at most four classes exist, so the check is a handful of sums.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING, Mapping, NamedTuple, Sequence

from pbem.engine.combat.model import CasualtyReason, FireClass, Orders
from pbem.engine.model import UnitType

if TYPE_CHECKING:
    import numpy as np

RULE_MAX_HITS: CasualtyReason = "rule: as many hits as possible must be assigned"
RULE_TRANSPORTS_LAST: CasualtyReason = "rule: transports chosen last"
# a unit ranked ahead was out of these dice's reach (a submarine's hit, never on aircraft)
RULE_OUT_OF_REACH: CasualtyReason = "rule: the units ranked ahead cannot be hit by these dice"
# targeted antiaircraft fire (Revised FAQ): the die's aircraft is lost, whatever an order of loss says
RULE_AIMED: CasualtyReason = "rule: each die is aimed at one aircraft"
# a kamikaze's hit "must be applied to the chosen unit" (Pacific; 1940's strikes likewise)
RULE_CHOSEN_SHIP: CasualtyReason = "rule: each kamikaze strikes the ship chosen for it"
RULE_FREE_HIT: CasualtyReason = "default: two-hit units first"  # a hit a battleship survives costs nothing lasting
# taken before the land unit `keep_one` holds back, by the default order of loss or the player's
KEPT_BACK: dict[str, CasualtyReason] = {"default": "default: one land unit kept", "directive": "directive: one land unit kept"}


@dataclass(frozen=True)
class Category:
    """Units of one side that are interchangeable for the rules: same type, owner and status."""

    unit: str
    owner: str
    seaborne: bool
    damaged: bool
    profile: UnitType

    @property
    def two_hit(self) -> bool:
        return self.profile.hits >= 2 and not self.damaged


def can_hit(fire_class: FireClass, profile: UnitType) -> bool:
    """May a hit of this class be assigned to a unit with this profile?"""
    if fire_class == "any":
        return True
    if fire_class == "not_air":
        return profile.domain != "air"
    if fire_class == "not_sub":
        return not profile.has("submarine")
    if fire_class.startswith("target:"):  # targeted antiaircraft fire: only the aircraft aimed at
        return profile.name == fire_class[7:]
    return profile.domain == "air"  # "air": antiaircraft fire


@dataclass(frozen=True)
class Run:
    """A block of equal slots in rank order: `effect` "damaged" marks a two-hit unit's first hit."""

    category: int
    effect: str  # "destroyed" | "damaged"
    reason: CasualtyReason
    transport: bool = False
    limit: int | None = None  # at most this many (the rest is held back by `keep_one`)


class Taken(NamedTuple):  # a tuple: the odds ask for many thousands of casualty choices
    category: int
    effect: str
    count: int
    reason: CasualtyReason


def default_rank(profile: UnitType, strength: int = 0) -> tuple[int, int, int, str]:
    """A strong player's default: the cheapest units first; at equal cost air units last, then the
    weaker first (`strength`: the value it fires at on this side: a transport defending at 1 goes
    before a submarine of the same price defending at 2), then by name, so the order is stable.
    On land this is the club convention "air units last" (they cost the most); at sea a fighter
    (10) goes before a cruiser, carrier or battleship, which keeps more strength: in a large fleet
    battle "air last" cost the attacker 7 points of winning chance."""
    return (profile.cost, 1 if profile.domain == "air" else 0, strength, profile.name)


class LossPlan:
    """One side's ranking of its slots, built once per battle from its orders.

    `keep_one`: the land battle's "hold the territory" convention: the last land unit with a
    combat value (for this side) is moved behind every other slot.
    """

    def __init__(
        self,
        categories: Sequence[Category],
        orders: Orders,
        *,
        keep_one: bool,
        combat_value: Sequence[bool],
        transports_last: bool,
        aa_can_be_casualty: bool,
        strength: Sequence[int] = (),
    ):
        self.categories = tuple(categories)
        self._aircraft = {c.unit: c.profile.domain == "air" for c in self.categories}
        self._two_hit = tuple(c.two_hit for c in self.categories)
        self.keep_one = keep_one
        self.combat_value = tuple(combat_value)
        listed = {name: i for i, name in enumerate(orders.order_of_loss)}
        self.uses_default = any(c.unit not in listed for c in self.categories)

        def rank(i: int) -> tuple[object, ...]:
            c = self.categories[i]
            first = (0, listed[c.unit]) if c.unit in listed else (1, 0)
            # a damaged two-hit unit sinks before an undamaged one; seaborne units go first
            return (first, default_rank(c.profile, strength[i] if strength else 0), not c.damaged, not c.seaborne, i)

        order = sorted(range(len(self.categories)), key=rank)
        first = orders.damage_first

        def damaged_first(c: Category) -> bool:
            return first is True or (first is not False and c.unit in first)

        runs: list[Run] = []
        # a two-hit unit's first hit costs nothing lasting, so by default every such damage slot
        # comes first (Orders.damage_first: a player may keep a carrier operational instead)
        for i in order:
            if self.categories[i].two_hit and damaged_first(self.categories[i]):
                runs.append(Run(i, "damaged", RULE_FREE_HIT))
        tail: list[Run] = []
        for i in order:
            c = self.categories[i]
            if not aa_can_be_casualty and c.profile.has("aa"):
                continue
            reason: CasualtyReason = "directive" if c.unit in listed else "default"
            if transports_last and c.profile.has("transport"):
                tail.append(Run(i, "destroyed", RULE_TRANSPORTS_LAST, transport=True))
            else:
                if c.two_hit and not damaged_first(c):
                    runs.append(Run(i, "damaged", reason))  # hit where the order ranks it, then sunk
                runs.append(Run(i, "destroyed", reason))
        self.runs = tuple(runs + tail)
        # units the order of loss ranks behind a transport: taken before it only by the rule, which
        # is then their reason (a carrier lost while the cheaper transport is spared)
        self._transport_cats = tuple(i for i in order if transports_last and self.categories[i].profile.has("transport"))
        first = order.index(self._transport_cats[0]) if self._transport_cats else len(order)
        self._behind_transport = frozenset(i for i in order[first + 1:] if i not in self._transport_cats)
        self._memo: dict[tuple[tuple[int, ...], tuple[tuple[FireClass, int], ...]], tuple[Taken, ...]] = {}
        self._hall_memo: dict[tuple[FireClass, ...], tuple[list[int], list[frozenset[FireClass]], list[list[int]]]] = {}

    def assign(self, available: Sequence[int], hits: Mapping[FireClass, int]) -> tuple[Taken, ...]:
        """The casualties for `hits` among `available` units (per category, not yet casualties)."""
        key = (tuple(available), tuple(sorted([(c, n) for c, n in hits.items() if n > 0])))
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._assign(key[0], dict(key[1]))
        return got

    def assign_many(self, available: "np.ndarray", hits: Mapping[FireClass, "np.ndarray"]) -> tuple["np.ndarray", "np.ndarray"]:
        """`assign` for many rows at once, counts only (the odds calculator asks thousands of them):
        row n's units available per category `available[n]`, its hits per class `hits[k][n]`.
        Returns the units destroyed and the two-hit units damaged, per row and category.

        The same greedy as `_assign`, a row per lane: a class with no hit in a row caps nothing
        there, so one set of signatures serves every row.  Not for `keep_one` plans (their runs
        depend on the row); tests hold it to `assign` on random rows."""
        import numpy as np

        if self.keep_one:
            raise ValueError("assign_many does not hold back a unit (keep_one)")
        classes = tuple(sorted(hits))
        sig_of, unions, containing = self._hall(classes)
        caps = [sum([hits[k] for k in union], np.zeros(len(available), dtype=np.int64)) for union in unions]
        used = [np.zeros(len(available), dtype=np.int64) for _ in unions]
        remaining = np.array(available, dtype=np.int64)
        destroyed = np.zeros_like(remaining)
        damaged = np.zeros_like(remaining)
        for run in self.runs:
            i = run.category
            sig = sig_of[i]
            if sig < 0:
                continue
            room = remaining[:, i]
            if run.effect == "destroyed" and self._two_hit[i]:
                room = np.minimum(room, damaged[:, i])  # sinks only after its damage hit
            k = room
            for c in containing[sig]:
                k = np.minimum(k, caps[c] - used[c])
            k = np.maximum(k, 0)
            for c in containing[sig]:
                used[c] += k
            if run.effect == "damaged":
                damaged[:, i] += k
            else:
                remaining[:, i] -= k
                destroyed[:, i] += k
        return destroyed, damaged

    def _assign(self, available: Sequence[int], live: Mapping[FireClass, int]) -> tuple[Taken, ...]:
        if not live:
            return ()
        sig_of, unions, containing = self._hall(tuple(sorted(live)))
        # Hall's condition, kept as running sums: for each set of signatures, the hits of the classes
        # that may go to any of them (its cap) and the slots already chosen among them (its use)
        caps = [sum([live[k] for k in union]) for union in unions]
        used = [0] * len(unions)
        total = sum(live.values())

        runs = list(self.runs)
        remaining = list(available)
        if self.keep_one:
            runs = self._hold_back(runs, remaining, sig_of)
        damaged_now = [0] * len(self.categories)
        two_hit = self._two_hit
        taken: list[Taken] = []
        forced = False
        out_of_reach = False
        # antiaircraft dice aimed at aircraft (not a kamikaze's at its chosen ship)
        aimed = all(k.startswith("target:") and self._aircraft.get(k[7:], False) for k in live)
        chosen = not aimed and all(k.startswith("target:") for k in live)
        assigned = 0
        displaced: dict[int, CasualtyReason] = {}  # taken index -> its reason but for the transports' rule
        for run in runs:
            if assigned >= total:
                break
            i = run.category
            sig = sig_of[i]
            if run.effect == "damaged":
                room = remaining[i]
            elif two_hit[i]:
                room = min(remaining[i], damaged_now[i])  # sinks only after its damage hit
            else:
                room = remaining[i]
            if run.limit is not None:
                room = min(room, run.limit)
            if room <= 0:
                continue
            if sig < 0:
                out_of_reach = True
                continue
            slack = min([caps[c] - used[c] for c in containing[sig]])
            k = min(room, slack)
            was_forced = forced
            if k < min(room, total - assigned):
                forced = True  # a better-ranked unit is skipped so that no hit is lost
            if k <= 0:
                continue
            for c in containing[sig]:
                used[c] += k
            assigned += k
            if run.effect == "damaged":
                damaged_now[i] += k
            else:
                remaining[i] -= k
            reason = run.reason
            if was_forced and not run.transport and run.effect == "destroyed":
                reason = RULE_MAX_HITS
            elif (i in self._behind_transport and reason in ("default", "directive")
                  and any(remaining[t] for t in self._transport_cats)):
                displaced[len(taken)] = reason
                reason = RULE_TRANSPORTS_LAST
            elif aimed and reason in ("default", "directive"):
                reason = RULE_AIMED
            elif chosen and reason in ("default", "directive"):
                reason = RULE_CHOSEN_SHIP
            elif out_of_reach and reason in ("default", "directive"):
                reason = RULE_OUT_OF_REACH
            taken.append(Taken(i, run.effect, k, reason))
        if displaced:
            taken = self._displaced_by_transports(taken, displaced, sum(remaining[t] for t in self._transport_cats))
        return tuple(taken)

    @staticmethod
    def _displaced_by_transports(taken: list[Taken], displaced: Mapping[int, CasualtyReason], spared: int) -> list[Taken]:
        """Each transport spared by the rule sends its hit to one unit ranked behind it: the last
        hits taken, one per transport spared, are the rule's; the others keep their own reason (a
        destroyer the cheapest-first order takes anyway is not lost "because transports are chosen
        last")."""
        out: list[Taken] = []
        for n in range(len(taken) - 1, -1, -1):
            t = taken[n]
            if n not in displaced:
                out.append(t)
            elif spared >= t.count:
                out.append(t)
                spared -= t.count
            elif spared > 0:
                out.append(t._replace(count=spared))
                out.append(t._replace(count=t.count - spared, reason=displaced[n]))
                spared = 0
            else:
                out.append(t._replace(reason=displaced[n]))
        return out[::-1]

    def _hall(self, classes: tuple[FireClass, ...]) -> tuple[list[int], list[frozenset[FireClass]], list[list[int]]]:
        """For the fire classes present: each category's signature (an index, -1 if no class may
        hit it), the union of classes of every set of signatures, and for each signature the sets
        that contain it.  Depends on the classes only, so it is built once per set of classes."""
        got = self._hall_memo.get(classes)
        if got is None:
            sigs = [frozenset(k for k in classes if can_hit(k, c.profile)) for c in self.categories]
            signatures = sorted({s for s in sigs if s}, key=sorted)
            index = {s: n for n, s in enumerate(signatures)}
            unions: list[frozenset[FireClass]] = []
            containing: list[list[int]] = [[] for _ in signatures]
            for r in range(1, len(signatures) + 1):
                for combo in combinations(range(len(signatures)), r):
                    for n in combo:
                        containing[n].append(len(unions))
                    unions.append(frozenset().union(*(signatures[n] for n in combo)))
            got = self._hall_memo[classes] = ([index[s] if s else -1 for s in sigs], unions, containing)
        return got

    def _hold_back(self, runs: list[Run], remaining: Sequence[int], sig_of: Sequence[int]) -> list[Run]:
        """Move one unit of the last land run with a combat value behind everything else.  A volley
        that cannot hit it (antiaircraft fire) needs no holding back, and its casualties are not
        said to be taken for it."""
        for pos in range(len(runs) - 1, -1, -1):
            run = runs[pos]
            c = self.categories[run.category]
            if (
                run.effect == "destroyed"
                and c.profile.domain == "land"
                and self.combat_value[run.category]
                and remaining[run.category] > 0
            ):
                if sig_of[run.category] < 0:
                    return runs
                later = [r for r in runs[pos + 1 :] if remaining[r.category] > 0]
                if not later:
                    return runs
                most = Run(run.category, "destroyed", run.reason, run.transport, remaining[run.category] - 1)
                # what was ranked after the kept unit is now taken before it: say why
                ahead = [replace(r, reason=KEPT_BACK[r.reason]) if r.reason in KEPT_BACK else r for r in runs[pos + 1 :]]
                return runs[:pos] + [most] + ahead + [run]
        return runs
