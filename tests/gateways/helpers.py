"""Games and players shared by the gateway tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.game.game import Game, new_game

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples" / "1942-2e" / "round-01"
ROUND_ONE = ["1-soviet-union.yaml", "2-germany.yaml", "3-united-kingdom.yaml", "4-japan.yaml", "5-united-states.yaml"]
PLAYERS = {
    "Soviet Union": "ivan@players.test",
    "Germany": "anna@players.test",
    "United Kingdom": "winston@players.test",
    "Japan": "kenji@players.test",
    "United States": "frank@players.test",
}


def example(name: str) -> bytes:
    return (EXAMPLES / name).read_bytes()


def make_game(path: Path, *, hosting: dict[str, Any] | None = None, bare: bool = False, game_id: str = "demo",
              ruleset_id: str = "1942-2e", players: dict[str, str] | None = None) -> Game:
    """A local-seed game (the examples say `game: demo`), optionally with hosting settings."""
    game = new_game(path, ruleset_id, PLAYERS if players is None else players, game_id=game_id, dice_mode="local",
                    local_seed="pbem-demo")
    if hosting:
        # hosting settings belong in game.yaml from the first commit; rewrite it before anything else happens
        import subprocess

        from pbem.game.game import dump_config, read_config

        config = read_config(game.repo.read("game.yaml") or b"")
        from dataclasses import replace

        text = dump_config(replace(config, hosting=hosting))
        (path / "game.yaml").write_text(text, encoding="utf-8")
        import os

        env = {**os.environ, "GIT_AUTHOR_NAME": "host", "GIT_AUTHOR_EMAIL": "host@league.test", "GIT_COMMITTER_NAME": "host",
               "GIT_COMMITTER_EMAIL": "host@league.test"}
        subprocess.run(["git", "-C", str(path), "commit", "-q", "--amend", "-a", "--no-edit"], check=True, env=env)
        game = Game(path)
    return game
