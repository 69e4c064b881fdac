"""Audit properties: random games audit clean, and a commit slipped into the middle is caught."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.engine.problems import ProblemsError
from pbem.game.audit import audit_game
from pbem.game.game import Game, new_game


def random_orders(game: Game, rng: random.Random) -> bytes:
    """Legal-looking orders for the power to move: buy and place infantry, march some land units one
    step (attacking hostile neighbours in combat, friendly ones in noncombat).  Illegal picks are
    dropped by validating, so the game keeps going whatever the dice did."""
    state = game.state()
    power = game.power_to_move(state)
    board = game.ruleset.board
    lines = [f"game: {game.config.game}", f"power: {power}", f"round: {state.round}"]
    combat, noncombat = [], []
    for space, by in sorted(state.units.items()):
        mine = by.get(power, {})
        if not board.spaces[space].is_land or not mine.get("infantry") or rng.random() < 0.6:
            continue
        neighbours = sorted(n for n in board.neighbours(space) if board.spaces[n].is_land and not board.spaces[n].impassable)
        if not neighbours:
            continue
        target = rng.choice(neighbours)
        n = rng.randint(1, mine["infantry"])
        owner = state.control.get(target)
        hostile = owner is not None and game.ruleset.side_of(owner) != game.ruleset.side_of(power)
        (combat if hostile else noncombat).append(f'  - {{units: "{n} infantry", from: "{space}", to: "{target}"}}')
    sites = sorted(s for s, by in state.units.items() if by.get(power, {}).get("industrial complex") and state.control.get(s) == power)
    money = state.treasury.get(power, 0)
    place = {}
    for site in sites:
        n = min(money // 3, board.spaces[site].ipc - state.damage.get(site, 0), rng.randint(0, 4))
        if n > 0:
            place[site] = n
            money -= 3 * n
    if place:
        lines.append(f"purchase: {{infantry: {sum(place.values())}}}")
        lines.append("place:")
        lines += [f'  "{s}": {n} infantry' for s, n in place.items()]
    for key, moves in (("combat_move", combat), ("noncombat_move", noncombat)):
        if moves:
            lines.append(f"{key}:")
            lines += moves
    text = "\n".join(lines) + "\n"
    try:
        game.check(text.encode(), "random.yaml")
        return text.encode()
    except ProblemsError:
        # Fall back to the purchase alone, which is always legal.
        keep = [l for l in lines if not l.startswith(("combat_move", "noncombat_move", "  - "))]
        return ("\n".join(keep) + "\n").encode()


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_audit_clean(seed: int, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    """Whatever the orders and the dice, a game played by the tool audits clean."""
    rng = random.Random(seed)
    base = tmp_path_factory.mktemp("random")
    game = new_game(base / "g", "1942-2e", {}, game_id="random", dice_mode="committed", key_dir=base / "keys")
    for _ in range(5):
        game.submit(random_orders(game, rng), "random.yaml")
        game.adjudicate()
        game = Game(base / "g")
    result = audit_game(base / "g")
    assert result.ok, result.findings[:1]


def test_commit_inserted_in_the_middle_is_caught(tmp_path: Path) -> None:
    """A commit slipped between two turns (here: one that edits the state) names its commit."""
    game = new_game(tmp_path / "g", "1942-2e", {}, game_id="ins", dice_mode="local")
    for _ in range(2):
        state = game.state()
        power = game.power_to_move(state)
        game.submit(f"game: ins\npower: {power}\nround: {state.round}\n".encode(), "o.yaml")
        game.adjudicate()
        game = Game(tmp_path / "g")
    path = tmp_path / "g"

    def git(*args: str, input: str | None = None) -> str:
        return subprocess.run(["git", "-c", "user.name=x", "-c", "user.email=y@z", *args], cwd=path, check=True,
                              capture_output=True, text=True, input=input).stdout.strip()

    shas = git("rev-list", "--reverse", "HEAD").split()
    middle = shas[2]  # after the first adjudication
    # The inserted commit: the state after `middle` with one more IPC for Germany.
    git("checkout", "-q", middle)
    state = (path / "state.yaml").read_text().replace("Germany: 40", "Germany: 41", 1)
    (path / "state.yaml").write_text(state)
    git("commit", "-qam", "a quiet fix")
    inserted = git("rev-parse", "HEAD")
    parent = inserted
    for sha in shas[3:]:
        tree = git("rev-parse", f"{sha}^{{tree}}")
        message = git("log", "-1", "--format=%B", sha)
        parent = git("commit-tree", tree, "-p", parent, "-F", "-", input=message)
    git("checkout", "-q", "main")
    git("reset", "-q", "--hard", parent)
    result = audit_game(path)
    assert not result.ok
    assert result.findings[0].commit == inserted
