"""Commit-reveal by the opponents, for games where the dice holder also plays.

Each power keeps a hash chain of its own (secret on its player's machine, anchor in
`dice/<power>.yaml`).  After the mover's orders are committed, every enemy power reveals its next
link in a commit of its own (`pbem ack`); the turn's dice combine the holder's link with those
links, so neither the holder nor any single player can foresee them.  Once an opponent has revealed
for a turn, the mover's orders and every power's standing orders are locked until the adjudication:
they could otherwise be tried against known links.  Each reveal also records the *seal*, a hash of
the orders and all standing orders it was made for; adjudication refuses, and `pbem audit` reports,
a turn whose orders or standing orders no longer match the seal of any reveal it uses, so a host
who rewrites them behind pbem's back (plain git) is caught.
A power that has not revealed by the deadline gets the public stand-in link of `pbem.dice`
(`withheld_link`), which it could compute no better than anyone else: withholding never helps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from pbem import dice
from pbem.engine.model import GameState
from pbem.engine.ruleset import Ruleset
from pbem.engine.words import possessive
from pbem.game.config import GameConfig
from pbem.game.layout import GameError, orders_path, slug, standing_path


class Game(Protocol):
    """What commit-reveal needs of an open game; `pbem.game.game.Game` provides it (and calls this
    module: naming the need here keeps that dependency one way)."""

    path: Path
    config: GameConfig
    ruleset: Ruleset
    repo: Any  # pbem.game.repo.GameRepo

    def state(self, ref: str | None = None) -> GameState: ...

    def power_to_move(self, state: GameState) -> str: ...

    def submitted_orders(self, state: GameState) -> Any: ...

    def signs_commits(self) -> bool: ...


def chain_path(power: str) -> str:

    return f"dice/{slug(power)}.yaml"


def key_name(game: Game, power: str) -> str:

    return f"{game.config.game}.{slug(power)}"


def read_chain(game: Game, power: str, ref: str | None = None) -> dict[str, Any] | None:
    from pbem.io.yamlfile import load_yaml

    raw = game.repo.read(chain_path(power), ref)
    if raw is None:
        return None
    data = load_yaml(raw, chain_path(power), expect_mapping=True).data
    data.setdefault("reveals", [])
    return data


def _write(game: Game, power: str, data: dict[str, Any], message: str, trailers: dict[str, str]) -> str:
    from pbem.io.yamlfile import dump_yaml

    text = "# The dice chain of one power: its anchor and the links it has revealed (pbem ack).\n" + dump_yaml(data)
    return game.repo.commit({chain_path(power): text.encode()}, message, trailers, sign=game.signs_commits())


def register(game: Game, power: str, key_dir: Path | None = None) -> str:
    """Draw this power's secret, keep it outside the repository, publish its chain's anchor."""
    from pbem.game.dicekeys import save_secret

    power = game.ruleset.power(power).name
    if read_chain(game, power) is not None:
        raise GameError(f"{power} already has a dice chain in this game")
    secret = dice.new_secret()
    length = dice.DEFAULT_CHAIN_LENGTH
    data = {"power": power, "anchor": dice.anchor(secret, length), "chain_length": length, "reveals": []}
    save_secret(key_name(game, power), secret, key_dir, game_repo=game.path, anchor=data["anchor"])
    return _write(game, power, data, f"Dice chain of {power}", {"Power": power, "Phase": "dice-chain"})


def reveal(game: Game, power: str, key_dir: Path | None = None) -> str:
    """Reveal `power`'s next link for the turn whose orders are committed and await adjudication."""
    from pbem.game.dicekeys import load_secret

    power = game.ruleset.power(power).name
    state = game.state()
    mover = game.power_to_move(state)
    if power not in game.ruleset.enemies(mover):
        raise GameError(f"{power} is not an opponent of {mover}: only opponents reveal for a turn")
    if game.submitted_orders(state) is None:
        raise GameError(f"{mover} has not submitted orders for round {state.round}: reveal after the orders are committed")
    chain = read_chain(game, power)
    if chain is None:
        raise GameError(f"{power} has no dice chain: run `pbem ack --init --power \"{power}\"` first")
    if any(r["round"] == state.round and r["for"] == mover for r in chain["reveals"]):
        raise GameError(f"{power} has already revealed its link for {possessive(mover)} turn of round {state.round}")
    index = len(chain["reveals"]) + 1
    secret = load_secret(key_name(game, power), key_dir, anchor=chain["anchor"], chain_length=chain["chain_length"])
    link = dice.link_at(secret, int(chain["chain_length"]), index)
    chain["reveals"].append({"round": state.round, "for": mover, "index": index, "link": link,
                             "seal": seal(game, state.round, mover)})
    return _write(game, power, chain, f"{power} reveals its dice link for {mover}, round {state.round}",
                  {"Round": str(state.round), "Power": power, "Phase": "reveal", "Dice-Link": link})


def seal(game: Game, round_: int, mover: str, ref: str | None = None) -> str:
    """The hash of what a reveal is made for: the mover's orders for the turn and every power's
    standing orders, as committed at `ref`."""

    state = game.state(ref)
    if state.round != round_ or game.power_to_move(state) != mover:
        raise ValueError(f"the game is not at {possessive(mover)} turn of round {round_}")
    orders = game.repo.read(orders_path(state, game.ruleset), ref)
    lines = ["pbem-seal-v1", f"orders {dice.sha256_hex(orders) if orders is not None else 'none'}"]
    for p in sorted(x.name for x in game.ruleset.powers):
        text = game.repo.read(standing_path(p), ref)
        lines.append(f"standing {p} {dice.sha256_hex(text) if text is not None else 'none'}")
    return dice.sha256_hex(("\n".join(lines) + "\n").encode())


def check_seals(game: Game, round_: int, mover: str, ref: str | None = None) -> None:
    """Refuse a turn whose orders or standing orders changed after an opponent revealed for it."""

    now = seal(game, round_, mover, ref)
    for power in game.ruleset.enemies(mover):
        chain = read_chain(game, power, ref)
        for r in (chain or {}).get("reveals", []):
            if r["round"] != round_ or r["for"] != mover:
                continue
            sealed = r.get("seal")
            if sealed != now:
                what = (f"for orders and standing orders that have changed since (sealed {str(sealed)[:12]}, now {now[:12]})"
                        if sealed else "without a seal of the orders it was made for")
                raise GameError(f"{power} revealed its dice link for {possessive_of(mover)} turn of round {round_} {what}: "
                                "the orders or standing orders were changed after the dice could be known; restore them as "
                                "they were at the reveal (git log -- orders standing) before adjudicating")


def possessive_of(name: str) -> str:
    return possessive(name)


def revealed_for_turn(game: Game, round_: int, mover: str, ref: str | None = None) -> dict[str, str | None]:
    """Opponent -> the link it revealed for this turn (None if not yet), for opponents with a chain."""
    out: dict[str, str | None] = {}
    for power in game.ruleset.enemies(mover):
        chain = read_chain(game, power, ref)
        if chain is None:
            continue
        found = [r["link"] for r in chain["reveals"] if r["round"] == round_ and r["for"] == mover]
        out[power] = found[0] if found else None
    return out


def opponent_links(game: Game, round_: int, mover: str, orders_hash: str, *, deadline_passed: bool,
                   ref: str | None = None) -> dice.Opponents:
    """The opponents' links for the turn; missing ones refuse the turn until the deadline has passed."""

    revealed = revealed_for_turn(game, round_, mover, ref)
    missing = sorted(p for p, link in revealed.items() if link is None)
    if missing and not deadline_passed:
        raise GameError("waiting for dice reveals from " + ", ".join(missing) +
                        " (each runs `pbem ack`); after the deadline, `pbem adjudicate --deadline-passed` substitutes them")
    published: dict[str, str] = {}
    steps: dict[str, int] = {}
    for power in revealed:
        chain = read_chain(game, power, ref)
        assert chain is not None
        earlier = [r for r in chain["reveals"] if not (r["round"] == round_ and r["for"] == mover)]
        published[power] = earlier[-1]["link"] if earlier else chain["anchor"]
        mine = [r for r in chain["reveals"] if r["round"] == round_ and r["for"] == mover]
        steps[power] = mine[0]["index"] - (earlier[-1]["index"] if earlier else 0) if mine else 1
    return dice.resolve_opponents(revealed, published, orders_hash, steps)


def encode(opponents: dice.Opponents) -> str:
    """The trailer that records which links went into the dice, so `pbem audit` can recompute them."""
    return ";".join(f"{p}={opponents.substituted.get(p, 'revealed')}:{link}" for p, link in sorted(opponents.links.items()))


def decode(trailer: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in filter(None, trailer.split(";")):
        power, rest = part.split("=", 1)
        out[power] = rest.split(":", 1)[1]
    return out
