"""Where things are in a game repository, and the error a game reports: shared by every module of
`pbem.game`, so none of them needs to import the use cases in `game.py` back."""

from __future__ import annotations

import re

from pbem.engine.model import GameState
from pbem.engine.ruleset import Ruleset

GAME_FILE = "game.yaml"
STATE_FILE = "state.yaml"


class GameError(Exception):
    """A user-facing error about the game as a whole (not a file's contents)."""


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def orders_path(state: GameState, ruleset: Ruleset) -> str:
    power = ruleset.powers[state.turn_index].name
    return f"orders/round-{state.round:02d}/{state.turn_index + 1}-{slug(power)}.yaml"


def report_path(round_: int, turn_index: int, power: str, ext: str) -> str:
    return f"reports/round-{round_:02d}/{turn_index + 1}-{slug(power)}.{ext}"


def standing_path(power: str) -> str:
    return f"standing/{slug(power)}.yaml"
