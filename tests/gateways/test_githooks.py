"""A round played entirely by `git push` to a hooked bare repository, with signed commits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.game.game import Game
from tests.gateways.helpers import PLAYERS, ROUND_ONE, example, make_game

PBEM = [sys.executable, "-c", "from pbem.cli import main; main()"]


def _run(*args: str | Path, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} failed:\n{result.stdout}\n{result.stderr}")
    return result


class Player:
    """A player's clone, committing with their own SSH signing key."""

    def __init__(self, root: Path, email: str, remote: Path, keys: Path):
        self.email = email
        self.dir = root / email.split("@")[0]
        self.key = keys / email.split("@")[0]
        if not self.key.exists():
            _run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", email, "-f", self.key)
        _run("git", "clone", "-q", remote, self.dir)
        for key, value in (("user.name", email.split("@")[0]), ("user.email", email), ("gpg.format", "ssh"),
                           ("user.signingkey", str(self.key)), ("commit.gpgsign", "true"), ("pull.rebase", "true")):
            _run("git", "-C", self.dir, "config", key, value)

    @property
    def signer_line(self) -> str:
        return f'{self.email} namespaces="git" {(self.key.with_suffix(".pub")).read_text().strip()}\n'

    def commit(self, path: str, data: bytes, message: str = "orders") -> None:
        _run("git", "-C", self.dir, "pull", "-q")
        target = self.dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        _run("git", "-C", self.dir, "add", path)
        _run("git", "-C", self.dir, "commit", "-q", "-m", message)

    def push(self, check: bool = True) -> subprocess.CompletedProcess[str]:
        return _run("git", "-C", self.dir, "push", "origin", "main", check=check)


@pytest.fixture
def server(tmp_path: Path) -> tuple[Path, dict[str, Player]]:
    make_game(tmp_path / "work", hosting={"report_map": "none"})
    bare = tmp_path / "game.git"
    _run("git", "clone", "-q", "--bare", tmp_path / "work", bare)
    keys = tmp_path / "keys"
    keys.mkdir()
    players = {power: Player(tmp_path / "clones", email, bare, keys) for power, email in PLAYERS.items()}
    signers = tmp_path / "allowed_signers"
    signers.write_text("".join(p.signer_line for p in players.values()))
    result = _run(*PBEM, "serve", "init", bare, "--allowed-signers", signers)
    assert "installed pre-receive hook" in result.stdout
    return bare, players


def test_a_round_by_git_push_ends_with_the_reports_on_main(server: tuple[Path, dict[str, Player]]) -> None:
    bare, players = server
    for name, (power, player) in zip(ROUND_ONE, players.items()):
        player.commit(f"orders/round-01/{name}", example(name), f"{power}: round 1 orders")
        pushed = player.push()
        assert f"pbem: adjudicated round 1, {power}" in pushed.stderr
        assert "remote: " in pushed.stderr  # the report is printed to the pusher
    game = Game(bare)
    state = game.state()
    assert (state.round, game.power_to_move(state)) == (2, "Soviet Union")
    reports = sorted(p for p in game.repo.list("reports/round-01") if p.endswith(".md"))
    assert [Path(p).name for p in reports] == [n.replace(".yaml", ".md") for n in ROUND_ONE]
    # every player gets the reports with an ordinary pull
    usa = players["United States"]
    _run("git", "-C", usa.dir, "pull", "-q")
    assert (usa.dir / "reports/round-01/5-united-states.md").is_file()
    assert _run("git", "-C", bare, "fsck", "--strict").returncode == 0


def test_invalid_unsigned_and_foreign_pushes_are_refused_with_reasons(server: tuple[Path, dict[str, Player]]) -> None:
    bare, players = server
    before = Game(bare).repo.head()
    soviet, german = players["Soviet Union"], players["Germany"]

    soviet.commit("orders/round-01/1-soviet-union.yaml", example(ROUND_ONE[0]).replace(b"from: Karelia", b"from: Atlantis"))
    refused = soviet.push(check=False)
    assert refused.returncode != 0
    assert "remote: orders/round-01/1-soviet-union.yaml:8:" in refused.stderr and "Atlantis" in refused.stderr
    _run("git", "-C", soviet.dir, "reset", "-q", "--hard", "origin/main")

    # a German writing the Soviet orders, even valid ones, is refused: it is not his power
    german.commit("orders/round-01/1-soviet-union.yaml", example(ROUND_ONE[0]))
    refused = german.push(check=False)
    assert "changes orders/round-01/1-soviet-union.yaml, which is not theirs to change" in refused.stderr
    assert "plays Germany, and it is Soviet Union's turn: only Soviet Union writes orders/round-01/1-soviet-union.yaml" in refused.stderr
    _run("git", "-C", german.dir, "reset", "-q", "--hard", "origin/main")

    # an unsigned commit, and one signed by a key the game does not know
    _run("git", "-C", soviet.dir, "config", "commit.gpgsign", "false")
    soviet.commit("orders/round-01/1-soviet-union.yaml", example(ROUND_ONE[0]))
    assert "is not signed with a key in the game's allowed_signers" in soviet.push(check=False).stderr
    _run("git", "-C", soviet.dir, "reset", "-q", "--hard", "origin/main")
    _run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "x", "-f", soviet.dir.parent / "stolen")
    _run("git", "-C", soviet.dir, "config", "commit.gpgsign", "true")
    _run("git", "-C", soviet.dir, "config", "user.signingkey", soviet.dir.parent / "stolen")
    soviet.commit("orders/round-01/1-soviet-union.yaml", example(ROUND_ONE[0]))
    assert "is not signed with a key" in soviet.push(check=False).stderr
    # a branch other than main
    assert "only main takes pushes" in _run("git", "-C", soviet.dir, "push", "origin", "HEAD:refs/heads/mine", check=False).stderr
    assert Game(bare).repo.head() == before


def test_two_players_pushing_at_once_one_wins_the_other_is_told_and_nothing_is_lost(
        server: tuple[Path, dict[str, Player]]) -> None:
    bare, players = server
    soviet, uk = players["Soviet Union"], players["United Kingdom"]
    standing = b"power: United Kingdom\nstanding_orders: {}\n"
    soviet.commit("orders/round-01/1-soviet-union.yaml", example(ROUND_ONE[0]))
    uk.commit("standing/united-kingdom.yaml", standing)
    env = {**os.environ}
    racers = [subprocess.Popen(["git", "-C", str(p.dir), "push", "origin", "main"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env) for p in (soviet, uk)]
    outcomes = [(r.wait(timeout=60), r.stderr.read() if r.stderr else "") for r in racers]
    codes = sorted(code for code, _ in outcomes)
    assert codes[0] == 0 and codes[1] != 0, outcomes
    loser_text = next(text for code, text in outcomes if code != 0)
    assert any(clear in loser_text for clear in ("another push was accepted first", "main moved since you fetched",
                                                 "fetch first", "non-fast-forward")), loser_text
    loser = soviet if outcomes[0][0] != 0 else uk
    _run("git", "-C", loser.dir, "pull", "-q", "--rebase")
    loser.push()
    game = Game(bare)
    assert game.repo.read("standing/united-kingdom.yaml") == standing
    assert game.repo.read("orders/round-01/1-soviet-union.yaml") == example(ROUND_ONE[0])
    assert game.power_to_move() == "Germany"
    assert _run("git", "-C", bare, "fsck", "--strict").returncode == 0


def _reveal_server(tmp_path: Path, powers: tuple[str, ...]) -> tuple[Path, dict[str, Player], Path]:
    """A hooked bare game with opponents' reveals, and signing clones for these powers."""
    from pbem.game.game import new_game

    work = tmp_path / "work"
    new_game(work, "1942-2e", PLAYERS, game_id="demo", dice_mode="local", local_seed="pbem-demo", reveal="opponents")
    bare = tmp_path / "game.git"
    _run("git", "clone", "-q", "--bare", work, bare)
    keys = tmp_path / "keys"
    keys.mkdir()
    players = {power: Player(tmp_path / "clones", PLAYERS[power], bare, keys) for power in powers}
    signers = tmp_path / "allowed_signers"
    signers.write_text("".join(p.signer_line for p in players.values()))
    _run(*PBEM, "serve", "init", bare, "--allowed-signers", signers)
    return bare, players, signers


def test_commit_reveal_by_git_push_with_signed_pbem_commits(tmp_path: Path) -> None:
    """`pbem ack` and `pbem submit` sign their commits when the player's clone signs commits
    (commit.gpgsign), so a server that takes only signed commits accepts them; dice chains grow by
    push, and the turn is adjudicated when the last reveal arrives (issue 12)."""
    bare, players, signers = _reveal_server(tmp_path, ("Soviet Union", "Germany", "Japan"))
    for power in ("Germany", "Japan"):
        p = players[power]
        _run("git", "-C", p.dir, "pull", "-q")
        _run(*PBEM, "ack", "--game", p.dir, "--power", power, "--init", "--key-dir", tmp_path / "dice-keys" / power)
        assert "Good" in _run("git", "-C", p.dir, "-c", f"gpg.ssh.allowedSignersFile={signers}", "verify-commit", "HEAD").stderr
        p.push()
    soviet = players["Soviet Union"]
    _run("git", "-C", soviet.dir, "pull", "-q")
    orders = tmp_path / "orders.yaml"
    orders.write_bytes(example(ROUND_ONE[0]))
    _run(*PBEM, "submit", orders, "--game", soviet.dir)
    pushed = soviet.push()
    assert "waiting for dice reveals from Germany, Japan" in pushed.stderr
    for power in ("Germany", "Japan"):
        p = players[power]
        _run("git", "-C", p.dir, "pull", "-q")
        _run(*PBEM, "ack", "--game", p.dir, "--power", power, "--key-dir", tmp_path / "dice-keys" / power)
        pushed = p.push()
    assert "pbem: adjudicated round 1, Soviet Union" in pushed.stderr
    from pbem.game.audit import audit_game

    check = tmp_path / "check"
    _run("git", "clone", "-q", bare, check)
    assert audit_game(check).ok


def test_a_rewritten_dice_chain_is_refused(tmp_path: Path) -> None:
    bare, players, _ = _reveal_server(tmp_path, ("Germany",))
    german = players["Germany"]
    _run("git", "-C", german.dir, "pull", "-q")
    _run(*PBEM, "ack", "--game", german.dir, "--power", "Germany", "--init", "--key-dir", tmp_path / "dk")
    german.push()
    chain = (german.dir / "dice/germany.yaml").read_text()
    german.commit("dice/germany.yaml", chain.replace("anchor: ", "anchor: 00").encode())
    refused = german.push(check=False)
    assert refused.returncode != 0 and "anchor and earlier reveals never change" in refused.stderr


def test_audit_checks_who_signed_each_players_commit(server: tuple[Path, dict[str, Player]], tmp_path: Path) -> None:
    """Once the game has players' keys, a standing-orders commit that the host made (or rewrote)
    in a player's name fails the audit; the players' own signed commits pass (issue 12)."""
    from pbem.game.audit import audit_game

    bare, players = server
    uk = players["United Kingdom"]
    uk.commit("standing/united-kingdom.yaml", b"power: United Kingdom\nstanding_orders: {}\n")
    uk.push()
    assert audit_game(bare).ok
    Game(bare).repo.commit({"standing/united-kingdom.yaml": b"power: United Kingdom\nstanding_orders:\n  default: {order_of_loss: [fighter]}\n"},
                           "Standing orders of United Kingdom", {"Power": "United Kingdom", "Phase": "standing-orders"})
    result = audit_game(bare)
    assert not result.ok
    assert "standing/united-kingdom.yaml" == result.findings[0].file
    assert "not signed by a key in allowed_signers" in result.findings[0].message


def test_a_force_push_is_refused_for_what_it_is_and_holds_no_lease(server: tuple[Path, dict[str, Player]]) -> None:
    """A force-push passed the hook's checks, took the game's lease and was then refused by git, so
    the next player's push read "another push was accepted first" for a minute. It is refused by
    the hook with the reason, and the next push goes through (issue 12)."""
    bare, players = server
    soviet, uk = players["Soviet Union"], players["United Kingdom"]
    uk.commit("standing/united-kingdom.yaml", b"power: United Kingdom\nstanding_orders: {}\n")
    uk.push()
    _run("git", "-C", uk.dir, "commit", "-q", "--amend", "-m", "rewritten")
    forced = _run("git", "-C", uk.dir, "push", "-f", "origin", "main", check=False)
    assert forced.returncode != 0 and "would rewrite main's history" in forced.stderr
    assert not (bare / "pbem-push.lease").exists()
    soviet.commit("orders/round-01/1-soviet-union.yaml", example(ROUND_ONE[0]))
    pushed = soviet.push()
    assert "adjudicated round 1, Soviet Union" in pushed.stderr


def test_the_lease_is_released_when_git_aborts_the_update(server: tuple[Path, dict[str, Player]]) -> None:
    from pbem.gateways.githooks import LEASE_FILE, RefUpdate, reference_transaction

    bare, _ = server
    (bare / LEASE_FILE).write_text(f"{'a' * 40} {'b' * 40} 0\n")
    reference_transaction(bare, "aborted", [RefUpdate("c" * 40, "d" * 40, "refs/heads/main")])
    assert (bare / LEASE_FILE).exists()  # someone else's lease stays
    reference_transaction(bare, "aborted", [RefUpdate("a" * 40, "b" * 40, "refs/heads/main")])
    assert not (bare / LEASE_FILE).exists()


def test_a_push_accepted_with_warnings_shows_them(server: tuple[Path, dict[str, Player]]) -> None:
    """Standing orders with a key the game never reads (`intercept:` with the escorts and
    interceptors option off) are accepted, and the push output says what `pbem validate` would."""
    from pbem.game.layout import standing_path

    _, players = server
    soviet = players["Soviet Union"]
    soviet.commit(standing_path("Soviet Union"), b"power: Soviet Union\nstanding_orders:\n  default: {intercept: true}\n")
    pushed = soviet.push()
    assert "pbem: accepted" in pushed.stderr
    assert f"remote: {standing_path('Soviet Union')}:3:" in pushed.stderr and "no fighter rises against a bombing raid" in pushed.stderr


def test_an_allowed_signers_line_without_a_key_is_refused_and_nothing_is_installed(tmp_path: Path) -> None:
    """git ignores a signer line with no key, so that player's every signed push would be refused
    later; `serve init` says which line and installs nothing."""
    make_game(tmp_path / "work", hosting={"report_map": "none"})
    bare = tmp_path / "game.git"
    _run("git", "clone", "-q", "--bare", tmp_path / "work", bare)
    signers = tmp_path / "allowed_signers"
    signers.write_text(f"# players\n{next(iter(PLAYERS.values()))} namespaces=\"git\"\n")
    result = _run(*PBEM, "serve", "init", bare, "--allowed-signers", signers, check=False)
    assert result.returncode != 0
    assert f"{signers}:2:1: no SSH public key on this line" in result.stderr
    assert not (bare / "hooks" / "pre-receive").exists()
    assert Game(bare).repo.read("allowed_signers") is None
