"""The sea fast path of the exact odds: steady sea rounds as a dynamic programme over side states.

At sea a side's losses do not follow one chain (submarines cannot hit aircraft, aircraft may not
hit submarines), but a side passes through few states: what is left of it under its order of
loss.  Each side's states are numbered as they appear, and the engine is asked each question
once, its answer kept in a table:

- a side's volley, from its own state and from which kinds of units the enemy has (the engine's
  promise, `Engine.enemy_kinds`): its outcomes, hits per fire class, with their probabilities;
- the side's state after it takes a number of hits per class, in a given phase (asked by the
  batch, `Engine.casualties_many`);
- what a phase without dice (the end of a round, the end of the surprise strikes) makes of a
  pair of side states: another pair, or the end of the battle.

From those, a *kernel* per target state and volley: the states the volley leads to, with their
probabilities.  A volley changes only the side it hits, so a dice phase is two half steps: the
attacker's kernels from every pair, then from each state so reached the defender's kernel (its
volley fixed by the pair the phase began from), read as padded rows and summed as they are made
(`FastSea._fire_merged`).  Pairs are solved in layers of decreasing hit points (a round that
changes anything costs hit points, so a layer only feeds later ones), every pair of a layer at
once, a round that changes nothing summed in closed form (`_stay`).

Submerged units are part of a side's state.  Subs that submerge at the start of step 2 move by
what the enemy has (a destroyer stops them), so that is a step of its own, like a phase without
dice; subs that submerge at the end of a round do so in the end phase, as does an attacker that
retreats by its orders (that phase is asked pair by pair where the retreat counts units).  Europe's
parting shot is a volley of its own after the fire, from the defending subs hit in it, which stay
behind the strip until the end phase.  Valid unless a retreat leaves units behind (`FastSea.maybe`).
Before an attacker's retreat after round N, the rounds from `Engine.settled_round` are played once
each from every pair they meet (`FastSea._early`), their end phases asked as those rounds' own.
NumPy is imported only when the odds are computed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Iterable

from pbem.engine.combat.engine import Engine, State, Volley
from pbem.engine.combat.rolling import class_distributions, volley_distribution
from pbem.odds.kinds import retreat_pattern, retreated, tail_pattern, without
from pbem.odds.work import _Work

if TYPE_CHECKING:
    import numpy as np

CHUNK = 1 << 20  # outcomes combined at once (memory: a few arrays of this many numbers)
FEW_OUTCOMES = 1 << 14  # `_kernels`: a batch padded to its widest volley where that adds at most this many outcomes
SHORT_KERNELS = 2  # `_volleys_taken`: the defender's kernels are short under this many results each
HOT_CHUNK = 1 << 16  # `_fire_merged`: results made and summed at once, while they are in the cache
STRIDE = 1 << 21  # a pair of side states (i, j) is coded i * STRIDE + j; an ended battle -(2 + its index)
BATCH = 16  # casualty questions asked of the engine at once from this many (`_taken_many`)
BATCH_ASKS_PER_ASK = 8  # work: a batched casualty question costs about this fraction of one asked alone
FOUND_PER_ASK = 8  # and a result of the batch met before (its state numbered, its casualties known) this fraction
HIT_RADIX = 1 << 12  # `_outcomes_of` codes hits per class in this base (more dice in a class: not coded)
HIT_CLASSES = 5  # and at most this many fire classes per target (4096 ** 5 < 2 ** 63)
UNKNOWN = -1
SPARSE_ROW = 1 << 31  # `_Sparse`: a cell's key is its row times this plus its column
DENSE_CELLS = 1 << 22  # past this many cells (32 MB) a table of casualties or of pairs keeps only the cells set
NO_VOLLEY = -1
DICE_PHASES = ("surprise", "fire", "parting")  # the phases whose volleys the tables play
UNASKED = -2
FEW_CODES = 32  # `_HitIds.of_codes`: up to this many codes, asked one by one
SORT_QUERIES_PAST = 1 << 12  # and past this many, sorted before they are looked up (twice as fast)
FEW_PAIRS = 64  # `FastSea._tail`: up to this many pairs, asked one by one
RETREAT_KINDS = 1 << 20  # `FastSea.kinds_left`: RETREAT_KINDS + k, the phase withdraws the attack as `retreats[k]`
# `_Kernels.rows`: the widths kernels are padded to, each about 1.5 times the one before (powers
# of two and three times them): a padded entry costs as much as a kernel's own
PADDED_WIDTHS = sorted({1 << k for k in range(40)} | {3 << k for k in range(39)})
SideKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # units on the strip, casualties behind it, submerged


class _Sides:
    """The states one side passes through, numbered as they appear."""

    def __init__(self, engine: Engine, side: str):
        self.cats = engine.cats(side)  # type: ignore[arg-type]
        self.keys: list[SideKey] = []
        self.index: dict[SideKey, int] = {}
        self.sig: list[int] = []  # which kinds of units are on the strip, numbered
        self.sigs: dict[tuple[bool, ...], int] = {}
        # what the enemy's volleys read of this side (`Engine.enemy_kinds`), numbered
        self.seen: list[int] = []
        self.seens: dict[tuple[bool, ...], int] = {}
        self._seen_by = lambda counts: engine.enemy_kinds("defender" if side == "attacker" else "attacker", counts)
        self.hp: list[int] = []
        self.settled: list[bool] = []  # no casualty behind the strip
        self._arrays: tuple["np.ndarray", "np.ndarray", "np.ndarray"] | None = None  # `arrays`, for the first _synced keys
        self._synced = 0
        self._numbers: dict[str, "np.ndarray"] = {}  # `numbers`, for the first _numbered keys
        self._numbered = 0

    def add(self, key: SideKey) -> int:
        got = self.index.get(key)
        if got is None:
            got = self.index[key] = len(self.keys)
            self.keys.append(key)
            present = tuple(n > 0 for n in key[0]) + tuple(n > 0 for n in key[1]) + tuple(n > 0 for n in key[2])
            self.sig.append(self.sigs.setdefault(present, len(self.sigs)))
            self.seen.append(self.seens.setdefault(self._seen_by(key[0]), len(self.seens)))
            self.hp.append(sum((n - p) * (1 if c.damaged else c.profile.hits) for n, p, c in zip(key[0], key[1], self.cats)))
            self.settled.append(not any(key[1]))
        return got

    def numbers(self, name: str) -> "np.ndarray":
        """Every state's `sig`, `seen` or `settled` as an array: a batch reads them at thousands
        of states, and a huge fleet has tens of thousands (made anew, each read cost them all)."""
        import numpy as np

        if self._numbered < len(self.keys):
            n, done = len(self.keys), self._numbered
            for field, kind in (("sig", np.int64), ("seen", np.int64), ("settled", bool)):
                grown = self._numbers[field] = _room(self._numbers.get(field, np.zeros(0, dtype=kind)), n)
                grown[done:n] = getattr(self, field)[done:n]
            self._numbered = n
        return self._numbers[name][: len(self.keys)]

    def arrays(self) -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
        """Every state's units on the strip, casualties behind it and submerged units, as arrays
        (a row per state): a batch of questions reads thousands of states at once."""
        import numpy as np

        if self._arrays is None or self._synced < len(self.keys):
            new = self.keys[self._synced :]
            width = len(self.cats)
            parts = [np.array([k[n] for k in new], dtype=np.int64).reshape(len(new), width) for n in range(3)]
            if self._arrays is not None:
                parts = [np.concatenate([old, part]) for old, part in zip(self._arrays, parts)]
            self._arrays = (parts[0], parts[1], parts[2])
            self._synced = len(self.keys)
        return self._arrays


class _Table:
    """Integers over (row, column) indices that grow as states appear; `fill` marks the unasked.
    With `sparse_past`, a table that would hold more cells than that keeps only those set
    (`_Sparse`): a huge fleet meets tens of thousands of hit patterns, few of them in each state."""

    def __init__(self, fill: int, sparse_past: int | None = None):
        import numpy as np

        self.fill = fill
        self.a = np.full((16, 16), fill, dtype=np.int64)
        self.sparse_past = sparse_past
        self.sparse: _Sparse | None = None

    def fit(self, rows: int, cols: int) -> "np.ndarray | _Sparse":
        import numpy as np

        if self.sparse is not None:
            return self.sparse
        r, c = self.a.shape
        if rows > r or cols > c:
            # only the dimension that is short grows (doubling): one side meeting thousands of
            # states must not double the other's rows with it, to hundreds of MB of fill
            shape = (r if rows <= r else max(rows, 2 * r), c if cols <= c else max(cols, 2 * c))
            if self.sparse_past is not None and shape[0] * shape[1] > self.sparse_past:
                self.sparse = _Sparse(self.a, self.fill)
                return self.sparse
            bigger = np.full(shape, self.fill, dtype=np.int64)
            bigger[:r, :c] = self.a
            self.a = bigger
        return self.a


class _Sparse:
    """A `_Table`'s cells that are set, by key (row * 2**31 + column), sorted: indexed like the
    array it replaces, [rows, columns] with broadcasting, `fill` where a cell is not set."""

    def __init__(self, dense: "np.ndarray", fill: int):
        import numpy as np

        self.fill = fill
        r, c = np.nonzero(dense != fill)  # in row-major order: the keys come sorted
        self.keys = r.astype(np.int64) * SPARSE_ROW + c
        self.values = dense[r, c]

    def _find(self, rows: object, cols: object) -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
        import numpy as np

        key = np.asarray(rows, dtype=np.int64) * SPARSE_ROW + np.asarray(cols, dtype=np.int64)
        at = np.searchsorted(self.keys, key)
        near = np.minimum(at, max(len(self.keys) - 1, 0))
        found = (self.keys[near] == key) if len(self.keys) else np.zeros(key.shape, dtype=bool)
        return key, at, found

    def __getitem__(self, index: tuple[object, object]) -> "np.ndarray":
        import numpy as np

        key, at, found = self._find(*index)
        if not len(self.keys):
            return np.full(key.shape, self.fill, dtype=np.int64)
        return np.where(found, self.values[np.minimum(at, len(self.keys) - 1)], self.fill)

    def __setitem__(self, index: tuple[object, object], values: object) -> None:
        import numpy as np

        key, at, found = self._find(*index)
        key, values = np.broadcast_arrays(key, np.asarray(values, dtype=np.int64))
        at, found = np.broadcast_to(at, key.shape).ravel(), np.broadcast_to(found, key.shape).ravel()
        key, values = key.ravel(), values.ravel()
        self.values[at[found]] = values[found]
        new = np.nonzero(~found)[0]
        if len(new):
            order = new[np.argsort(key[new], kind="stable")]
            last = np.append(key[order][1:] != key[order][:-1], True)  # a key set twice keeps its last value
            order = order[last]
            self.keys = np.insert(self.keys, at[order], key[order])
            self.values = np.insert(self.values, at[order], values[order])


class _HitIds:
    """The hits one side takes from a volley (hits per fire class), numbered as they appear;
    0 is no hit.  Hits are coded as one number, their counts per class in base HIT_RADIX, the
    classes in the order met (at most HIT_CLASSES, fewer than HIT_RADIX hits each), and a huge
    fleet's volleys bring tens of thousands of new ones at once: they are numbered with NumPy
    and turned into hits per class only when a question to the engine needs them.  Hits that
    cannot be coded are numbered by themselves."""

    def __init__(self) -> None:
        import numpy as np

        self.position: dict[str, int] = {}  # a fire class's digit
        self.by_code: dict[int, int] = {0: 0}  # the ids of codes met, for a few looked up one by one
        self.code_of = np.zeros(16, dtype=np.int64)  # an id's code, or UNKNOWN: not coded
        self.by_hits: dict[tuple[tuple[str, int], ...], int] = {}  # the ids of hits not coded
        self.known: dict[int, dict[str, int]] = {0: {}}  # hits per class, by id, as asked
        self.count = 1
        # the codes met, sorted, with their ids: a huge volley's tens of thousands of outcomes are
        # looked up at once (`of_codes`); ids numbered since `_indexed` are merged in when needed
        self._codes = np.zeros(1, dtype=np.int64)
        self._ids = np.zeros(1, dtype=np.int64)
        self._indexed = 1

    def __len__(self) -> int:
        return self.count

    def place(self, classes: "Iterable[str]") -> bool:
        """Give new classes their digits: whether hits of these classes can all be coded."""
        classes = tuple(classes)
        for c in classes:
            self.position.setdefault(c, len(self.position))
        return all(self.position[c] < HIT_CLASSES for c in classes)

    def _digits(self) -> tuple[list[str], "np.ndarray"]:
        import numpy as np

        order = sorted((at, c) for c, at in self.position.items() if at < HIT_CLASSES)
        return [c for _, c in order], HIT_RADIX ** np.array([at for at, _ in order], dtype=np.int64)

    def of_codes(self, code: "np.ndarray") -> "np.ndarray":
        """The ids of coded hits, a new one numbered in the order it first comes."""
        import numpy as np

        by_code = self.by_code
        if len(code) <= FEW_CODES:  # one at a time costs less than NumPy's calls
            out = []
            for c in code.tolist():
                got = by_code.get(c)
                if got is None:
                    got = self._number(np.array([c], dtype=np.int64))
                out.append(got)
            return np.array(out, dtype=np.int64)
        known, ids = self._index()
        if len(code) > SORT_QUERIES_PAST:  # searched in order, the index is read front to back
            order = np.argsort(code, kind="stable")
            at = np.empty(len(code), dtype=np.int64)
            at[order] = np.searchsorted(known, code[order])
        else:
            at = np.searchsorted(known, code)
        at = np.minimum(at, len(known) - 1)
        found = known[at] == code
        got = np.where(found, ids[at], UNKNOWN)
        if not found.all():
            unknown = np.flatnonzero(~found)
            new, first, inverse = np.unique(code[unknown], return_index=True, return_inverse=True)
            order = np.argsort(first, kind="stable")  # numbered in the order they first come
            rank = np.empty(len(new), dtype=np.int64)
            rank[order] = np.arange(len(new))
            got[unknown] = self._number(new[order]) + rank[inverse.reshape(-1)]
        return got

    def _index(self) -> tuple["np.ndarray", "np.ndarray"]:
        """The codes met, sorted, and their ids, with the codes numbered since last time merged in."""
        import numpy as np

        if self._indexed < self.count:
            codes = self.code_of[self._indexed : self.count]
            coded = codes != UNKNOWN
            ids = np.arange(self._indexed, self.count)[coded]
            codes = codes[coded]
            order = np.argsort(codes, kind="stable")
            codes, ids = codes[order], ids[order]
            at = np.searchsorted(self._codes, codes)
            self._codes = np.insert(self._codes, at, codes)
            self._ids = np.insert(self._ids, at, ids)
            self._indexed = self.count
        return self._codes, self._ids

    def _number(self, codes: "np.ndarray") -> int:
        """Number new codes in this order: the first one's id."""
        first = self.count
        self.code_of = _room(self.code_of, first + len(codes))
        self.code_of[first : first + len(codes)] = codes
        self.by_code.update(zip(codes.tolist(), range(first, first + len(codes))))
        self.count += len(codes)
        return first

    def of_hits(self, hits: tuple[tuple[str, int], ...]) -> int:
        """The id of hits per class (classes sorted, none without a hit; their digits placed)."""
        import numpy as np

        if all(self.position[c] < HIT_CLASSES and n < HIT_RADIX for c, n in hits):
            code = sum(n * HIT_RADIX ** self.position[c] for c, n in hits)
            return int(self.of_codes(np.array([code], dtype=np.int64))[0])
        got = self.by_hits.get(hits)
        if got is None:
            got = self.by_hits[hits] = self.count
            self.code_of = _room(self.code_of, self.count + 1)
            self.code_of[self.count] = UNKNOWN
            self.known[got] = dict(hits)
            self.count += 1
        return got

    def hits(self, h: int) -> dict[str, int]:
        """Hits per class of id h."""
        got = self.known.get(h)
        if got is None:
            code = int(self.code_of[h])
            names, place = self._digits()
            got = self.known[h] = {c: code // int(b) % HIT_RADIX for c, b in zip(names, place) if code // int(b) % HIT_RADIX}
        return got

    def per_class(self, H: "np.ndarray") -> dict[str, "np.ndarray"]:
        """Hits per class of ids H, as arrays (a class none of them hits is left out)."""
        import numpy as np

        code = self.code_of[H]
        coded = code != UNKNOWN
        names, place = self._digits()
        out: dict[str, np.ndarray] = {}
        for c, b in zip(names, place):
            n = np.where(coded, code // b % HIT_RADIX, 0)
            if n.any():
                out[c] = n
        for k in np.flatnonzero(~coded).tolist():
            for c, n in self.hits(int(H[k])).items():
                out.setdefault(c, np.zeros(len(H), dtype=np.int64))[k] = n
        return {c: out[c] for c in sorted(out)}


class _Outcomes:
    """A side's volleys, numbered, with their outcomes (hit ids of the target, probabilities)
    kept end to end, each volley's from `start` for `width` entries, with their running sums
    (for the sample to bisect); the row after the last volley is 'no volley': no hit, for
    certain.  The arrays grow with room to spare, so a volley costs its own outcomes, not all
    the volleys before it nor the widest one (a huge fleet's volleys have tens of thousands
    of outcomes, most volleys far fewer)."""

    def __init__(self) -> None:
        import numpy as np

        self.volleys: dict[tuple[object, ...], int] = {}
        self.count = 0
        self._ids = np.zeros(64, dtype=np.int64)  # entry 0: no volley's one outcome, no hit
        self._probs = np.zeros(64)
        self._cum = np.zeros(64)
        self._probs[0] = self._cum[0] = 1.0
        self._entries = 1
        self._start = np.zeros(16, dtype=np.int64)
        self._width = np.ones(16, dtype=np.int64)

    def add(self, groups: tuple[object, ...], hit_ids: "np.ndarray", probs: "np.ndarray") -> int:
        import numpy as np

        got = self.volleys.get(groups)
        if got is not None:
            return got
        got = self.volleys[groups] = self.count
        e, n = self._entries, len(hit_ids)
        self._ids, self._probs, self._cum = (_room(self._ids, e + n), _room(self._probs, e + n), _room(self._cum, e + n))
        self._ids[e : e + n] = hit_ids
        self._probs[e : e + n] = probs
        self._cum[e : e + n] = np.cumsum(probs)
        self._start, self._width = _room(self._start, got + 2), _room(self._width, got + 2)
        self._start[got], self._width[got] = e, n
        self._start[got + 1], self._width[got + 1] = 0, 1  # no volley
        self._entries = e + n
        self.count += 1
        return got

    @property
    def width(self) -> "np.ndarray":
        return self._width[: self.count + 1]

    def padded(self, rows: "np.ndarray", k: int) -> tuple["np.ndarray", "np.ndarray"]:
        """The outcomes of volleys `rows`, the first k of each, as arrays (rows x k): hit ids,
        and probabilities, 0 past a volley's own outcomes."""
        import numpy as np

        column = np.arange(k)
        inside = column[None, :] < self._width[rows][:, None]
        at = np.where(inside, self._start[rows][:, None] + column[None, :], 0)
        return np.where(inside, self._ids[at], 0), np.where(inside, self._probs[at], 0.0)

    def draw(self, rows: "np.ndarray", u: "np.ndarray") -> "np.ndarray":
        """Each volley's outcome (a hit id) at the uniform number u in [0, 1): the first whose
        running sum passes u times the volley's total, found by bisection per volley."""
        import numpy as np

        start, width = self._start[rows], self._width[rows]
        u = u * self._cum[start + width - 1]
        pick = np.empty(len(rows), dtype=np.int64)
        by_row = np.argsort(rows, kind="stable")
        edges = np.flatnonzero(np.diff(rows[by_row])) + 1
        for at in np.split(by_row, edges):
            b = int(start[at[0]])
            pick[at] = np.searchsorted(self._cum[b : b + int(width[at[0]])], u[at], side="right")
        return self._ids[start + np.minimum(pick, width - 1)]


def _merge(keys: "np.ndarray", weights: "np.ndarray", space: int) -> tuple["np.ndarray", "np.ndarray"]:
    """Each key once, in increasing order, with the sum of its weights (keys in range(space)):
    counted in place where the space is not much larger than the keys, sorted otherwise."""
    import numpy as np

    if space <= max(1 << 16, 4 * len(keys)):
        total = np.bincount(keys, weights=weights, minlength=space)
        at = np.flatnonzero(total)
        return at, total[at]
    keys, inverse = np.unique(keys, return_inverse=True)
    return keys, np.bincount(inverse, weights=weights)


class _Kernels:
    """One side's volleys at the other side's states, in one phase: for a target state and a
    volley, the target's states after it and their probabilities (equal states merged), kept end
    to end; `unchanged`: the chance that the volley changes nothing there."""

    def __init__(self) -> None:
        import numpy as np

        self.table = _Table(UNKNOWN)  # target state x (volley id + 1, 0: no volley) -> kernel
        # arrays with room to grow (doubled when full: a kernel batch costs its own size, not all
        # the kernels before it); entries past `kernels` and `entries` are unused
        self.kernels = 0
        self.entries = 0
        self.start = np.zeros(64, dtype=np.int64)
        self.length = np.zeros(64, dtype=np.int64)
        self.unchanged = np.zeros(64)
        self.state = np.zeros(1024, dtype=np.int64)
        self.prob = np.zeros(1024)
        # the same kernels padded (`rows`): by width class w, rows of PADDED_WIDTHS[w] states and
        # probabilities (0 past a kernel's own), so that a batch reads whole rows, not entry by entry
        self.padded: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.padded_rows: dict[int, int] = {}
        self.width_class = np.zeros(64, dtype=np.int64)
        self.row = np.zeros(64, dtype=np.int64)
        self._padded = 0

    def add(self, state: "np.ndarray", prob: "np.ndarray", length: "np.ndarray", unchanged: "np.ndarray") -> None:
        k, e = self.kernels, self.entries
        self.start = _room(self.start, k + len(length))
        self.length = _room(self.length, k + len(length))
        self.unchanged = _room(self.unchanged, k + len(length))
        self.state = _room(self.state, e + len(state))
        self.prob = _room(self.prob, e + len(state))
        self.start[k : k + len(length)] = e + length.cumsum() - length
        self.length[k : k + len(length)] = length
        self.unchanged[k : k + len(length)] = unchanged
        self.state[e : e + len(state)] = state
        self.prob[e : e + len(state)] = prob
        self.kernels, self.entries = k + len(length), e + len(state)

    def rows(self, kid: "np.ndarray") -> tuple["np.ndarray", "np.ndarray"]:
        """Kernels `kid` as rows of their width class (`padded`): the class of each, and its row."""
        import numpy as np

        if self._padded < self.kernels:
            new = np.arange(self._padded, self.kernels)
            length = self.length[new]
            width = np.searchsorted(PADDED_WIDTHS, length)  # the narrowest class each fits in
            self.width_class = _room(self.width_class, self.kernels)
            self.row = _room(self.row, self.kernels)
            self.width_class[new] = width
            for w in np.unique(width).tolist():
                at = new[width == w]
                k = int(PADDED_WIDTHS[w])
                states, probs = self.padded.get(w, (np.zeros((0, k), dtype=np.int64), np.zeros((0, k))))
                used = self.padded_rows.get(w, 0)
                if used + len(at) > len(states):
                    grow = max(used + len(at), 2 * len(states))
                    states = np.concatenate([states, np.zeros((grow - len(states), k), dtype=np.int64)])
                    probs = np.concatenate([probs, np.zeros((grow - len(probs), k))])
                column = np.arange(k)
                inside = column[None, :] < self.length[at][:, None]
                index = np.where(inside, self.start[at][:, None] + column[None, :], 0)
                states[used : used + len(at)] = np.where(inside, self.state[index], 0)
                probs[used : used + len(at)] = np.where(inside, self.prob[index], 0.0)
                self.row[at] = np.arange(used, used + len(at))
                self.padded[w], self.padded_rows[w] = (states, probs), used + len(at)
            self._padded = self.kernels
        return self.width_class[kid], self.row[kid]


def _distinct(keys: "np.ndarray") -> "np.ndarray":
    """The distinct keys, in increasing order: `np.unique` by sorting.  NumPy 2.3 and later find
    them by hashing instead, and a key such as i * STRIDE + j hashes so badly there that a million
    of them took 0.6 s, against 6 ms sorted."""
    import numpy as np

    keys = np.sort(keys, axis=None)
    if len(keys) < 2:
        return keys
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))]


def _first_rows(rows: "np.ndarray") -> tuple["np.ndarray", "np.ndarray"]:
    """The distinct rows of an integer array in the order they first come: the index of each
    one's first row, and for every row the number of its distinct row.  Rows are coded as one
    integer where their varying columns fit in 62 bits (sorting numbers is fast; NumPy's sort
    of whole rows is not), as whole rows otherwise."""
    import numpy as np

    low = rows.min(axis=0)
    span = rows.max(axis=0) - low + 1
    varying = np.flatnonzero(span > 1)
    if math.prod(span[varying].tolist()) < 1 << 62:
        place = np.cumprod(np.concatenate([[1], span[varying][:-1]])).astype(np.int64)
        code = (rows[:, varying] - low[varying]) @ place if len(varying) else np.zeros(len(rows), dtype=np.int64)
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(first), dtype=np.int64)
    rank[order] = np.arange(len(first))
    return first[order], rank[inverse.reshape(-1)]


def _room(a: "np.ndarray", n: int) -> "np.ndarray":
    """`a`, or a copy twice as long (or long enough), so that it holds n entries."""
    import numpy as np

    if n <= len(a):
        return a
    bigger = np.zeros(max(n, 2 * len(a)), dtype=a.dtype)
    bigger[: len(a)] = a
    return bigger


class FastSea:
    """Steady sea rounds solved as a programme over pairs of side states (see the module docstring)."""

    # Work units (see pbem.odds.STATE_BUDGET): a question put to the engine, and outcomes combined
    ASK_UNITS = 7
    OUTCOMES_PER_UNIT = 100
    PHASE_UNITS = 5  # a phase of the sample, played for a batch of battles at once (`sample`)
    FINAL_UNITS = 2  # an end made without asking the engine (an attack withdrawn): made and summed up

    def __init__(self, engine: Engine, low_luck: bool):
        self.engine = engine
        self.low_luck = low_luck
        self.entries: dict[tuple[SideKey, SideKey], float] = {}
        # the rounds before the steady ones that the tables play too (`_early`): round -> mass by pair
        self.first_round = engine.settled_round
        self.early: dict[int, dict[tuple[SideKey, SideKey], float]] = {}
        self.round = engine.steady_round  # the round whose phases without dice `_tail` asks
        self.neglected = 0.0
        self.sides = {"attacker": _Sides(engine, "attacker"), "defender": _Sides(engine, "defender")}
        self.hit_ids = {"attacker": _HitIds(), "defender": _HitIds()}  # the hits each side takes, numbered
        self.outcomes = {"attacker": _Outcomes(), "defender": _Outcomes()}
        self.volley_of: dict[tuple[str, str], _Table] = {}  # (side, phase) -> own state x enemy kinds -> volley
        self.hit_by: dict[tuple[str, str], Volley] = {}  # (side hit, phase) -> a volley that hits it
        self.taken: dict[tuple[str, str], _Table] = {}  # (side hit, phase) -> state x hit id -> state
        self.left: dict[tuple[str, str, SideKey], int] = {}  # `_left`: (side hit, phase, its units) -> state
        self.kernels: dict[tuple[str, str], _Kernels] = {}  # (side firing, phase) -> its volleys' kernels
        self.tails: dict[tuple[str, int], _Table] = {}  # (phase without dice, round) -> pair -> pair or end
        # phase -> kinds of a pair -> 1: unchanged, 2 + k: as tail_patterns[k], RETREAT_KINDS + k:
        # as retreats[k] (`pbem.odds.kinds.retreat_pattern`), 0: asked pair by pair
        self.kinds_left: dict[tuple[str, int], _Table] = {}
        self.tail_patterns: list[tuple[tuple[bool, ...], tuple[bool, ...], str]] = []
        self.retreats: list[tuple[tuple[bool, ...], str]] = []
        self.finals: list[State] = []
        self.final_index: dict[State, int] = {}
        self.zero_a = (0,) * len(engine.a_cats)
        self.zero_d = (0,) * len(engine.d_cats)
        self.work: _Work | None = None  # what `solve` may spend; questions to the engine are charged as they are asked
        # the phases of a round, with subs that submerge at the start of step 2 as a step of their
        # own: it moves a side's units by what the other side has (a destroyer), so no side's table holds it
        # (a phase idle in every round the tables play is left out: `Engine.idle_phases`)
        idle = engine.idle_phases(self.first_round) & engine.idle_phases(engine.steady_round)
        phases = tuple(p for p in engine.phases if p not in idle)
        if any(o.submerge == "always" for o in engine.orders.values()) and "surprise" in phases:
            at = phases.index("surprise")
            phases = phases[:at] + ("submerge",) + phases[at:]
        self.steps = phases
        self.parting = "parting" in phases
        # a retreat by the attacker's numbers (not by the round) is decided in the end phase by
        # counting units, not only by their kinds: that phase is then asked pair by pair
        self.counted_end = engine.orders["attacker"].retreat.kind not in ("never", "after_round")  # type: ignore[index]

    @classmethod
    def maybe(cls, engine: Engine, low_luck: bool) -> "FastSea | None":
        if engine.kind != "sea":
            return None
        if engine.orders["attacker"].retreat.kind != "never" and engine.battle.can_retreat and not all(engine.retreating):
            return None  # a partial retreat leaves units fighting beside those gone: use the general walk
        return cls(engine, low_luck)

    def takes(self, st: State, volleys) -> bool:  # type: ignore[no-untyped-def]
        return False  # no phase of an earlier round is handed over

    def add(self, state: State, m: float) -> None:
        if any(state.a_pending) or any(state.d_pending) or any(state.a_retreated):
            raise AssertionError("a steady sea round starts with casualties or retreated units")
        key = ((state.a, state.a_pending, state.a_submerged), (state.d, state.d_pending, state.d_submerged))
        into = self.entries if state.round >= self.engine.steady_round else self.early.setdefault(state.round, {})
        into[key] = into.get(key, 0.0) + m

    # the engine's answers ----------------------------------------------------------
    def _state(self, i: int, j: int, rnd: int | None = None) -> State:
        (a, ap, asub), (d, dp, dsub) = self.sides["attacker"].keys[i], self.sides["defender"].keys[j]
        return State(self.engine.steady_round if rnd is None else rnd, a, d, ap, dp, asub, dsub, self.zero_a, "")

    def _code(self, st: State) -> int:
        """A state after a phase: its pair's code, or the end of the battle."""
        if st.over:
            end = st._replace(round=0)
            got = self.final_index.get(end)
            if got is None:
                got = self.final_index[end] = len(self.finals)
                self.finals.append(end)
            return -(2 + got)
        if any(st.a_retreated):
            raise AssertionError("a steady sea round retreated in part")
        i = self.sides["attacker"].add((st.a, st.a_pending, st.a_submerged))
        j = self.sides["defender"].add((st.d, st.d_pending, st.d_submerged))
        return i * STRIDE + j

    def _outcomes_of(self, target: str, volley: Volley) -> tuple["np.ndarray", "np.ndarray"]:
        """A volley's outcomes as hit ids of its target and their probabilities, in the order and
        with the products of `volley_distribution` (a large fleet's volley has thousands): each
        outcome is first coded as its hits per class in base HIT_RADIX, and only a new code is
        turned into the hits it stands for."""
        import numpy as np

        classes = class_distributions(volley, self.low_luck)
        ids = self.hit_ids[target]
        if not ids.place(cls for cls, _ in classes) or any(len(dist) > HIT_RADIX for _, dist in classes):
            outcomes = volley_distribution(volley, self.low_luck)  # too many classes or dice to code
            return (np.array([ids.of_hits(tuple(x for x in h if x[1])) for h, _ in outcomes], dtype=np.int64),
                    np.array([p for _, p in outcomes]))
        prob = np.ones(1)
        code = np.zeros(1, dtype=np.int64)
        for cls, dist in classes:
            d = np.asarray(dist)
            k = np.flatnonzero(d > 0.0)
            prob = (prob[:, None] * d[k][None, :]).ravel()
            code = (code[:, None] + k[None, :] * HIT_RADIX ** ids.position[cls]).ravel()
        return ids.of_codes(code), prob

    def _volleys(self, phase: str, I: "np.ndarray", J: "np.ndarray") -> tuple["np.ndarray", "np.ndarray"]:
        """Each pair's volleys in `phase` (ids, or NO_VOLLEY), asking the engine once per own state and
        enemy kinds: a side's volley depends on nothing else (`Engine.enemy_kinds`)."""
        import numpy as np

        A, D = self.sides["attacker"], self.sides["defender"]
        sig_a, sig_d = A.numbers("seen")[I], D.numbers("seen")[J]
        ta = self.volley_of.setdefault(("attacker", phase), _Table(UNASKED)).fit(len(A.keys), len(D.seens))
        td = self.volley_of.setdefault(("defender", phase), _Table(UNASKED)).fit(len(D.keys), len(A.seens))
        for side, table, own, seen in (("attacker", ta, I, sig_d), ("defender", td, J, sig_a)):
            target = "defender" if side == "attacker" else "attacker"
            for k in np.nonzero(table[own, seen] == UNASKED)[0]:
                if table[own[k], seen[k]] != UNASKED:
                    continue  # asked for an earlier pair of this batch
                found = NO_VOLLEY
                for v in self.engine.side_volleys(self._state(int(I[k]), int(J[k])), phase, side):  # type: ignore[arg-type]
                    if found != NO_VOLLEY:
                        raise AssertionError("two volleys of one side in a steady sea phase")
                    known = self.hit_by.setdefault((target, phase), v)
                    if known.step != v.step:
                        raise AssertionError("volleys of one side with different steps in a steady sea phase")
                    found = self.outcomes[side].volleys.get(v.groups)  # met from another pair: its outcomes are known
                    if found is None:
                        found = self.outcomes[side].add(v.groups, *self._outcomes_of(target, v))
                table[own[k], seen[k]] = found
                self._asked(1)
        return ta[I, sig_d], td[J, sig_a]

    def _taken(self, target: str, phase: str, S: "np.ndarray", H: "np.ndarray") -> "np.ndarray":
        """The target's state after each hit id in H from its state in S (broadcast)."""
        import numpy as np

        side = self.sides[target]
        table = self.taken.setdefault((target, phase), _Table(UNKNOWN, DENSE_CELLS)).fit(len(side.keys), len(self.hit_ids[target]))
        got = table[S, H]
        if (got == UNKNOWN).any():
            S_, H_ = np.broadcast_arrays(S, H)
            ids = len(self.hit_ids[target])
            key = _distinct(S_[got == UNKNOWN].astype(np.int64) * ids + H_[got == UNKNOWN])  # each (s, h) once, in order
            volley = self.hit_by.get((target, phase))
            todo: list[tuple[int, int]] = []
            if len(key) >= BATCH and volley is not None:
                self._asked(len(key) // BATCH_ASKS_PER_ASK)  # before the batch: past the bound, it is not asked
                self._taken_many(target, phase, volley, key // ids, key % ids)
                table = self.taken[(target, phase)].fit(len(side.keys), len(self.hit_ids[target]))
            else:
                todo = list(zip((key // ids).tolist(), (key % ids).tolist()))
            hit = {"surprise": self.engine.surprise_casualties, "fire": self.engine.fire_casualties,
                   "parting": self.engine.parting_casualties}[phase]
            for s, h in todo:
                if h == 0 and not any(side.keys[s][1]):  # no hit, no casualty behind the strip: no change
                    table = self.taken[(target, phase)].fit(len(side.keys), len(self.hit_ids[target]))
                    table[s, h] = s
                    continue
                st = self._one_side(target, *side.keys[s])
                new = self._left(target, phase, hit(st, volley, self.hit_ids[target].hits(h)) if h else st)
                table = self.taken[(target, phase)].fit(len(side.keys), len(self.hit_ids[target]))
                table[s, h] = new
                self._asked(1)
            got = table[S, H]
        return got

    def _taken_many(self, target: str, phase: str, volley: Volley, S: "np.ndarray", H: "np.ndarray") -> None:
        """`_taken`'s questions (states S, hit ids H) asked of the engine at once
        (`Engine.volley_casualties_many`), their casualties leaving the strip as `_left` says
        (`Engine.leave_many`); new states are numbered in the order the results first come."""
        import numpy as np

        sides = self.sides[target]
        counts, pending, submerged = sides.arrays()
        hits = self.hit_ids[target].per_class(H)
        after_counts, after_pending = self.engine.volley_casualties_many(volley, phase, counts[S], pending[S], hits)  # type: ignore[arg-type]
        when = self._leaves_at(target, phase)
        if when is not None:
            after_counts, after_pending = self.engine.leave_many(target, when, after_counts, after_pending)  # type: ignore[arg-type]
        width = after_counts.shape[1]
        rows = np.concatenate([after_counts, after_pending, submerged[S]], axis=1)
        first, inverse = _first_rows(rows)
        state = np.empty(len(first), dtype=np.int64)
        known = len(sides.keys)
        for k, row in enumerate(rows[first].tolist()):
            state[k] = sides.add((tuple(row[:width]), tuple(row[width : 2 * width]), tuple(row[2 * width :])))
        table = self.taken[(target, phase)].fit(len(sides.keys), len(self.hit_ids[target]))
        table[S, H] = state[inverse]
        self._asked(len(sides.keys) - known + len(first) // FOUND_PER_ASK)

    def _asked(self, questions: int) -> None:
        """Charge questions to the engine to the work of `solve` as they are asked, so that a
        layer's tables stop being built once past the bound (none in the sample)."""
        if self.work is not None:
            self.work.add(self.ASK_UNITS * questions)

    def _left(self, target: str, phase: str, st: State) -> int:
        """The target's state, numbered, once its casualties leave the strip as soon as the rules
        say, side by side, so that the phases without dice meet fewer pairs: after a surprise
        strike unless they fire back (`Engine.surprise_leave`), at the end of fire (`Engine.end_of_fire`).
        `st` has the target's units only (`_one_side`); each is asked once (many hits leave the same units)."""
        here = (st.a, st.a_pending, st.a_submerged) if target == "attacker" else (st.d, st.d_pending, st.d_submerged)
        got = self.left.get((target, phase, here))
        if got is None:
            when = self._leaves_at(target, phase)
            if when == "fire":
                st = self.engine.end_of_fire(st)
            elif when == "surprise":
                st = self.engine.surprise_leave(st, target)  # type: ignore[arg-type]
            got = self.left[(target, phase, here)] = self.sides[target].add(
                (st.a, st.a_pending, st.a_submerged) if target == "attacker" else (st.d, st.d_pending, st.d_submerged))
        return got

    def _leaves_at(self, target: str, phase: str) -> str | None:
        """When the target's casualties of a volley in `phase` leave the strip at the end of it:
        "fire" (`Engine.end_of_fire`), "surprise" (`Engine.surprise_leave`), or None: a parting
        shot's casualties leave at once, and the defender's of a round with parting shots stay
        behind the strip for them (the end phase removes them)."""
        if phase == "fire" and not (self.parting and target == "defender"):
            return "fire"
        return "surprise" if phase == "surprise" else None

    def _one_side(self, target: str, counts: tuple[int, ...], pending: tuple[int, ...], submerged: tuple[int, ...]
                  ) -> State:
        """A state with only `target`'s units: what a question about one side reads (its
        submerged units are carried through unread)."""
        if target == "attacker":
            return State(self.engine.steady_round, counts, self.zero_d, pending, self.zero_d,
                         submerged, self.zero_d, self.zero_a, "")
        return State(self.engine.steady_round, self.zero_a, counts, self.zero_a, pending,
                     self.zero_a, submerged, self.zero_a, "")

    def _tail(self, phase: str, I: "np.ndarray", J: "np.ndarray") -> "np.ndarray":
        """What a phase without dice makes of each pair: a pair's code or an end's.

        Such a phase reads only which kinds of units each side has (defenceless transports, the
        end of the battle; held by tests/engine/combat/test_engine_contracts.py), so where it
        leaves one pair of those kinds unchanged it leaves every such pair unchanged, and where it
        only removes whole kinds of units (defenceless transports) and says who won, or withdraws
        the whole attack (a retreat after a round), it does the same to every such pair with no
        casualty behind the strip (`tail_pattern`, `retreat_pattern`); the engine is asked pair by
        pair only where it does something else."""
        import numpy as np

        A, D = self.sides["attacker"], self.sides["defender"]
        table = self.tails.setdefault((phase, self.round), _Table(UNKNOWN, DENSE_CELLS)).fit(len(A.keys), len(D.keys))
        got = table[I, J]
        missing = np.nonzero(got == UNKNOWN)[0]
        if len(missing):
            kinds_of = self.kinds_left.setdefault((phase, self.round), _Table(UNKNOWN))
            by_kinds = not (phase == "end" and self.counted_end)
            if len(missing) <= FEW_PAIRS:
                mi, mj = I[missing], J[missing]
                same = (kinds_of.fit(len(A.sigs), len(D.sigs))[A.numbers("sig")[mi], D.numbers("sig")[mj]] == 1) & by_kinds
                table[mi[same], mj[same]] = mi[same] * STRIDE + mj[same]
                self._tail_one_by_one(phase, mi[~same], mj[~same], by_kinds)
                return self.tails[(phase, self.round)].fit(len(A.keys), len(D.keys))[I, J]
            pair = _distinct(I[missing] * STRIDE + J[missing])  # each pair once, in order
            mi, mj = pair // STRIDE, pair % STRIDE
            sa, sd = A.numbers("sig")[mi], D.numbers("sig")[mj]
            settled = A.numbers("settled")[mi] & D.numbers("settled")[mj]
            if by_kinds:  # the first pair of kinds not met before asks the engine for all of them
                unknown = np.flatnonzero(kinds_of.fit(len(A.sigs), len(D.sigs))[sa, sd] == UNKNOWN)
                _, first = np.unique(sa[unknown] * len(D.sigs) + sd[unknown], return_index=True)
                for n in np.sort(unknown[first]).tolist():
                    self._ask_tail(phase, int(mi[n]), int(mj[n]), int(sa[n]), int(sd[n]), bool(settled[n]))
            todo = self.tails[(phase, self.round)].fit(len(A.keys), len(D.keys))[mi, mj] == UNKNOWN
            if by_kinds:
                kinds = kinds_of.fit(len(A.sigs), len(D.sigs))[sa, sd]
                same = todo & (kinds == 1)
                table = self.tails[(phase, self.round)].fit(len(A.keys), len(D.keys))
                table[mi[same], mj[same]] = pair[same]
                known = todo & (kinds >= 2) & settled
                emptied, withdrawn = known & (kinds < RETREAT_KINDS), known & (kinds >= RETREAT_KINDS)
                self._by_pattern(phase, mi[emptied], mj[emptied], kinds[emptied] - 2)
                self._by_retreat(phase, mi[withdrawn], mj[withdrawn], kinds[withdrawn] - RETREAT_KINDS)
                todo &= ~same & ~known
            asked = np.flatnonzero(todo)
            if len(asked):  # pair by pair, their answers kept at once (a huge fleet's table is sparse: a cell set alone costs its size)
                codes = [self._ask_tail(phase, int(mi[n]), int(mj[n]), int(sa[n]), int(sd[n]), bool(settled[n]), keep=False)
                         for n in asked.tolist()]
                self.tails[(phase, self.round)].fit(len(A.keys), len(D.keys))[mi[asked], mj[asked]] = codes
            got = self.tails[(phase, self.round)].fit(len(A.keys), len(D.keys))[I, J]
        return got

    def _tail_one_by_one(self, phase: str, I: "np.ndarray", J: "np.ndarray", by_kinds: bool) -> None:
        """`_tail` of a few pairs, each in turn (NumPy's calls cost more there than a loop): the
        same questions asked of the engine, the same answers, kept at once (a cell of a sparse
        table set alone costs the table's size)."""
        A, D = self.sides["attacker"], self.sides["defender"]
        done: list[tuple[int, int, int]] = []
        for i, j in sorted(set(zip(I.tolist(), J.tolist()))):
            if self.tails[(phase, self.round)].fit(len(A.keys), len(D.keys))[i, j] != UNKNOWN:
                continue
            a, d = A.sig[i], D.sig[j]
            kinds = self.kinds_left[(phase, self.round)].fit(len(A.sigs), len(D.sigs))[a, d] if by_kinds else 0
            settled = A.settled[i] and D.settled[j]
            if kinds == 1:
                code = i * STRIDE + j
            elif kinds >= RETREAT_KINDS and settled:  # the attack withdrawn as from another pair of these kinds
                code = self._code(retreated(self._state(i, j, self.round), self.retreats[kinds - RETREAT_KINDS]))
                if self.work is not None:
                    self.work.add(self.FINAL_UNITS)
            elif kinds >= 2 and settled:  # as for another pair of these kinds (`_by_pattern`)
                zero_a, zero_d, over = self.tail_patterns[kinds - 2]
                (a_, ap, asub), (d_, dp, dsub) = A.keys[i], D.keys[j]
                code = self._code(State(self.round, without(a_, zero_a), without(d_, zero_d),
                                        ap, dp, asub, dsub, self.zero_a, over))
            else:
                code = self._ask_tail(phase, i, j, a, d, settled, keep=False)
            done.append((i, j, code))
        if done:
            i, j, code = zip(*done)
            self.tails[(phase, self.round)].fit(len(A.keys), len(D.keys))[list(i), list(j)] = list(code)

    def _ask_tail(self, phase: str, i: int, j: int, a: int, d: int, settled: bool, keep: bool = True) -> int:
        """`_tail` of pair (i, j), whose sides' kinds are numbered a and d, asked of the engine
        (kept in the table unless `keep` is False); the first pair of its kinds says what the
        phase does to every such pair."""
        st = self._state(i, j, self.round)
        if phase == "after-surprise":
            after = self.engine.after_surprise(st)
        elif phase == "submerge":
            after = self.engine.submerge(st)
        else:
            after = self.engine.apply(st, phase, [])
        code = self._code(after)
        A, D = self.sides["attacker"], self.sides["defender"]
        kinds = self.kinds_left[(phase, self.round)].fit(len(A.sigs), len(D.sigs))
        if kinds[a, d] == UNKNOWN:
            pattern = tail_pattern(st, after) if settled else None
            withdrawn = retreat_pattern(st, after) if settled else None
            if code == i * STRIDE + j:
                kinds[a, d] = 1
            elif pattern is not None:
                if pattern not in self.tail_patterns:
                    self.tail_patterns.append(pattern)
                kinds[a, d] = 2 + self.tail_patterns.index(pattern)
            elif withdrawn is not None:
                if withdrawn not in self.retreats:
                    self.retreats.append(withdrawn)
                kinds[a, d] = RETREAT_KINDS + self.retreats.index(withdrawn)
            else:
                kinds[a, d] = 0
        if keep:
            self.tails[(phase, self.round)].fit(len(A.keys), len(D.keys))[i, j] = code
        self._asked(1)
        return code

    def _by_pattern(self, phase: str, I: "np.ndarray", J: "np.ndarray", K: "np.ndarray") -> None:
        """`_tail` of pairs (I[n], J[n]) with nothing behind the strip, whose kinds of units the
        phase treats as `tail_patterns[K[n]]` says: whole kinds removed, each side's new state
        found once per state and pattern, and the battle ended or not."""
        import numpy as np

        if not len(I):
            return
        after = []
        for side, S, which in (("attacker", I, 0), ("defender", J, 1)):
            sides = self.sides[side]
            distinct, inverse = np.unique(S * len(self.tail_patterns) + K, return_inverse=True)
            new = np.empty(len(distinct), dtype=np.int64)
            for n, code in enumerate(distinct.tolist()):
                s, k = divmod(code, len(self.tail_patterns))
                counts, pending, submerged = sides.keys[s]
                zero = self.tail_patterns[k][which]
                new[n] = sides.add((without(counts, zero), pending, submerged))
            after.append(new[inverse.reshape(-1)])
            self._asked(len(distinct) // FOUND_PER_ASK)
        codes = after[0] * STRIDE + after[1]
        over = np.array([bool(p[2]) for p in self.tail_patterns])[K]
        for n in np.flatnonzero(over).tolist():
            codes[n] = self._end(int(after[0][n]), int(after[1][n]), self.tail_patterns[int(K[n])][2])
        self._asked(int(over.sum()) // FOUND_PER_ASK + len(I) // self.OUTCOMES_PER_UNIT)
        table = self.tails[(phase, self.round)].fit(len(self.sides["attacker"].keys), len(self.sides["defender"].keys))
        table[I, J] = codes

    def _by_retreat(self, phase: str, I: "np.ndarray", J: "np.ndarray", K: "np.ndarray") -> None:
        """`_tail` of pairs (I[n], J[n]) with nothing behind the strip, whose kinds of units the
        phase treats as `retreats[K[n]]` says: the attack withdrawn, the battle over."""
        if not len(I):
            return
        if self.work is not None:  # each a final state of its own, summed up at the end: past the bound, none made
            self.work.ahead(self.FINAL_UNITS * len(I))
        codes = [self._code(retreated(self._state(i, j, self.round), self.retreats[k]))
                 for i, j, k in zip(I.tolist(), J.tolist(), K.tolist())]
        if self.work is not None:
            self.work.add(self.FINAL_UNITS * len(I))
        table = self.tails[(phase, self.round)].fit(len(self.sides["attacker"].keys), len(self.sides["defender"].keys))
        table[I, J] = codes

    def _end(self, i: int, j: int, over: str) -> int:
        """The code of the end of the battle with the sides in states i and j (`_code`)."""
        (a, ap, asub), (d, dp, dsub) = self.sides["attacker"].keys[i], self.sides["defender"].keys[j]
        return self._code(State(self.round, a, d, ap, dp, asub, dsub, self.zero_a, over))

    # a round for many pairs at once -------------------------------------------------
    def _expand(self, kernels: _Kernels, kid: "np.ndarray", W: "np.ndarray", work: _Work
                ) -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
        """Kernels kid[n] (`_kernels`: a volley at a target state) with weights W[n], entry by
        entry: how many results each input has (they come in input order), the target's state
        after each and its weight."""
        import numpy as np

        length = kernels.length[kid]
        at = np.repeat(kernels.start[kid] - (np.cumsum(length) - length), length)
        at += np.arange(len(at))
        work.add(len(at) // self.OUTCOMES_PER_UNIT)
        return length, kernels.state[at], np.repeat(W, length) * kernels.prob[at]

    def _kernels(self, side: str, phase: str, volleys: "np.ndarray", S: "np.ndarray") -> "_Kernels":
        """`side`'s kernels in `phase`, made for every (S[n], volleys[n]) that lacks one: the volley's
        outcomes (a padded outcome is "no hit" with probability 0; no volley is "no hit" for
        certain), each taken by the target (`_taken`), equal states merged."""
        import numpy as np

        o = self.outcomes[side]
        target = "defender" if side == "attacker" else "attacker"
        kernels = self.kernels.setdefault((side, phase), _Kernels())
        table = kernels.table.fit(len(self.sides[target].keys), o.count + 1)
        missing = table[S, volleys + 1] == UNKNOWN
        if not missing.any():
            return kernels
        pair = _distinct(S[missing] * (o.count + 1) + volleys[missing] + 1)
        s, col = pair // (o.count + 1), pair % (o.count + 1)
        rows = np.where(col == 0, o.count, col - 1)  # the padded arrays' last row is "no volley"
        width = o.width[rows]
        # ceil(log2(width)), in integers: NumPy's log2 differs in the last bit between processors
        bucket = np.searchsorted(1 << np.arange(63, dtype=np.int64), width)
        if len(width) * int(width.max()) <= int(width.sum()) + FEW_OUTCOMES:
            bucket[:] = 0  # padded to the widest at little cost: one batch
        parts = []
        for b in np.unique(bucket):
            at = np.nonzero(bucket == b)[0]
            k = int(width[at].max())
            step = max(1, CHUNK // k)
            for begin in range(0, len(at), step):
                part = at[begin : begin + step]
                hit, prob = o.padded(rows[part], k)
                after = self._taken(target, phase, s[part][:, None], hit)
                keep = prob > 0.0
                parts.append((np.broadcast_to(part[:, None], prob.shape)[keep], after[keep], prob[keep]))
        ns = len(self.sides[target].keys)  # `_taken` may have met new states
        key, prob = _merge(np.concatenate([p[0] for p in parts]) * ns + np.concatenate([p[1] for p in parts]),
                           np.concatenate([p[2] for p in parts]), len(pair) * ns)
        kernel, state = key // ns, key % ns  # grouped by kernel, states in increasing order
        length = np.bincount(kernel, minlength=len(pair))
        same = state == s[kernel]
        kernels.add(state, prob, length, np.bincount(kernel[same], weights=prob[same], minlength=len(pair)))
        table = kernels.table.fit(ns, o.count + 1)
        table[s, col] = np.arange(len(pair)) + kernels.kernels - len(pair)
        return kernels

    def _round(self, I: "np.ndarray", J: "np.ndarray", W: "np.ndarray", work: _Work
               ) -> tuple["np.ndarray", "np.ndarray", "np.ndarray", "np.ndarray", "np.ndarray"]:
        """One round from the pairs (I[n], J[n]) with weights W[n], all at once: the pairs reached
        (i, j, weight; a pair may come more than once) and the ends reached (end index, weight).
        A dice phase is two half steps (`_volleys_taken`); after it, pairs that meet are merged."""
        import numpy as np

        end_index: list[np.ndarray] = []
        end_weight: list[np.ndarray] = []
        i, j, w = I, J, W
        for phase in self.steps:
            if not len(i):
                break
            parts: list[tuple[np.ndarray, np.ndarray, int]] = []  # pairs reached as i * nd + j, weights, nd
            merged = False

            def reached(codes: np.ndarray, w: np.ndarray) -> None:
                """Pairs and ends by code (`_tail`), sorted apart."""
                done = codes < UNKNOWN
                if done.any():
                    end_index.append(-codes[done] - 2)
                    end_weight.append(w[done])
                    codes, w = codes[~done], w[~done]
                parts.append((codes, w, STRIDE))

            if phase not in DICE_PHASES:
                reached(self._tail(phase, i, j), w)
            else:
                va, vd = self._volleys(phase, i, j)
                quiet = (va == NO_VOLLEY) & (vd == NO_VOLLEY)
                if quiet.any():
                    reached(self._tail(phase, i[quiet], j[quiet]), w[quiet])
                loud = np.nonzero(~quiet)[0]
                if len(loud):
                    key, w2, nd = self._volleys_taken(phase, i[loud], j[loud], w[loud], va[loud], vd[loud], work)
                    if phase == "surprise":
                        reached(self._tail("after-surprise", key // nd, key % nd), w2)
                    else:
                        parts.append((key, w2, nd))
                        merged = not quiet.any()  # the volleys' pairs come merged (`_fire_merged`)
            nd = len(self.sides["defender"].keys)  # after every state the phase met
            key = np.concatenate([k if base == nd else k // base * nd + k % base for k, _, base in parts])
            w = np.concatenate([p[1] for p in parts])
            if phase in DICE_PHASES and not merged:  # pairs that meet again go on as one
                key, w = _merge(key, w, len(self.sides["attacker"].keys) * nd)
            i, j = key // nd, key % nd
        e = np.concatenate(end_index) if end_index else np.zeros(0, dtype=np.int64)
        ew = np.concatenate(end_weight) if end_weight else np.zeros(0)
        return i, j, w, e, ew

    def _volleys_taken(self, phase: str, i: "np.ndarray", j: "np.ndarray", w: "np.ndarray", va: "np.ndarray",
                       vd: "np.ndarray", work: _Work) -> tuple["np.ndarray", "np.ndarray", int]:
        """Both volleys of a dice phase from the pairs (i, j) with weights w (`va`, `vd`: the
        volleys): the attacker's outcomes first, then the defender's outcomes from each of them
        (the volleys are simultaneous: each pair's results are its two kernels' products).  The
        pairs reached as i * nd + j, each once and in increasing order, with their weights, and
        nd.  (Merging the pairs between the two half steps cost more than it saved on issue
        19's fleets, where few meet again with the same defender's volley: they are merged only
        where the defender's kernels are short, SHORT_KERNELS.)"""
        import numpy as np

        attack = self._kernels("attacker", phase, va, j)
        defend = self._kernels("defender", phase, vd, i)
        nd = len(self.sides["defender"].keys)
        kid_a, kid = attack.table.a[j, va + 1], defend.table.a[i, vd + 1]
        results = int(defend.length[kid] @ attack.length[kid_a])
        work.add(results // self.OUTCOMES_PER_UNIT)
        if results < SHORT_KERNELS * int(attack.length[kid_a].sum()):
            # short kernels: a result costs little beside a row, so rows that meet go on as one
            length, j1, w1 = self._expand(attack, kid_a, w, work)
            key, w1 = _merge(np.repeat(kid * nd, length) + j1, w1, defend.kernels * nd)
            kid, j1 = key // nd, key % nd
            width, row = defend.rows(kid)
            order = np.argsort(width.astype(np.uint8), kind="stable")  # a radix sort of small numbers
            width, row, w1, j1 = width[order], row[order], w1[order], j1[order]
        else:
            # the pairs by the width class of the defender's kernel (`_fire_merged`), each class's in
            # the order they come, then the attacker's results of each: rows come so grouped
            width, row = defend.rows(kid)
            order = np.argsort(width.astype(np.uint8), kind="stable")
            length, j1, w1 = self._expand(attack, kid_a[order], w[order], work)
            width, row = np.repeat(width[order], length), np.repeat(row[order], length)
        key, w2 = self._fire_merged(defend, width, row, w1, nd, j1, len(self.sides["attacker"].keys) * nd)
        return key, w2, nd

    def _fire_merged(self, kernels: _Kernels, width: "np.ndarray", row: "np.ndarray", W: "np.ndarray", times: int,
                     plus: "np.ndarray", space: int) -> tuple["np.ndarray", "np.ndarray"]:
        """Each input n's volley at its target, as padded row row[n] of width class width[n]
        (`_Kernels.rows`; the inputs grouped by class, in increasing order), with weight W[n]: the
        results coded as the target's state * times + plus[n] (in range(space)), each once, in
        increasing order, with their weights.  Each batch of rows makes its keys and weights in
        place and adds them up at once, while they are in the cache: a half step costs a few
        passes over its results, not a dozen."""
        import numpy as np

        count = np.bincount(width)
        entries = int(count @ np.asarray(PADDED_WIDTHS[: len(count)]))
        total = np.zeros(space) if space <= max(1 << 16, 4 * entries) else None  # else sorted (`_merge`)
        keys: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        end = np.cumsum(count).tolist()
        for w in np.flatnonzero(count).tolist():
            states, probs = kernels.padded[w]
            step = max(1, HOT_CHUNK // PADDED_WIDTHS[w])
            for begin in range(end[w] - int(count[w]), end[w], step):
                part = slice(begin, min(begin + step, end[w]))
                key = states[row[part]] * times
                key += plus[part, None]
                weight = probs[row[part]]
                weight *= W[part, None]
                if total is not None:
                    np.add.at(total, key.ravel(), weight.ravel())  # in order: the same sums everywhere
                else:
                    keys.append(key.ravel())
                    weights.append(weight.ravel())
        if total is None:
            key, weight = _merge(np.concatenate(keys), np.concatenate(weights), space)
            keep = weight > 0.0  # a padded entry: nothing reached
            return key[keep], weight[keep]
        key = np.flatnonzero(total)
        return key, total[key]

    def _stay(self, I: "np.ndarray", J: "np.ndarray", work: _Work) -> "np.ndarray":
        """The chance that a round from each pair ends where it began: no volley of the round
        changes anything (its outcomes that hit nothing), and no phase without dice either."""
        import numpy as np

        code = I * STRIDE + J
        stay = np.ones(len(I))
        for phase in self.steps:
            if phase not in DICE_PHASES:
                stay *= self._tail(phase, I, J) == code
                continue
            va, vd = self._volleys(phase, I, J)
            quiet = (va == NO_VOLLEY) & (vd == NO_VOLLEY)
            if quiet.any():
                stay[quiet] *= self._tail(phase, I[quiet], J[quiet]) == code[quiet]
            loud = np.nonzero(~quiet)[0]
            if len(loud):
                for side, v, S in (("attacker", va[loud], J[loud]), ("defender", vd[loud], I[loud])):
                    kernels = self._kernels(side, phase, v, S)
                    stay[loud] *= kernels.unchanged[kernels.table.a[S, v + 1]]
                if phase == "surprise":
                    stay[loud] *= self._tail("after-surprise", I[loud], J[loud]) == code[loud]
        return stay

    def solve(self, work: _Work) -> tuple[dict[State, float], float, int]:
        import numpy as np

        self.work = work
        A, D = self.sides["attacker"], self.sides["defender"]
        starts = [(A.add(a), D.add(d), m) for (a, d), m in self.entries.items()]
        finals = np.zeros(0)
        rounds = 0.0
        pairs = 0
        if self.early:
            i, j, q, rounds, pairs, finals = self._early(work)
            starts.extend(zip(i.tolist(), j.tolist(), q.tolist()))
        mass = np.zeros((len(A.keys), len(D.keys)))  # pairs waiting for their layer
        for i, j, m in starts:
            mass[i, j] += m
        while True:
            hp = np.asarray(A.hp[: mass.shape[0]])[:, None] + np.asarray(D.hp[: mass.shape[1]])[None, :]
            waiting = mass > 0.0
            if not waiting.any():
                break
            here = hp[waiting].max()  # the layer: a round that changes anything costs hit points
            I, J = np.nonzero(waiting & (hp == here))
            m = mass[I, J]
            mass[I, J] = 0.0
            pairs += len(I)
            stay = self._stay(I, J, work)
            if np.any(stay >= 1.0 - 1e-15):
                raise RuntimeError("a battle state cannot progress")  # the engine ends such battles
            scale = m / (1.0 - stay)  # the rounds that change nothing, summed in closed form
            rounds += float(scale.sum())
            i, j, q, e_index, e_q = self._round(I, J, scale, work)
            if len(e_index):
                add = np.bincount(e_index, weights=e_q, minlength=len(self.finals))
                finals = np.concatenate([finals, np.zeros(len(add) - len(finals))]) + add
            na, nd = len(A.keys), len(D.keys)
            if mass.shape != (na, nd):
                grown = np.zeros((na, nd))
                grown[: mass.shape[0], : mass.shape[1]] = mass
                mass = grown
            flow = np.bincount(i * nd + j, weights=q, minlength=na * nd).reshape(na, nd)
            # the rounds that changed nothing came back to their own pair, and only they
            back = flow[I, J]
            if np.any(np.abs(back - scale * stay) > 1e-9 * scale * stay + 1e-15 * scale):
                raise AssertionError("a sea round came back to its pair other than by changing nothing")
            flow[I, J] = 0.0
            lower = np.asarray(A.hp)[:, None] + np.asarray(D.hp)[None, :]
            if (lower[flow > 0.0] >= here).any():
                raise AssertionError("a sea round changed the battle without a hit")
            mass += flow
        out = {self.finals[k]: float(p) for k, p in enumerate(finals) if p}
        return out, rounds, pairs

    def _early(self, work: _Work) -> tuple["np.ndarray", "np.ndarray", "np.ndarray", float, int, "np.ndarray"]:
        """The rounds from `first_round` up to the steady ones, which differ from them only in that
        the attacker does not retreat yet (an order to retreat after round N): each played once
        from every pair it meets (`_round`), its phases without dice asked as that round's.
        Returns the pairs that fight on into the steady rounds (i, j, mass), the rounds played
        (expected), the pairs played and the chance of each end reached (by end index)."""
        import numpy as np

        A, D = self.sides["attacker"], self.sides["defender"]
        steady = self.engine.steady_round
        rnd = min(self.early)
        code, weight = np.zeros(0, dtype=np.int64), np.zeros(0)
        ends: list[np.ndarray] = []
        end_weights: list[np.ndarray] = []
        rounds, pairs = 0.0, 0
        try:
            while rnd < steady:
                entering = self.early.pop(rnd, {})
                code = np.concatenate([code, np.array([A.add(a) * STRIDE + D.add(d) for a, d in entering], dtype=np.int64)])
                weight = np.concatenate([weight, np.array(list(entering.values()))])
                code, inverse = np.unique(code, return_inverse=True)  # a pair reached more than once plays once
                weight = np.bincount(inverse.reshape(-1), weights=weight, minlength=len(code))
                rounds += float(weight.sum())
                pairs += len(code)
                self.round = rnd
                i, j, weight, e, ew = self._round(code // STRIDE, code % STRIDE, weight, work)
                code = i * STRIDE + j
                ends.append(e)
                end_weights.append(ew)
                rnd += 1
        finally:
            self.round = steady
        e = np.concatenate(ends)
        finals = np.bincount(e, weights=np.concatenate(end_weights), minlength=len(self.finals)) if len(e) else np.zeros(0)
        return code // STRIDE, code % STRIDE, weight, rounds, pairs, finals

    # the sample past the budget ----------------------------------------------------
    def sample(self, start: State, seed: int, most: int, fewest: int, budget: int | None
               ) -> tuple[dict[State, float], float, int]:
        """The battle from `start` (round 1: every round is one the tables play) played up to
        `most` times through the same tables, which the exact attempt has mostly filled: each
        volley's outcome drawn from its exact distribution; before a retreat after round N, each
        round's own end phase.  The uniform numbers come from PCG64's bit stream (stable across
        NumPy versions and machines) turned into doubles here, so audit draws the same sample.  The
        battles are played in batches, all of a batch at once: `fewest` first, then as many again
        as have been played, until the work units spent pass `budget` (questions to the engine as
        in the exact attempt, a phase `PHASE_UNITS` plus its battles).  Returns the ends, each
        1/played, the expected rounds and the battles played."""
        import numpy as np

        work = self.work = _Work(None)  # the exact attempt's budget is spent: the sample counts its own
        bits = np.random.PCG64(seed)

        def uniform(k: int) -> np.ndarray:
            return (bits.random_raw(k) >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)

        ends: list[np.ndarray] = []
        lasts: list[np.ndarray] = []
        played = 0
        while played < most and not (played >= fewest and budget is not None and work.spent > budget):
            n = min(max(fewest, played), most - played)
            end, last = self._play(start, n, uniform, work)
            ends.append(end)
            lasts.append(last)
            played += n
        end, last = np.concatenate(ends), np.concatenate(lasts)
        finals: dict[State, float] = {}
        rounds = 0.0
        for k in range(played):  # in sample order, as the general sample adds them
            st = self.finals[int(end[k])]
            finals[st] = finals.get(st, 0.0) + 1.0 / played
            rounds += int(last[k]) / played
        return finals, rounds, played

    def _play(self, start: State, n: int, uniform: "Callable[[int], np.ndarray]", work: _Work
              ) -> tuple["np.ndarray", "np.ndarray"]:
        """`n` battles from `start` played at once: the index of each one's end, and its last round."""
        import numpy as np

        A, D = self.sides["attacker"], self.sides["defender"]
        i = np.full(n, A.add((start.a, start.a_pending, start.a_submerged)), dtype=np.int64)
        j = np.full(n, D.add((start.d, start.d_pending, start.d_submerged)), dtype=np.int64)
        which = np.arange(n)  # the samples still fighting
        end = np.full(n, -1, dtype=np.int64)
        last = np.zeros(n, dtype=np.int64)
        rnd, steady = start.round, self.engine.steady_round
        while len(which):
            if rnd > 10_000:
                raise RuntimeError("a sampled battle did not end")
            self.round = min(rnd, steady)  # before a retreat after round N, each round's own end phase
            for phase in self.steps:
                if not len(which):
                    break
                work.spent += self.PHASE_UNITS + len(which) // self.OUTCOMES_PER_UNIT
                if phase in DICE_PHASES:
                    va, vd = self._volleys(phase, i, j)
                    new_i, new_j = i.copy(), j.copy()
                    for side, v, here, out in (("attacker", va, j, new_j), ("defender", vd, i, new_i)):
                        o = self.outcomes[side]
                        loud = np.nonzero(v != NO_VOLLEY)[0]
                        if not len(loud):
                            continue
                        target = "defender" if side == "attacker" else "attacker"
                        out[loud] = self._taken(target, phase, here[loud], o.draw(v[loud], uniform(len(loud))))
                    codes = new_i * STRIDE + new_j
                    quiet = (va == NO_VOLLEY) & (vd == NO_VOLLEY)
                    if quiet.any():
                        codes[quiet] = self._tail(phase, i[quiet], j[quiet])
                    if phase == "surprise" and (~quiet).any():
                        codes[~quiet] = self._tail("after-surprise", codes[~quiet] // STRIDE, codes[~quiet] % STRIDE)
                else:
                    codes = self._tail(phase, i, j)
                done = codes < UNKNOWN
                if done.any():
                    end[which[done]] = -codes[done] - 2
                    last[which[done]] = rnd
                    keep = ~done
                    which, codes = which[keep], codes[keep]
                i, j = codes // STRIDE, codes % STRIDE
            rnd += 1
        self.round = steady
        return end, last
