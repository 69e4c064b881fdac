"""Dice that neither the mover nor the dice holder can choose or foresee (algorithm pbem-dice-v1).

A turn's dice come from a *seed* that mixes three things, none of which one party controls alone:

* the dice holder's next hash-chain link, fixed in advance by the anchor published in `game.yaml`
  and unknown to everyone else until the adjudication reveals it;
* the hash of the pre-turn state and the hash of the committed orders, so the mover cannot try
  orders against known dice and the holder cannot pick a seed after reading the orders;
* optionally, the links of the opponents' own chains (commit-reveal), for games where the
  holder also plays.

From the seed, each battle step reads its own *labelled stream* (for instance
`battle/Ukraine/round-2/attacker`), so the order battles are resolved in, or an unrelated change
to another battle, never shifts anyone else's dice.  Bytes become d6 faces by rejection sampling
(bytes 252..255 are dropped) so every face has probability exactly 1/6.

`docs/dice.md` specifies every byte so that anyone can re-implement and audit it.  Only
`new_secret` draws randomness; everything else here is a pure function of its arguments.
"""

import hashlib
import hmac
import struct
from dataclasses import dataclass
from typing import Iterable, Mapping, Protocol, Sequence

ALGORITHM = "pbem-dice-v1"

MODE_COMMITTED = "committed"
MODE_LOCAL = "local"
MODE_FIXED = "fixed"

# What a report prints next to the dice, so nobody mistakes friendly dice for audited ones.
MODE_DESCRIPTIONS: Mapping[str, str] = {
    MODE_COMMITTED: "committed hash chain: dice fixed before the orders, revealed after them",
    MODE_LOCAL: "local fixed seed: reproducible, but anyone knowing the seed text can foresee the dice",
    MODE_FIXED: "fixed dice for tests: values were written out by hand",
}

SECRET_BYTES = 32
MIN_SECRET_BYTES = 16
DEFAULT_CHAIN_LENGTH = 1000  # adjudications one chain can serve; far more than a long game needs

_CHAIN_TAG = b"pbem-dice-v1/chain\x00"
_TURN_TAG = b"pbem-dice-v1/turn\x00"
_STREAM_TAG = b"pbem-dice-v1/stream\x00"
_LOCAL_TAG = b"pbem-dice-v1/local\x00"
_WITHHELD_TAG = b"pbem-dice-v1/withheld\x00"

_REJECT_FROM = 252  # 252 = 42 * 6: bytes 0..251 map evenly onto six faces, 252..255 are dropped


class DiceError(Exception):
    """Base for every dice failure, so callers can report them together."""


class DiceExhausted(DiceError):
    """A `FixedDice` label ran out: the test wrote fewer dice than the engine rolled."""


# --------------------------------------------------------------------------------------------
# hashing and hash chains


def sha256_hex(data: bytes) -> str:
    """Lowercase hex SHA-256: the one spelling of every hash pbem publishes."""
    return hashlib.sha256(data).hexdigest()


def _raw32(what: str, value: str) -> bytes:
    """Decode a 64-hex-digit hash; reject anything else loudly, as it is never a valid input."""
    if not isinstance(value, str) or len(value) != 64:
        raise ValueError(f"{what} must be 64 hex digits (a SHA-256), got {value!r}")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ValueError(f"{what} must be 64 hex digits (a SHA-256), got {value!r}") from None


def _is_hash(value: object) -> bool:
    if not isinstance(value, str) or len(value) != 64:
        return False
    try:
        bytes.fromhex(value)
    except ValueError:
        return False
    return True


def _check_secret(secret: bytes) -> None:
    if not isinstance(secret, (bytes, bytearray)) or len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"a dice secret must be at least {MIN_SECRET_BYTES} bytes")


def _next_link(link: bytes) -> bytes:
    return hashlib.sha256(link).digest()


def make_chain(secret: bytes, length: int) -> list[str]:
    """The whole chain, deepest link first; `chain[-1]` is the anchor published at game creation.

    `length` is how many adjudications the chain can serve, so the list holds `length + 1`
    links: `chain[length - i]` is revealed at adjudication `i` and hashes to `chain[length - i + 1]`.
    """
    _check_secret(secret)
    if length < 1:
        raise ValueError("a chain must serve at least one adjudication")
    link = hashlib.sha256(_CHAIN_TAG + bytes(secret)).digest()
    chain = [link.hex()]
    for _ in range(length):
        link = _next_link(link)
        chain.append(link.hex())
    return chain


def anchor(secret: bytes, length: int) -> str:
    """The public end of the chain: what `game.yaml` records at creation."""
    return link_at(secret, length, 0)


def link_at(secret: bytes, length: int, index: int) -> str:
    """The link revealed at adjudication `index` (1-based); index 0 is the anchor.

    `hash(link_at(i)) == link_at(i - 1)`, so each reveal is checked against the one before.
    """
    _check_secret(secret)
    if length < 1:
        raise ValueError("a chain must serve at least one adjudication")
    if index < 0:
        raise ValueError("link index must be 0 (the anchor) or a 1-based adjudication number")
    if index > length:
        raise DiceError(
            f"the dice chain is used up: it serves {length} adjudications and #{index} was asked; "
            "start a new chain (new secret, new anchor agreed by all players)"
        )
    link = hashlib.sha256(_CHAIN_TAG + bytes(secret)).digest()
    for _ in range(length - index):
        link = _next_link(link)
    return link.hex()


def verify_link(link: str, previous: str, steps: int = 1) -> bool:
    """True if hashing `link` `steps` times gives `previous` (the last published link or anchor).

    `steps > 1` checks a reveal after skipped adjudications (a withheld opponent link).
    Malformed input is simply not a valid link, so it returns False rather than raising.
    """
    if steps < 1 or not _is_hash(link) or not _is_hash(previous):
        return False
    raw = bytes.fromhex(link)
    for _ in range(steps):
        raw = _next_link(raw)
    return hmac.compare_digest(raw, bytes.fromhex(previous))


def verify_secret(secret: bytes, anchor_hex: str, length: int) -> bool:
    """True if `secret` is the one behind the published anchor: catches a wrong key file early."""
    try:
        return hmac.compare_digest(link_at(secret, length, 0), anchor_hex.lower())
    except ValueError:
        return False


def verify_reveals(anchor_hex: str, revealed: Sequence[str | None]) -> int | None:
    """Audit a chain's reveals in adjudication order; return the first bad 1-based index or None.

    `None` entries are adjudications where this chain's link was not revealed; the next link
    given must then hash to the last good one in as many steps as adjudications passed.
    """
    last = anchor_hex
    steps = 0
    for index, link in enumerate(revealed, start=1):
        steps += 1
        if link is None:
            continue
        if not verify_link(link, last, steps):
            return index
        last = link
        steps = 0
    return None


def new_secret() -> bytes:
    """A fresh secret from the operating system: the only randomness anywhere in pbem."""
    import secrets  # imported here so the rest of the module is visibly free of randomness

    return secrets.token_bytes(SECRET_BYTES)


# --------------------------------------------------------------------------------------------
# seeds


def withheld_link(power: str, orders_hash: str) -> str:
    """The public stand-in for an opponent link not revealed by the deadline (see docs/dice.md)."""
    name = _power_bytes(power)
    return sha256_hex(_WITHHELD_TAG + name + b"\x00" + _raw32("orders hash", orders_hash))


def _power_bytes(power: str) -> bytes:
    name = power.encode("utf-8")
    if not name or len(name) > 0xFFFF or b"\x00" in name:
        raise ValueError(f"power name {power!r} must be 1..65535 UTF-8 bytes without NUL")
    return name


def turn_seed(
    link: str, state_hash: str, orders_hash: str, extra_links: Mapping[str, str] = {}
) -> bytes:
    """The turn's seed (`combine` in docs/dice.md): HMAC keyed by the holder's link.

    `extra_links` maps opponent powers to their revealed (or `withheld_link`) links; their
    order does not matter because they are encoded sorted by UTF-8 name.
    """
    key = _raw32("holder link", link)
    parts = [_TURN_TAG, _raw32("state hash", state_hash), _raw32("orders hash", orders_hash)]
    entries = sorted((_power_bytes(p), _raw32(f"link of {p}", v)) for p, v in extra_links.items())
    parts.append(struct.pack(">I", len(entries)))
    for name, raw in entries:
        parts.append(struct.pack(">H", len(name)) + name + raw)
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


def local_seed(text: str) -> bytes:
    """A seed from plain text for tests, examples and friendly games; anyone can foresee it."""
    return hashlib.sha256(_LOCAL_TAG + text.encode("utf-8")).digest()


@dataclass(frozen=True)
class Opponents:
    """The opponents' links as used for one turn, and who had a public stand-in instead.

    `substituted` maps each such power to why: "withheld" (no reveal by the deadline) or
    "invalid" (a reveal that does not hash to that power's last published link).
    """

    links: Mapping[str, str]
    substituted: Mapping[str, str]


def resolve_opponents(
    revealed: Mapping[str, str | None],
    published: Mapping[str, str],
    orders_hash: str,
    steps: Mapping[str, int] | None = None,
) -> Opponents:
    """Check each opponent's reveal against its last published link, substituting where needed.

    `published[p]` is power p's anchor or last accepted link; `steps[p]` (default 1) counts the
    adjudications since then.  A bad reveal counts as withheld, so lying is never better than
    silence, and silence is never better than revealing (argued in docs/dice.md).
    """
    unknown = sorted(set(revealed) - set(published))
    if unknown:
        raise ValueError(f"links revealed by powers without a published chain: {', '.join(unknown)}")
    links: dict[str, str] = {}
    substituted: dict[str, str] = {}
    for power in sorted(published):
        link = revealed.get(power)
        n = 1 if steps is None else steps.get(power, 1)
        if link is not None and verify_link(link, published[power], n):
            links[power] = link.lower()
            continue
        substituted[power] = "withheld" if link is None else "invalid"
        links[power] = withheld_link(power, orders_hash)
    return Opponents(links=links, substituted=substituted)


# --------------------------------------------------------------------------------------------
# streams and dice


def dice_from_bytes(data: bytes) -> tuple[int, ...]:
    """Map bytes to d6 faces by rejection: 0..251 give `b % 6 + 1`, 252..255 give nothing."""
    return tuple(b % 6 + 1 for b in data if b < _REJECT_FROM)


def _check_label(label: str) -> bytes:
    raw = label.encode("utf-8") if isinstance(label, str) else b""
    if not raw or b"\x00" in raw:
        raise ValueError(f"a dice label must be a non-empty string without NUL, got {label!r}")
    return raw


def stream_block(seed: bytes, label: str, counter: int) -> bytes:
    """Block `counter` (0, 1, ...) of a label's stream: 32 bytes before rejection."""
    msg = _STREAM_TAG + _check_label(label) + b"\x00" + struct.pack(">Q", counter)
    return hmac.new(seed, msg, hashlib.sha256).digest()


def stream_label(*parts: str | int) -> str:
    """Join label parts with '/', refusing parts that would make two labels collide."""
    texts = [str(p) for p in parts]
    for text in texts:
        if not text or "/" in text or "\x00" in text:
            raise ValueError(f"label part {text!r} must be non-empty and contain no '/' or NUL")
    return "/".join(texts)


def battle_label(territory: str, round_number: int, side: str) -> str:
    """The conventional label for one side's combat roll, e.g. battle/Ukraine/round-2/attacker."""
    return stream_label("battle", territory, f"round-{round_number}", side)


@dataclass(frozen=True)
class Roll:
    """One call to `roll`: what the reports list and the luck statistics count."""

    label: str
    values: tuple[int, ...]


class DiceSource(Protocol):
    """What the engine rolls with; the shipped sources also keep `.log: list[Roll]`."""

    mode: str

    def roll(self, label: str, count: int) -> tuple[int, ...]:
        """`count` d6 values 1..6; a second call with the same label continues that stream."""
        ...


def _check_count(count: int) -> None:
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise ValueError(f"dice count must be a non-negative integer, got {count!r}")


class SeededDice:
    """Dice read from a seed's labelled streams; the same seed always yields the same dice."""

    def __init__(self, seed: bytes, mode: str = MODE_COMMITTED):
        if not isinstance(seed, (bytes, bytearray)) or len(seed) < MIN_SECRET_BYTES:
            raise ValueError(f"a dice seed must be at least {MIN_SECRET_BYTES} bytes")
        if mode not in MODE_DESCRIPTIONS:
            raise ValueError(f"unknown dice mode {mode!r}; one of {', '.join(MODE_DESCRIPTIONS)}")
        self.seed = bytes(seed)
        self.mode = mode
        self.algorithm = ALGORITHM
        self.log: list[Roll] = []
        # per label: next block counter, and faces already decoded but not yet handed out
        self._streams: dict[str, tuple[int, tuple[int, ...]]] = {}

    def roll(self, label: str, count: int) -> tuple[int, ...]:
        _check_label(label)
        _check_count(count)
        counter, pending = self._streams.get(label, (0, ()))
        while len(pending) < count:
            pending += dice_from_bytes(stream_block(self.seed, label, counter))
            counter += 1
        values, rest = pending[:count], pending[count:]
        self._streams[label] = (counter, rest)
        self.log.append(Roll(label, values))
        return values

    def __repr__(self) -> str:
        return f"SeededDice(mode={self.mode!r}, seed={sha256_hex(self.seed)[:12]}..., rolls={len(self.log)})"


def local_dice(text: str) -> SeededDice:
    """Friendly-game dice from a seed text, marked `local` so reports say so."""
    return SeededDice(local_seed(text), mode=MODE_LOCAL)


class FixedDice:
    """Hand-written dice for tests: per label (`FixedDice({...})`) or one queue (`.sequence`)."""

    mode = MODE_FIXED

    def __init__(self, values: Mapping[str, Iterable[int]]):
        self._queues: dict[str | None, list[int]] = {}
        for label, faces in values.items():
            _check_label(label)
            self._queues[label] = _checked_faces(faces, label)
        self.log: list[Roll] = []

    @classmethod
    def sequence(cls, values: Iterable[int]) -> "FixedDice":
        """Every label draws from one shared queue, in call order."""
        dice = cls({})
        dice._queues[None] = _checked_faces(values, "sequence")
        return dice

    def roll(self, label: str, count: int) -> tuple[int, ...]:
        _check_label(label)
        _check_count(count)
        key: str | None = None if None in self._queues else label
        queue = self._queues.get(key)
        if queue is None:
            raise DiceExhausted(
                f"no fixed dice for label {label!r}; the test provides: {', '.join(map(str, self._queues)) or 'none'}"
            )
        if len(queue) < count:
            where = "the sequence" if key is None else f"label {label!r}"
            raise DiceExhausted(f"{where} has {len(queue)} fixed dice left but {count} were rolled for {label!r}")
        values = tuple(queue[:count])
        del queue[:count]
        self.log.append(Roll(label, values))
        return values

    def remaining(self) -> dict[str, tuple[int, ...]]:
        """Dice written but not rolled, so a test can insist the engine rolled all of them."""
        return {("*" if k is None else k): tuple(v) for k, v in self._queues.items() if v}


def _checked_faces(faces: Iterable[int], where: str) -> list[int]:
    out = list(faces)
    bad = [v for v in out if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6]
    if bad:
        raise ValueError(f"fixed dice for {where} must be 1..6, got {bad}")
    return out
