"""pbem.game.repo: commits are atomic, serialised, identity-free and work in bare repositories."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from filelock import FileLock

from pbem.game.repo import (
    DEFAULT_IDENTITY,
    ConcurrentUpdate,
    GameRepo,
    Identity,
    NotAGameRepo,
    RepoError,
    RepositoryBusy,
    UnknownRef,
    WorkTreeConflict,
)


@pytest.fixture(autouse=True)
def no_git_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Like a fresh machine or CI: no global config, no identity anywhere."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                 "GIT_COMMITTER_EMAIL", "EMAIL", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)


def git(cwd: Path, *args: str, check: bool = True) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if check:
        assert result.returncode == 0, result.stderr
    return result.stdout


def new_game(path: Path, **options: object) -> GameRepo:
    return GameRepo.init(path, initial_files={"game.yaml": b"ruleset: aa1942_2e\n",
                                              "state/round-0.yaml": b"round: 0\n"},
                         message="Start the game", trailers={"Round": "0", "Phase": "setup"},
                         **options)  # type: ignore[arg-type]


def snapshot(repo: GameRepo) -> dict[str, object]:
    """Everything a failed write must leave untouched: refs, index, work tree."""
    files = {}
    if repo.work_tree is not None:
        for path in sorted(repo.work_tree.rglob("*")):
            if ".git" not in path.relative_to(repo.work_tree).parts and path.is_file():
                files[str(path.relative_to(repo.work_tree))] = path.read_bytes()
    index = repo.git_dir / "index"
    return {
        "refs": git(repo.git_dir, "for-each-ref", "--format=%(refname) %(objectname)"),
        "HEAD": (repo.git_dir / "HEAD").read_text(),
        "index": hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else None,
        "staged": git(repo.git_dir, "ls-files", "-s") if not repo.bare else "",
        "files": files,
    }


# ------------------------------------------------------------------ identity and basics


def test_init_and_commit_without_any_git_identity(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    assert git(repo.path, "config", "user.name", check=False) == ""  # really none configured
    sha = repo.commit({"orders/germany.yaml": b"moves: []\n"}, "Germany submits orders",
                      {"Round": "1", "Power": "Germany", "Phase": "orders"})
    assert repo.head() == sha == repo.resolve("HEAD") == repo.resolve()
    info = repo.history()[-1]
    assert info.author == DEFAULT_IDENTITY == Identity("pbem", "pbem@localhost")
    assert git(repo.path, "log", "-1", "--format=%cn <%ce>").strip() == "pbem <pbem@localhost>"


def test_game_identity_is_remembered_and_can_be_overridden(tmp_path: Path) -> None:
    gm = Identity("Game Master", "gm@example.org")
    repo = new_game(tmp_path / "game", identity=gm)
    reopened = GameRepo(repo.path)
    reopened.commit({"a": b"1"}, "by the game identity")
    reopened.commit({"b": b"2"}, "by a player", identity=Identity("Ann", "ann@example.org"))
    authors = [c.author for c in reopened.history()]
    assert authors == [gm, gm, Identity("Ann", "ann@example.org")]


def test_commit_then_read_back_and_work_tree_follows(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    payload = b"line\r\nbinary \x00\xff\n"
    first = repo.head()
    sha = repo.commit({"orders/japan.yaml": payload, "state/round-0.yaml": None},
                      "Japan submits orders", {"Round": "1"})
    assert repo.read("orders/japan.yaml") == payload  # exact bytes, no filters
    assert repo.read("state/round-0.yaml") is None
    assert repo.read("state/round-0.yaml", first) == b"round: 0\n"
    assert repo.read("missing.yaml") is None
    assert repo.list() == ["game.yaml", "orders/japan.yaml"]
    assert repo.list("orders") == ["orders/japan.yaml"] == repo.list("orders/")
    assert repo.list("state", first) == ["state/round-0.yaml"]
    assert (repo.path / "orders/japan.yaml").read_bytes() == payload
    assert not (repo.path / "state/round-0.yaml").exists()
    assert git(repo.path, "rev-parse", "HEAD").strip() == sha
    assert git(repo.path, "status", "--porcelain") == ""  # index and work tree match HEAD
    assert "-round: 0\n" in repo.diff(first, sha) and "orders/japan.yaml" in repo.diff(first)
    assert repo.diff(sha, sha) == ""
    # many files of one commit in one git call, as audit reads them: the same bytes as `read`
    paths = ["orders/japan.yaml", "state/round-0.yaml", "missing.yaml", "orders", "game.yaml"]
    for ref in (sha, first, None):
        assert repo.read_many(paths, ref) == {p: (repo.read(p, ref) if p != "orders" else None) for p in paths}
    assert repo.read_many(["state/round-0.yaml", "orders/japan.yaml"], first) == {
        "state/round-0.yaml": b"round: 0\n", "orders/japan.yaml": None}
    # a missing name with spaces in it ("<name> missing") does not upset the files after it
    assert repo.read_many(["no such.yaml", "orders/japan.yaml"], sha) == {"no such.yaml": None, "orders/japan.yaml": payload}
    assert repo.read("no such.yaml", sha) is None
    with pytest.raises(UnknownRef):  # a commit id that names no commit, checked in the same git call
        repo.read_many(["game.yaml"], "0" * 39 + "1")
    with pytest.raises(UnknownRef):
        repo.read_many([], "0" * 39 + "1")
    with pytest.raises(UnknownRef):
        repo.read("game.yaml", "0" * 39 + "1")



def test_batch_reads_answer_as_single_calls_and_end_their_process(tmp_path: Path) -> None:
    """Within `batch_reads` one git process answers every read (audit reads a few files of each
    commit): the same bytes, misses and errors as a call each, a commit made meanwhile readable,
    and no process left once the block ends."""
    repo = new_game(tmp_path / "game")
    first = repo.head()
    big = bytes(range(256)) * 4000 + b"\n"  # larger than a pipe's buffer
    sha = repo.commit({"orders/japan.yaml": b"line\r\nbinary \x00\xff\n", "big.bin": big}, "Japan submits orders")
    paths = ["orders/japan.yaml", "big.bin", "state/round-0.yaml", "missing.yaml", "no such.yaml", "orders", "game.yaml"]
    alone = {ref: repo.read_many(paths, ref) for ref in (sha, first, None)}
    with repo.batch_reads():
        process = repo._cat.proc  # type: ignore[union-attr]
        for _ in range(2):
            for ref in (sha, first, None):
                assert repo.read_many(paths, ref) == alone[ref]
            assert repo.read("big.bin", sha) == big
        with pytest.raises(UnknownRef):
            repo.read_many(["game.yaml"], "0" * 39 + "1")
        assert repo.read("game.yaml", sha) == alone[sha]["game.yaml"]  # still answering after a miss
        later = repo.commit({"orders/japan.yaml": b"changed\n"}, "Japan changes its orders")
        assert repo.read("orders/japan.yaml", later) == b"changed\n"
    assert process.poll() is not None and repo._cat is None
    assert repo.read_many(paths, sha) == alone[sha]

def test_deleting_a_missing_file_and_empty_commits(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    sha = repo.commit({"never-there.yaml": None}, "Nothing to delete")
    assert repo.history()[-1].files_changed == () and repo.head() == sha


def test_history_and_trailers_round_trip(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    repo.commit({"orders/germany.yaml": b"x\n"}, "Germany submits orders\n\nMoved 3 tanks.\n\n"
                "Second paragraph.", {"Round": "1", "Power": "Germany", "Phase": "orders"})
    repo.commit({"state/round-1.yaml": b"r\n", "orders/germany.yaml": None},
                "Adjudicate round 1", {"Round": "1", "Phase": "adjudication"})
    history = repo.history()
    assert [c.subject for c in history] == ["Start the game", "Germany submits orders",
                                            "Adjudicate round 1"]
    assert history[0].parents == () and history[1].parents == (history[0].sha,)
    assert history[0].files_changed == ("game.yaml", "state/round-0.yaml")
    assert history[1].body == "Moved 3 tanks.\n\nSecond paragraph."
    assert history[1].trailers == {"Round": "1", "Power": "Germany", "Phase": "orders"}
    assert history[2].files_changed == ("orders/germany.yaml", "state/round-1.yaml")
    assert [c.sha for c in repo.history(history[1].sha)] == [history[0].sha, history[1].sha]
    message = git(repo.path, "log", "-1", "--skip=1", "--format=%B")
    parsed = subprocess.run(["git", "interpret-trailers", "--parse"], input=message, text=True,
                            capture_output=True, check=True).stdout
    assert parsed == "Pbem-Round: 1\nPbem-Power: Germany\nPbem-Phase: orders\n"


@pytest.mark.parametrize("files, message, trailers", [
    ({"../escape": b"x"}, "m", {}),
    ({"/abs": b"x"}, "m", {}),
    ({".git/config": b"x"}, "m", {}),
    ({"a//b": b"x"}, "m", {}),
    ({"a\nb": b"x"}, "m", {}),
    ({"ok": b"x"}, "", {}),
    ({"ok": b"x"}, "m", {"Bad Key": "1"}),
    ({"ok": b"x"}, "m", {"Round": "1\nPbem-Power: Evil"}),
    ({"game.yaml/inner": b"x"}, "m", {}),  # would silently replace the file game.yaml
    ({"state": b"x"}, "m", {}),  # would silently drop the directory state/
])
def test_bad_input_changes_nothing(tmp_path: Path, files: dict[str, bytes], message: str,
                                   trailers: dict[str, str]) -> None:
    repo = new_game(tmp_path / "game")
    before = snapshot(repo)
    with pytest.raises(ValueError):
        repo.commit(files, message, trailers)
    assert snapshot(repo) == before


def test_replacing_a_file_by_a_directory_in_one_commit_is_allowed(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    repo.commit({"game.yaml": None, "game.yaml/inner": b"x"}, "Reshape")
    assert repo.list() == ["game.yaml/inner", "state/round-0.yaml"]


# ------------------------------------------------------------------ atomicity


@pytest.mark.parametrize("seam", ["_before_ref_update", "_commit_tree", "_build_tree"])
def test_failure_before_the_ref_moves_leaves_everything_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seam: str) -> None:
    repo = new_game(tmp_path / "game")
    (repo.path / "notes.txt").write_text("my untracked notes")
    before = snapshot(repo)

    def crash(*args: object) -> None:
        raise RuntimeError("injected crash")

    monkeypatch.setattr(GameRepo, seam, crash)
    with pytest.raises(RuntimeError, match="injected"):
        repo.commit({"orders/germany.yaml": b"x\n", "game.yaml": None}, "Doomed", {"Round": "1"})
    assert snapshot(repo) == before
    monkeypatch.undo()
    repo.commit({"orders/germany.yaml": b"x\n"}, "Works after the crash")  # no stale lock
    assert len(repo.history()) == 2


def test_expected_head_mismatch_raises_and_changes_nothing(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    seen = repo.head()
    repo.commit({"orders/germany.yaml": b"x\n"}, "Germany submits")
    before = snapshot(repo)
    with pytest.raises(ConcurrentUpdate, match="re-read"):
        repo.commit({"orders/japan.yaml": b"y\n"}, "Japan submits", expected_head=seen)
    assert snapshot(repo) == before
    repo.commit({"orders/japan.yaml": b"y\n"}, "Japan submits", expected_head=repo.head())


def test_branch_moved_behind_our_back_is_detected_by_compare_and_swap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = new_game(tmp_path / "game")
    env = {**os.environ, "GIT_AUTHOR_NAME": "x", "GIT_AUTHOR_EMAIL": "x@x",
           "GIT_COMMITTER_NAME": "x", "GIT_COMMITTER_EMAIL": "x@x"}
    other = subprocess.run(["git", "commit-tree", "-m", "someone else", "-p", repo.head(),
                            f"{repo.head()}^{{tree}}"], cwd=repo.path, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()

    def sneak_in(self: GameRepo, new: str) -> None:
        git(self.path, "update-ref", "refs/heads/main", other)

    monkeypatch.setattr(GameRepo, "_before_ref_update", sneak_in)
    with pytest.raises(ConcurrentUpdate):
        repo.commit({"orders/germany.yaml": b"x\n"}, "Lost race")
    assert repo.head() == other  # their commit kept, ours not half-applied
    assert repo.read("orders/germany.yaml") is None
    assert not (repo.path / "orders/germany.yaml").exists()


def test_lock_held_too_long_gives_repository_busy(tmp_path: Path) -> None:
    repo = GameRepo(new_game(tmp_path / "game").path, lock_timeout=0.2)
    before = snapshot(repo)
    with FileLock(str(repo.git_dir / "pbem.lock")):
        with pytest.raises(RepositoryBusy, match="busy"):
            repo.commit({"a": b"1"}, "Blocked")
    assert snapshot(repo) == before


# ------------------------------------------------------------------ the user's checkout


def test_unrelated_untracked_and_modified_files_survive(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    (repo.path / "scratch.txt").write_text("mine")
    (repo.path / "game.yaml").write_bytes(b"ruleset: edited locally\n")
    repo.commit({"orders/germany.yaml": b"x\n"}, "Germany submits")
    assert (repo.path / "scratch.txt").read_text() == "mine"
    assert (repo.path / "game.yaml").read_bytes() == b"ruleset: edited locally\n"
    assert (repo.path / "orders/germany.yaml").read_bytes() == b"x\n"


@pytest.mark.parametrize("local", ["untracked", "modified"])
def test_commit_that_would_overwrite_local_work_is_refused(tmp_path: Path, local: str) -> None:
    repo = new_game(tmp_path / "game")
    target = "orders/germany.yaml" if local == "untracked" else "game.yaml"
    (repo.path / target).parent.mkdir(exist_ok=True)
    (repo.path / target).write_bytes(b"precious local work\n")
    before = snapshot(repo)
    with pytest.raises(WorkTreeConflict, match="nothing was written") as refused:
        repo.commit({target: b"from pbem\n"}, "Would clobber")
    assert f"has changes ({target})" in str(refused.value) and "uptodate" not in str(refused.value)
    assert snapshot(repo) == before


def test_checkout_on_another_branch_is_left_alone(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    git(repo.path, "checkout", "-q", "-b", "scratch")
    before_files = snapshot(repo)["files"]
    sha = repo.commit({"orders/germany.yaml": b"x\n"}, "Germany submits")
    assert repo.head() == sha and git(repo.path, "rev-parse", "HEAD").strip() != sha
    assert snapshot(repo)["files"] == before_files


def test_forced_signing_and_inherited_hook_environment_are_ignored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "gitconfig"
    config.write_text("[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = false\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    elsewhere = tmp_path / "elsewhere"
    subprocess.run(["git", "init", "-q", str(elsewhere)], check=True)
    monkeypatch.setenv("GIT_DIR", str(elsewhere / ".git"))  # as inside a git hook
    monkeypatch.setenv("GIT_INDEX_FILE", str(elsewhere / ".git" / "index"))
    repo = new_game(tmp_path / "game")
    repo.commit({"a": b"1"}, "Signed? No.")
    assert len(repo.history()) == 2
    monkeypatch.delenv("GIT_DIR")
    monkeypatch.delenv("GIT_INDEX_FILE")
    assert git(elsewhere, "for-each-ref") == ""


# ------------------------------------------------------------------ opening and bare repos


def test_not_a_game_repo(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(NotAGameRepo):
        GameRepo(plain)
    with pytest.raises(NotAGameRepo):
        GameRepo(tmp_path / "missing")
    repo = new_game(tmp_path / "game")
    (repo.path / "sub").mkdir()
    with pytest.raises(NotAGameRepo, match="inside"):
        GameRepo(repo.path / "sub")  # never commit into an enclosing repository
    with pytest.raises(NotAGameRepo):
        GameRepo(repo.path, branch="other")
    empty = tmp_path / "empty"
    subprocess.run(["git", "init", "-q", str(empty)], check=True)
    with pytest.raises(NotAGameRepo, match="no branch"):
        GameRepo(empty)
    with pytest.raises(RepoError):
        new_game(repo.path)  # not empty: refuse rather than re-initialise
    assert len(repo.history()) == 1


def test_failed_init_leaves_nothing_behind(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        GameRepo.init(tmp_path / "game", initial_files={"../x": b""}, message="m")
    assert not (tmp_path / "game").exists()


def test_bare_repository(tmp_path: Path) -> None:
    created = new_game(tmp_path / "game.git", bare=True)
    repo = GameRepo(created.path)
    assert repo.bare and repo.work_tree is None
    sha = repo.commit({"orders/uk.yaml": b"uk\n"}, "UK submits", {"Round": "1", "Power": "UK"})
    assert repo.read("orders/uk.yaml") == b"uk\n" and repo.head() == sha
    assert [c.trailers for c in repo.history()][-1] == {"Round": "1", "Power": "UK"}
    assert sorted(p.name for p in repo.path.iterdir() if p.name.endswith(".yaml")) == []
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo.path), str(clone)], check=True)
    assert (clone / "orders/uk.yaml").read_bytes() == b"uk\n"
    assert GameRepo(clone).head() == sha


# ------------------------------------------------------------------ concurrency


WORKER = textwrap.dedent("""\
    import os, sys, time
    from pbem.game.repo import GameRepo, ConcurrentUpdate
    path, name, count, go, stale = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    repo = GameRepo(path, lock_timeout=60)
    seen = repo.head()
    while not os.path.exists(go):
        time.sleep(0.001)
    for i in range(count):
        expected = seen if stale == "1" else None
        try:
            repo.commit({f"orders/{name}-{i}.yaml": f"{name} {i}\\n".encode()},
                        f"{name} submits {i}", {"Power": name, "Round": str(i)},
                        expected_head=expected)
            print("landed", name, i, flush=True)
        except ConcurrentUpdate:
            print("refused", name, i, flush=True)
""")


def run_workers(path: Path, tmp_path: Path, workers: int, count: int, stale: bool) -> list[str]:
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    go = tmp_path / "go"
    processes = [subprocess.Popen([sys.executable, str(script), str(path), f"p{n}", str(count),
                                   str(go), "1" if stale else "0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for n in range(workers)]
    time.sleep(0.5)  # let every worker open the repository and wait at the start line
    go.touch()
    lines = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        lines += out.split("\n")
    return [line for line in lines if line]


@pytest.mark.parametrize("bare", [False, True])
def test_many_processes_committing_at_once_lose_nothing(tmp_path: Path, bare: bool) -> None:
    repo = new_game(tmp_path / "game", bare=bare)
    workers, count = 6, 5
    lines = run_workers(repo.path, tmp_path, workers, count, stale=False)
    assert sorted(lines) == sorted(f"landed p{n} {i}" for n in range(workers)
                                   for i in range(count))
    history = repo.history()
    assert len(history) == 1 + workers * count
    assert all(len(c.parents) <= 1 for c in history)  # one straight line of commits
    orders = repo.list("orders")
    assert orders == sorted(f"orders/p{n}-{i}.yaml" for n in range(workers) for i in range(count))
    if not bare:
        assert git(repo.path, "status", "--porcelain") == ""
        assert sorted(p.name for p in (repo.path / "orders").iterdir()) == [
            o.split("/")[1] for o in orders]


def test_stale_writers_are_refused_clearly_never_lost(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    lines = run_workers(repo.path, tmp_path, 5, 2, stale=True)
    landed = [line for line in lines if line.startswith("landed")]
    refused = [line for line in lines if line.startswith("refused")]
    assert len(landed) + len(refused) == 10
    assert len(landed) == 1  # all saw the same head: exactly one can win
    assert len(repo.history()) == 1 + len(landed)
    name, i = landed[0].split()[1:]
    assert repo.list("orders") == [f"orders/{name}-{i}.yaml"]


# ------------------------------------------------------------------ size


def test_large_repo_operations_work(tmp_path: Path) -> None:
    """3,000 files and several commits (the times are in benchmarks/bench_repo.py)."""
    files = {f"state/t{n // 100}/territory-{n}.yaml": f"owner: p{n % 5}\n".encode()
             for n in range(3000)}
    repo = GameRepo.init(tmp_path / "game", initial_files=files, message="Big start")
    for n in range(5):
        repo.commit({f"state/t0/territory-{n}.yaml": b"owner: p9\n", f"new-{n}": b"x"},
                    f"Change {n}", {"Round": str(n)})
    assert len(repo.list()) == 3005 and len(repo.history()) == 6
    assert repo.read("state/t0/territory-4.yaml") == b"owner: p9\n"


def test_process_killed_mid_commit_leaves_repo_as_before_and_unlocked(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    before = snapshot(repo)
    script = textwrap.dedent("""\
        import os, signal, sys
        from pbem.game.repo import GameRepo
        GameRepo._before_ref_update = lambda self, new: os.kill(os.getpid(), signal.SIGKILL)
        GameRepo(sys.argv[1]).commit({"orders/germany.yaml": b"x"}, "Killed mid-way")
    """)
    result = subprocess.run([sys.executable, "-c", script, str(repo.path)], capture_output=True)
    assert result.returncode == -9, result.stderr
    assert snapshot(repo) == before
    fresh = GameRepo(repo.path, lock_timeout=2)  # the OS released the dead process's lock
    fresh.commit({"orders/germany.yaml": b"x"}, "Second try")
    assert fresh.read("orders/germany.yaml") == b"x"


# ------------------------------------------------------------------ copied and crashed checkouts


def test_a_copied_game_directory_commits_as_the_original(tmp_path: Path) -> None:
    """`cp -r` gives every file a new inode and time, so the index's stat data is stale; git
    then calls the files "not uptodate". The copy must commit like the original (issue 12)."""
    repo = new_game(tmp_path / "game")
    repo.commit({"orders/germany.yaml": b"x\n"}, "Germany submits")
    subprocess.run(["cp", "-r", str(repo.path), str(tmp_path / "copy")], check=True)
    time.sleep(0.01)
    for f in (tmp_path / "copy").rglob("*.yaml"):
        os.utime(f)  # touched, content unchanged
    copy = GameRepo(tmp_path / "copy")
    copy.commit({"game.yaml": b"ruleset: changed\n"}, "A change that touches a copied file")
    assert (copy.path / "game.yaml").read_bytes() == b"ruleset: changed\n"
    assert git(copy.path, "status", "--porcelain") == ""


def test_checkout_left_behind_by_a_crash_is_brought_forward_not_reversed(tmp_path: Path) -> None:
    """Killed after the branch moved but before the files followed: the checkout shows the
    turn before. The next commit must bring it to the tip, never read it as local changes
    (committing those would undo the turn)."""
    repo = new_game(tmp_path / "game")
    script = textwrap.dedent("""\
        import os, signal, sys
        from pbem.game.repo import GameRepo
        GameRepo._update_work_tree = lambda self, old, new, identity: os.kill(os.getpid(), signal.SIGKILL)
        GameRepo(sys.argv[1]).commit({"state/round-0.yaml": b"round: 1\\n", "report.md": b"r"}, "Adjudicate")
    """)
    result = subprocess.run([sys.executable, "-c", script, str(repo.path)], capture_output=True)
    assert result.returncode == -9, result.stderr
    assert repo.read("state/round-0.yaml") == b"round: 1\n"
    assert (repo.path / "state/round-0.yaml").read_bytes() == b"round: 0\n"  # left behind
    repo.commit({"orders/germany.yaml": b"x\n"}, "Next orders")
    assert (repo.path / "state/round-0.yaml").read_bytes() == b"round: 1\n"
    assert (repo.path / "report.md").read_bytes() == b"r"
    assert repo.read("state/round-0.yaml") == b"round: 1\n"
    assert git(repo.path, "status", "--porcelain") == ""


def test_checkout_killed_while_git_wrote_it_is_brought_forward(tmp_path: Path) -> None:
    """Killed while git was writing the checkout: the branch is at the new turn, the index and
    state still the turn before, and the new turn's report already on disk, untracked.  The next
    commit brings the checkout to the tip (the file in the way is byte for byte the tip's); a file
    in the way with other bytes is the player's and stops it."""
    repo = new_game(tmp_path / "game")
    repo.commit({"state/round-0.yaml": b"round: 1\n", "report.md": b"r"}, "Adjudicate")
    git(repo.path, "read-tree", "HEAD~1")
    git(repo.path, "checkout-index", "-f", "state/round-0.yaml")
    assert (repo.path / "state/round-0.yaml").read_bytes() == b"round: 0\n"
    assert "?? report.md" in git(repo.path, "status", "--porcelain")
    repo.commit({"orders/germany.yaml": b"x\n"}, "Next orders")
    assert (repo.path / "state/round-0.yaml").read_bytes() == b"round: 1\n"
    assert git(repo.path, "status", "--porcelain") == ""

    git(repo.path, "read-tree", "HEAD~2")
    git(repo.path, "checkout-index", "-f", "state/round-0.yaml")
    (repo.path / "report.md").write_bytes(b"my own notes\n")
    with pytest.raises(WorkTreeConflict):
        repo.commit({"orders/japan.yaml": b"y\n"}, "Would clobber the player's file")
    assert (repo.path / "report.md").read_bytes() == b"my own notes\n"


def test_a_players_file_where_the_tip_puts_a_directory_is_kept(tmp_path: Path) -> None:
    """The tip adds notes/r1.md; the player has a file of his own named notes.  Bringing the stale
    checkout forward must not replace his file by the directory: it is refused, the file kept."""
    repo = new_game(tmp_path / "game")
    repo.commit({"state/round-0.yaml": b"round: 1\n", "notes/r1.md": b"r"}, "Adjudicate")
    git(repo.path, "read-tree", "HEAD~1")
    git(repo.path, "checkout-index", "-f", "state/round-0.yaml")
    for leftover in (repo.path / "notes").glob("*"):
        leftover.unlink()
    (repo.path / "notes").rmdir()
    (repo.path / "notes").write_bytes(b"MY OWN NOTES\n")
    with pytest.raises(WorkTreeConflict, match="files of yours are in the way"):
        repo.commit({"orders/germany.yaml": b"x\n"}, "Next orders")
    assert (repo.path / "notes").read_bytes() == b"MY OWN NOTES\n"


def test_a_lock_left_by_a_killed_git_is_named_with_what_to_do(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    (repo.git_dir / "index.lock").write_bytes(b"")
    with pytest.raises(WorkTreeConflict, match="index.lock is left over from an interrupted git command.*delete that file"):
        repo.commit({"orders/germany.yaml": b"x\n"}, "Next orders")
    (repo.git_dir / "index.lock").unlink()
    repo.commit({"orders/germany.yaml": b"x\n"}, "Next orders")


def test_hand_edits_are_still_refused_not_taken_for_a_crash(tmp_path: Path) -> None:
    repo = new_game(tmp_path / "game")
    repo.commit({"state/round-0.yaml": b"round: 1\n"}, "Adjudicate")
    (repo.path / "state/round-0.yaml").write_bytes(b"round: 7\n")
    with pytest.raises(WorkTreeConflict):
        repo.commit({"state/round-0.yaml": b"round: 2\n"}, "Would clobber a hand edit")
    assert (repo.path / "state/round-0.yaml").read_bytes() == b"round: 7\n"
