"""`pbem init-ci github|gitlab`: host a game on a forge's CI runners.

The game repository lives on GitHub or GitLab.  Players open pull (merge) requests that add their
orders; CI validates them against main as it is now and shows the problems in the check's log.
The host (or an auto-merge rule) merges; on every push to main, and every hour on a schedule, CI
runs `pbem tick`, which adjudicates a complete turn and applies deadlines, and pushes the result.
The dice secret comes from the forge's secret store (`PBEM_DICE_SECRET`, or per game
`PBEM_DICE_SECRET_<GAME_ID>`), never from the repository.  One workflow per game repository, so
a league hosts as many games as it has repositories, each on the forge's own runners.

The shell steps are constants here so the tests run exactly the text the workflow will run.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from pbem import __version__
from pbem.game.dicekeys import env_var_for
from pbem.game.game import Game, GameError

FORGES = ("github", "gitlab")
TARGETS = {"github": ".github/workflows/pbem.yml", "gitlab": ".gitlab-ci.yml"}

# Validate the orders of a pull request against main as it is now ($PBEM_BASE names it).  Checked
# out is the request's head; pbem reads the game from refs/heads/main, which is set to the base.
VALIDATE_SCRIPT = """\
set -eu
git update-ref refs/heads/main "$(git rev-parse "$PBEM_BASE^{commit}")"
base=$(git merge-base "$PBEM_BASE" HEAD)
other=$(git diff --name-only "$base" HEAD -- . ':(exclude)orders' ':(exclude)standing')
if [ -n "$other" ]; then
  echo "error: a pull request may only add or change orders and standing orders; it also changes:"
  echo "$other"
  exit 1
fi
files=$(git diff --name-only --diff-filter=AMR "$base" HEAD -- orders standing)
if [ -z "$files" ]; then
  echo "error: no orders or standing orders in this pull request"
  exit 1
fi
status=0
for f in $files; do
  pbem validate "$f" --game . || status=1
done
exit $status
"""

# On main: adjudicate a complete turn, apply deadlines and reminders, push what was committed.
ADVANCE_SCRIPT = """\
set -eu
before=$(git rev-parse HEAD)
pbem tick --game .
if [ "$(git rev-parse HEAD)" != "$before" ]; then
  git push "$PBEM_PUSH_URL" HEAD:main
fi
"""

# After adjudicating: build the game's static site (`pbem site`) from main as pushed, into the
# folder the forge's pages service publishes ($PBEM_SITE_DIR).
SITE_SCRIPT = """\
set -eu
git fetch -q origin main
git checkout -q -B main FETCH_HEAD
pbem site --game . --out "$PBEM_SITE_DIR"
"""


def _indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line + "\n" if line else "\n" for line in text.splitlines())


def github_workflow(game_id: str, install: str) -> str:
    """The GitHub Actions workflow.  Its actions are the first majors that run on Node 24
    (checkout v5, setup-python v6, upload-pages-artifact v5, deploy-pages v5): GitHub's runners
    dropped Node 20 in September 2026, and actionlint refuses the older ones."""
    per_game = env_var_for(game_id)
    return f"""\
# pbem: validate orders in pull requests; adjudicate and apply deadlines on main.
# Written by `pbem init-ci github`; see docs/hosting.md.  Secrets (Settings > Secrets > Actions):
#   PBEM_DICE_SECRET (or {per_game}) -- the dice secret, only for committed dice
#   PBEM_MAIL_CONFIG_YAML, PBEM_SMTP_PASSWORD -- optional, for reminders and report mail
name: pbem
on:
  pull_request:
    branches: [main]
  push:
    branches: [main]
  schedule:
    - cron: "17 * * * *"
  workflow_dispatch: {{}}
permissions:
  contents: read
jobs:
  validate:
    if: github.event_name == 'pull_request'
    runs-on: ubuntu-latest
    # a request's checks wait only for an earlier run of the same request, never for adjudication
    concurrency:
      group: pbem-{game_id}-validate-${{{{ github.ref }}}}
      cancel-in-progress: true
    steps:
      - uses: actions/checkout@v5
        with:
          fetch-depth: 0
          ref: ${{{{ github.event.pull_request.head.sha }}}}
      - uses: actions/setup-python@v6
        with:
          python-version: "3.11"
      - name: Install pbem
        run: {install}
      - name: Validate the orders
        env:
          PBEM_BASE: origin/${{{{ github.base_ref }}}}
        run: |
{_indent(VALIDATE_SCRIPT, 10)}  advance:
    if: github.event_name != 'pull_request'
    runs-on: ubuntu-latest
    # one adjudication of this game at a time, and one in progress is never cancelled
    concurrency:
      group: pbem-{game_id}-advance
      cancel-in-progress: false
    permissions:
      contents: write
    steps:
      - uses: actions/checkout@v5
        with:
          fetch-depth: 0
          ref: main
      - uses: actions/setup-python@v6
        with:
          python-version: "3.11"
      - name: Install pbem
        run: {install}
      - name: Mail settings from the secret store
        env:
          PBEM_MAIL_CONFIG_YAML: ${{{{ secrets.PBEM_MAIL_CONFIG_YAML }}}}
        run: |
          if [ -n "$PBEM_MAIL_CONFIG_YAML" ]; then
            mkdir -p "$RUNNER_TEMP/pbem" && printf '%s\\n' "$PBEM_MAIL_CONFIG_YAML" > "$RUNNER_TEMP/pbem/mail.yaml"
            echo "PBEM_MAIL_CONFIG=$RUNNER_TEMP/pbem/mail.yaml" >> "$GITHUB_ENV"
          fi
      - name: Adjudicate, apply deadlines, push
        env:
          PBEM_DICE_SECRET: ${{{{ secrets.PBEM_DICE_SECRET }}}}
          {per_game}: ${{{{ secrets.{per_game} }}}}
          PBEM_SMTP_PASSWORD: ${{{{ secrets.PBEM_SMTP_PASSWORD }}}}
          PBEM_PUSH_URL: origin
        run: |
{_indent(ADVANCE_SCRIPT, 10)}  site:
    # The game's site on GitHub Pages (Settings > Pages > Source: GitHub Actions).
    needs: advance
    runs-on: ubuntu-latest
    permissions:
      contents: read
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: ${{{{ steps.deploy.outputs.page_url }}}}
    steps:
      - uses: actions/checkout@v5
        with:
          fetch-depth: 0
          ref: main
      - uses: actions/setup-python@v6
        with:
          python-version: "3.11"
      - name: Install pbem
        run: {install}
      - name: Build the game's site
        env:
          PBEM_SITE_DIR: _site
        run: |
{_indent(SITE_SCRIPT, 10)}      - uses: actions/upload-pages-artifact@v5
        with:
          path: _site
      - id: deploy
        uses: actions/deploy-pages@v5
"""


def gitlab_pipeline(game_id: str, install: str) -> str:
    per_game = env_var_for(game_id)
    return f"""\
# pbem: validate orders in merge requests; adjudicate and apply deadlines on main.
# Written by `pbem init-ci gitlab`; see docs/hosting.md.  CI/CD variables (masked, protected):
#   PBEM_DICE_SECRET (or {per_game}) -- the dice secret, only for committed dice
#   PBEM_PUSH_TOKEN -- a project access token with write_repository, to push the adjudication
#   PBEM_MAIL_CONFIG (a File variable), PBEM_SMTP_PASSWORD -- optional, for reminders and report mail
# Add a pipeline schedule (CI/CD > Schedules, e.g. hourly) on main so deadlines are applied.
default:
  image: python:3.11-slim
  before_script:
    - apt-get update -qq && apt-get install -y -qq git > /dev/null
    - {install}
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH == "main"
validate:
  stage: test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
  variables:
    GIT_DEPTH: "0"
    PBEM_BASE: origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME
  script:
    - git fetch -q origin "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME:refs/remotes/origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
    - |
{_indent(VALIDATE_SCRIPT, 6)}advance:
  stage: deploy
  resource_group: pbem-{game_id}-advance
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
  variables:
    GIT_DEPTH: "0"
  script:
    - git checkout -q -B main "$CI_COMMIT_SHA"
    - export PBEM_PUSH_URL="https://oauth2:${{PBEM_PUSH_TOKEN}}@${{CI_SERVER_HOST}}/${{CI_PROJECT_PATH}}.git"
    - |
{_indent(ADVANCE_SCRIPT, 6)}pages:
  # The game's site on GitLab Pages, built from main after the adjudication was pushed.
  stage: .post
  needs: [advance]
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
  variables:
    GIT_DEPTH: "0"
    PBEM_SITE_DIR: public
  script:
    - |
{_indent(SITE_SCRIPT, 6)}  artifacts:
    paths: [public]
"""


@dataclass(frozen=True)
class InstallChoice:
    """How CI gets pbem: the shell command, what it installs, and files to commit with the game."""

    command: str
    what: str
    files: tuple[Path, ...] = ()


def install_choice(game_dir: Path, requirement: str | None) -> InstallChoice:
    """What the workflow installs, from what exists: the requirement the host names; else this
    pbem at the exact commit of its own public repository (when it is a pushed git checkout); else
    a wheel of this pbem, written into the game's `.ci/` folder for the host to commit. pbem is not
    on the package index, so `pbem==<version>` would fail every run."""
    import shlex
    import subprocess

    if requirement:
        return InstallChoice(f"python -m pip install --quiet {shlex.quote(requirement)}", f"the requirement {requirement!r}")
    source = Path(__file__).resolve().parents[2]
    if (source / ".git").exists() and (source / "pyproject.toml").is_file():
        def git(*args: str) -> str:
            run = subprocess.run(["git", "-C", str(source), *args], capture_output=True, text=True)
            return run.stdout.strip() if run.returncode == 0 else ""

        remote, commit = git("remote", "get-url", "origin"), git("rev-parse", "HEAD")
        pushed = commit and git("branch", "-r", "--contains", commit)
        if remote.startswith(("https://", "git@", "ssh://")) and pushed and not git("status", "--porcelain", "--untracked-files=no"):
            url = remote if remote.startswith("https://") else remote
            req = f"pbem @ git+{url}@{commit}"
            return InstallChoice(f"python -m pip install --quiet {shlex.quote(req)}", f"pbem at commit {commit[:12]} of {remote}")
    if not (source / "pyproject.toml").is_file():
        raise GameError("this pbem is installed from a wheel without its sources: pass --install REQUIREMENT "
                        "(e.g. a wheel URL or 'pbem @ git+https://.../pbem@TAG') so CI installs the same version")
    wheel_dir = Path(game_dir) / ".ci"
    wheel_dir.mkdir(exist_ok=True)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheel_dir), str(source)],
                           capture_output=True, text=True)
    wheels = sorted(wheel_dir.glob(f"pbem-{__version__}-*.whl"))
    if built.returncode != 0 or not wheels:
        raise GameError(f"could not build a wheel of pbem for CI ({built.stderr.strip()[-500:]}); pass --install REQUIREMENT")
    wheel = wheels[-1].relative_to(game_dir)
    return InstallChoice(f"python -m pip install --quiet ./{wheel.as_posix()}", f"the wheel {wheel.as_posix()} (commit it with the workflow)",
                         (wheels[-1],))


def write_ci(game_dir: Path, forge: str, *, install: str | None = None, force: bool = False) -> tuple[Path, InstallChoice]:
    """Write the forge's CI file into the game's work tree (the host reviews and commits it)."""
    if forge not in FORGES:
        raise GameError(f"unknown forge {forge!r}; choose {', '.join(FORGES)}")
    game = Game(game_dir)
    if game.repo.bare:
        raise GameError(f"{game_dir} is a bare repository; write the CI file in a clone with a work tree")
    target = Path(game_dir) / TARGETS[forge]
    choice = install_choice(Path(game_dir), install)
    text = (github_workflow if forge == "github" else gitlab_pipeline)(game.config.game, choice.command)
    if target.exists() and not force and target.read_text(encoding="utf-8") != text:
        raise GameError(f"{target} exists; pass --force to replace it")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target, choice
