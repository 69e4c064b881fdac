"""`pbem audit` proves a clean game and catches each kind of tampering; `pbem luck` reports the dice."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import audit_game, explain_turn

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1942-2e"
TURNS = 3  # Soviet Union, Germany, United Kingdom: enough for a middle turn to remove


def git(repo: Path, *args: str, input: str | None = None) -> str:
    return subprocess.run(["git", "-c", "user.name=x", "-c", "user.email=y@z", *args], cwd=repo, check=True,
                          capture_output=True, text=True, input=input).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed-dice game of three adjudicated power-turns, made once for the module."""
    from pbem.game.game import Game, new_game, orders_path

    base = tmp_path_factory.mktemp("audit")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CONFIG_HOME", str(base / "xdg"))
        mp.delenv("PBEM_DICE_SECRET", raising=False)
        path = base / "game"
        game = new_game(path, "1942-2e", {}, game_id="demo", dice_mode="committed")
        for _ in range(TURNS):
            state = game.state()
            rel = orders_path(state, game.ruleset).removeprefix("orders/")
            game.submit((EXAMPLES / rel).read_bytes(), rel)
            game.adjudicate()
            game = Game(path)
    return path


@pytest.fixture
def game(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "game"
    shutil.copytree(built, copy, symlinks=True)
    return copy


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def adjudications(path: Path) -> list[str]:
    return [line.split()[0] for line in git(path, "log", "--reverse", "--format=%H %s").splitlines() if " Adjudicate " in line]


def edit_and_commit(path: Path, rel: str, old: str | None, new: str) -> None:
    f = path / rel
    text = f.read_text()
    assert old is None or old in text
    f.write_text(text.replace(old, new, 1) if old is not None else text + new)
    git(path, "commit", "-qam", "hand edit")


def files_of(path: Path) -> set[str]:
    return {f.file for f in audit_game(path).findings}


def test_clean_game_audits_clean(game: Path) -> None:
    code, out = run("audit", "--game", str(game))
    assert code == 0, out
    assert out.count(" ok\n") == TURNS
    assert "audit ok" in out


def test_state_edited_by_hand(game: Path) -> None:
    edit_and_commit(game, "state.yaml", "winner: null", "winner: Axis")
    result = audit_game(game)
    assert not result.ok
    assert result.first.file == "state.yaml" and "outside an adjudication" in result.first.message
    assert "+winner: Axis" in result.first.diff
    code, out = run("audit", "--game", str(game))
    assert code == 1 and "AUDIT FAILED" in out and "state.yaml" in out


def test_the_hosts_ci_files_may_be_committed_between_adjudications(game: Path) -> None:
    """`pbem init-ci` tells the host to commit its workflow and, for a pbem installed from sources,
    the wheel it wrote under .ci/: neither is game data, so the audit passes them."""
    (game / ".ci").mkdir()
    (game / ".ci" / "pbem-0.0-py3-none-any.whl").write_bytes(b"PK\x03\x04\x00\xff binary")
    (game / ".github" / "workflows").mkdir(parents=True)
    (game / ".github" / "workflows" / "pbem.yml").write_text("on: push\n")
    git(game, "add", ".ci", ".github")
    git(game, "commit", "-qm", "CI workflow")
    code, out = run("audit", "--game", str(game))
    assert code == 0, out


def test_a_binary_file_changed_outside_an_adjudication_is_named_not_dumped(game: Path) -> None:
    (game / "blob.bin").write_bytes(bytes(range(256)) * 8)
    git(game, "add", "blob.bin")
    git(game, "commit", "-qm", "a binary")
    result = audit_game(game)
    assert not result.ok and result.first.file == "blob.bin"
    assert result.first.diff == "binary file blob.bin: absent replayed or before, 2,048 bytes committed\n"


def test_orders_edited_after_adjudication(game: Path) -> None:
    edit_and_commit(game, "orders/round-01/1-soviet-union.yaml", None, "# changed my mind\n")
    result = audit_game(game)
    assert not result.ok
    assert result.first.file == "orders/round-01/1-soviet-union.yaml"
    assert "after they were adjudicated" in result.first.message
    assert "+# changed my mind" in result.first.diff


def test_report_edited(game: Path) -> None:
    rel = "reports/round-01/2-germany.md"
    edit_and_commit(game, rel, None, "\nGermany rolled only sixes.\n")
    assert rel in files_of(game)
    code, out = run("audit", "--game", str(game))
    assert code == 1 and rel in out



def test_a_game_made_by_an_older_pbem_audits_clean_and_names_both_versions(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports name the pbem that made them; audit by a newer pbem replays them under that name, so
    an upgrade alone fails no turn.  A turn that differs names both versions: an engine change
    (odds to the last digit, a rule fixed) may explain it, and the older pbem can tell."""
    from pbem import __version__ as made_by

    monkeypatch.setattr("pbem.game.reportdata.__version__", "9.9.9")
    monkeypatch.setattr("pbem.game.audit.__version__", "9.9.9")
    assert audit_game(game).ok
    last = git(game, "log", "-1", "--format=%H").strip()
    report = next(f for f in git(game, "show", "--name-only", "--format=", last).split() if f.endswith(".md"))
    (game / report).write_text((game / report).read_text() + "\nA die changed.\n")
    git(game, "commit", "-q", "--amend", "-a", "--no-edit")
    result = audit_game(game)
    assert [f.file for f in result.findings] == [report]
    assert f"adjudicated by pbem {made_by}, replayed by pbem 9.9.9" in result.first.message
    monkeypatch.undo()
    assert "replayed by" not in audit_game(game).first.message  # the same pbem: no engine to blame

def test_link_that_does_not_hash_to_the_previous_one(game: Path) -> None:
    message = git(game, "log", "-1", "--format=%B")
    link = next(line.split(": ", 1)[1] for line in message.splitlines() if line.startswith("Pbem-Dice-Link: "))
    git(game, "commit", "--amend", "-q", "-m", message.replace(link, "0" * 63 + "1"))
    result = audit_game(game)
    assert not result.ok
    assert result.first.file == "Pbem-Dice-Link" and "does not hash" in result.first.message
    assert [t.ok for t in result.turns] == [True] * (TURNS - 1) + [False]


def test_adjudication_removed_from_the_middle_of_history(game: Path) -> None:
    shas = git(game, "rev-list", "--reverse", "HEAD").split()
    dropped = adjudications(game)[1]
    parent = shas[shas.index(dropped) - 1]
    for sha in shas[shas.index(dropped) + 1:]:
        tree = git(game, "rev-parse", f"{sha}^{{tree}}").strip()
        message = git(game, "log", "-1", "--format=%B", sha)
        parent = git(game, "commit-tree", tree, "-p", parent, "-F", "-", input=message).strip()
    git(game, "update-ref", "refs/heads/main", parent)
    result = audit_game(game)
    assert not result.ok
    assert any(f.file == "Pbem-Dice-Index" and "inserted or removed" in f.message for f in result.findings)
    code, _ = run("audit", "--game", str(game))
    assert code == 1


def test_ruleset_hash_changed(game: Path) -> None:
    text = (game / "game.yaml").read_text()
    old = next(line for line in text.splitlines() if line.startswith("ruleset_hash:"))
    edit_and_commit(game, "game.yaml", old, "ruleset_hash: " + "ab" * 32)
    result = audit_game(game)
    assert not result.ok
    assert {f.file for f in result.findings} == {"game.yaml"}
    assert any("ruleset data changed" in f.message or "changed after the first commit" in f.message for f in result.findings)


def test_turn_lists_labelled_dice(game: Path) -> None:
    code, out = run("audit", "--game", str(game), "--turn", "1")
    assert code == 0, out
    assert "battle/" in out and "/round-1/attacker: " in out
    assert "replay matches" in out
    data = explain_turn(game, 1)
    assert data["power"] == "Soviet Union" and data["rolls"] and all(1 <= v <= 6 for r in data["rolls"] for v in r["values"])
    code, out = run("audit", "--game", str(game), "--turn", "99")
    assert code == 2 and "no turn 99" in out


def test_turn_explained_by_a_newer_pbem_still_matches(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`audit --turn` replays as `audit` does: the report is labelled with the pbem that made the
    committed one, so a newer pbem that changed nothing else reproduces it byte for byte."""
    import pbem.game.reportdata

    monkeypatch.setattr(pbem.game.reportdata, "__version__", "99.0.0")
    assert audit_game(game).ok
    assert explain_turn(game, 1)["matches"]


def test_luck_prints_per_power_lines(game: Path) -> None:
    code, out = run("luck", "--game", str(game))
    assert code == 0, out
    power_lines = out.split("By battle:")[0]
    assert "Soviet Union" in power_lines and "Germany" in power_lines
    assert "chi-square" in out
    code, out = run("luck", "--game", str(game), "--json")
    data = json.loads(out)
    assert data["total"]["dice"] == sum(p["dice"] for p in data["powers"]) == data["faces"]["total"] > 0


def test_local_seed_game_audits_clean_and_catches_a_foreign_link(tmp_path: Path) -> None:
    code, out = run("demo", str(tmp_path / "local"))
    assert code == 0, out
    assert audit_game(tmp_path / "local").ok
    message = git(tmp_path / "local", "log", "-1", "--format=%B")
    link = next(line.split(": ", 1)[1] for line in message.splitlines() if line.startswith("Pbem-Dice-Link: "))
    git(tmp_path / "local", "commit", "--amend", "-q", "-m", message.replace(link, "0" * 64))
    result = audit_game(tmp_path / "local")
    assert [f.file for f in result.findings] == ["Pbem-Dice-Link"]


def test_audit_warns_when_the_files_differ_from_the_commit_it_audits(tmp_path: Path) -> None:
    """A player reading the state file in the folder must not believe the audit vouched for it
    when it was edited by hand: the audit checks commits, and says the files differ (issue 14)."""
    from pbem.game.game import new_game

    g = new_game(tmp_path / "g", "1942-2e", {}, game_id="demo", dice_mode="local")
    assert audit_game(g.path).warnings == []
    (g.path / "state.yaml").write_text((g.path / "state.yaml").read_text() + "# edited by hand\n")
    result = audit_game(g.path)
    assert result.ok
    assert len(result.warnings) == 1 and "state.yaml" in result.warnings[0] and "differ from the commit audited" in result.warnings[0]


@pytest.mark.parametrize("ruleset", ["1942-2e", "global-1940-ams"])
def test_a_game_audits_clean_in_a_process_with_other_string_hashes(tmp_path: Path, ruleset: str) -> None:
    """A game adjudicated in one process replays byte for byte in another whose string hashes (and
    so the order of every set of names) differ: no output may follow a set's order.  One process
    could not tell, as it adjudicates and audits with the same hashes."""
    import os
    import sys

    def pbem(seed: str, *args: str) -> subprocess.CompletedProcess:
        env = dict(os.environ, PYTHONHASHSEED=seed, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
        env.pop("PBEM_DICE_SECRET", None)
        return subprocess.run([sys.executable, "-m", "pbem", *args], env=env, capture_output=True, text=True)

    made = pbem("1", "demo", str(tmp_path / "game"), "--ruleset", ruleset)
    assert made.returncode == 0, made.stderr
    audited = pbem("2", "audit", "--game", str(tmp_path / "game"))
    assert audited.returncode == 0 and "audit ok" in audited.stdout, audited.stdout + audited.stderr
