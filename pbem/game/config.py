"""game.yaml: a game's settings (ruleset and its hash, players, options, dice anchor, hosting)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.engine.problems import ProblemsError
from pbem.game.layout import GAME_FILE


@dataclass(frozen=True)
class GameConfig:
    game: str
    ruleset: str
    ruleset_hash: str
    engine: str
    players: Mapping[str, str]
    options: Mapping[str, Any]
    dice: Mapping[str, Any]
    identity: Mapping[str, str] = field(default_factory=dict)
    # Hosting settings read by the gateways (deadlines, missing-orders policy, reminders, mail).
    hosting: Mapping[str, Any] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "ruleset": self.ruleset,
            "ruleset_hash": self.ruleset_hash,
            "engine": self.engine,
            "players": dict(self.players),
            "options": dict(self.options),
            "dice": dict(self.dice),
        }
        if self.identity:
            data["identity"] = dict(self.identity)
        if self.hosting:
            data["hosting"] = dict(self.hosting)
        return data


def read_config(text: bytes | str, filename: str = GAME_FILE) -> GameConfig:
    from pbem.io.schemas import check
    from pbem.io.yamlfile import load_yaml

    doc = load_yaml(text, filename, expect_mapping=True)
    problems = check("game", doc.data)
    if problems:
        raise ProblemsError([doc.problem(p) for p in problems])
    d = doc.data
    return GameConfig(d["game"], d["ruleset"], d["ruleset_hash"], d["engine"], d["players"], d["options"], d["dice"],
                      d.get("identity") or {}, d.get("hosting") or {})


def dump_config(config: GameConfig) -> str:
    from pbem.io.yamlfile import dump_yaml

    return "# pbem game settings.  The dice anchor commits the adjudicator to every future die.\n" + dump_yaml(config.to_data())


ODDS_SECONDS_MAX = 60.0


def odds_seconds(hosting: Mapping[str, Any]) -> float | None:
    """game.yaml hosting.odds_seconds: how long the odds of one battle may be computed exactly in
    `validate`, the reports and audit before they are sampled (None: the default, about a quarter
    of a second).  Counted in work, not by a clock, so audit reproduces every figure.  ValueError
    names what is wrong."""
    value = hosting.get("odds_seconds")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= ODDS_SECONDS_MAX:
        raise ValueError(f"hosting.odds_seconds is {value!r}; give a number of seconds above 0 and at most "
                         f"{ODDS_SECONDS_MAX:g}, e.g. 0.25")
    return float(value)
