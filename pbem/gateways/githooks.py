"""Play by `git push`: hooks for a bare game repository on the host's server.

`pbem serve init game.git` installs two hooks:

- **pre-receive** refuses, with the validator's own messages (the player reads them in the
  `git push` output), any push that is not exactly: fast-forward commits on `main`, each signed
  with an SSH key that the game's `allowed_signers` file (as it is on main *before* the push, so
  nobody can add their own key) gives to a player, each touching only that player's files -- the
  orders of the power to move, or a standing-orders file of a power they play -- and leaving
  every such file valid.  Merges are refused (`git pull --rebase` instead), as is anything else.
- **post-receive** adjudicates when the power to move has orders in, committing the new state and
  report onto main (GameRepo works on bare repositories), prints the report to the pusher and,
  if a mail configuration is found ($PBEM_MAIL_CONFIG or ~/.config/pbem/mail.yaml), mails it to
  every player.

Two players pushing at the same moment: git itself lets only one ref update win (compare and swap
on `main`).  So that the loser reads a clear sentence rather than git's "cannot lock ref", the
pre-receive hook also takes a short lease on main: the second of two concurrent pushes from the
same starting point is refused with "another push was accepted first: git pull --rebase, then
push again".  A lease lapses as soon as main moves, or after LEASE_SECONDS.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from pbem.engine.problems import ProblemsError
from pbem.engine.words import possessive
from pbem.game.game import Game, GameError, orders_path, standing_path
from pbem.game.repo import GameRepo, RepoError

SIGNERS_FILE = "allowed_signers"
LEASE_FILE = "pbem-push.lease"
LEASE_SECONDS = 60.0
BRANCH_REF = "refs/heads/main"
ZERO = "0" * 40
HOOK_MARK = "# installed by pbem serve init"


class PushRejected(Exception):
    """A push the game refuses; the message is shown to the player as is."""


@dataclass(frozen=True)
class RefUpdate:
    old: str
    new: str
    ref: str


def _is_ancestor(git_dir: Path, old: str, new: str) -> bool:
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX")}
    return subprocess.run(["git", f"--git-dir={git_dir}", "merge-base", "--is-ancestor", old, new],
                          capture_output=True, env=env, check=False).returncode == 0


def _git(git_dir: Path, *args: str, check: bool = True, extra_config: tuple[str, ...] = ()) -> str:
    """git on the bare repository, keeping the push's quarantine (GIT_OBJECT_DIRECTORY and friends)."""
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX")}
    env.update(LC_ALL="C", GIT_TERMINAL_PROMPT="0")
    config: list[str] = []
    for item in extra_config:
        config += ["-c", item]
    result = subprocess.run(["git", *config, f"--git-dir={git_dir}", *args], capture_output=True, env=env, check=False)
    if check and result.returncode != 0:
        raise RepoError(f"git {args[0]} failed: {result.stderr.decode('utf-8', 'replace').strip()}")
    return result.stdout.decode("utf-8", "replace")


# ------------------------------------------------------------------ installing
def install(bare: Path, allowed_signers: Path | None = None) -> list[str]:
    """Install the hooks (and optionally commit the allowed-signers file); returns what was done."""
    repo = GameRepo(bare)
    if not repo.bare:
        raise GameError(f"{bare} is not a bare repository; make one with `git clone --bare GAME {bare}`")
    game = Game(bare)
    done: list[str] = []
    if allowed_signers is not None:
        text = allowed_signers.read_bytes()
        problems = _signer_line_problems(text.decode("utf-8", "replace"))
        if problems:
            raise GameError("\n".join(f"{allowed_signers}:{p}" for p in problems))
        principals = _principals(text.decode("utf-8", "replace"))
        players = {e.lower() for e in game.config.players.values() if e}
        strangers = sorted(p for p in principals if p.lower() not in players)
        if strangers:
            raise GameError(f"{allowed_signers}: {', '.join(strangers)} play no power in {game.config.game}")
        if repo.read(SIGNERS_FILE) != text:
            repo.commit({SIGNERS_FILE: text}, "Allowed signers: the players' SSH keys for signed pushes",
                         {"Phase": "hosting"})
            done.append(f"committed {SIGNERS_FILE} ({len(principals)} key{'s' if len(principals) != 1 else ''})")
    elif repo.read(SIGNERS_FILE) is None:
        raise GameError(f"the game has no {SIGNERS_FILE} file: pass --allowed-signers FILE, one line per key: "
                        "EMAIL namespaces=\"git\" ssh-ed25519 AAAA...")
    hooks = repo.git_dir / "hooks"
    hooks.mkdir(exist_ok=True)
    for name in ("pre-receive", "post-receive", "reference-transaction"):
        path = hooks / name
        if path.exists() and HOOK_MARK not in path.read_text(errors="replace"):
            raise GameError(f"{path} exists and was not written by pbem; move it away first")
        run = f"exec {shlex.quote(sys.executable)} -m pbem.gateways.githooks {name} \"$@\"\n"
        if name == "reference-transaction":  # called for every ref update: start Python only when it matters
            run = f'case "$1" in aborted|committed) {run.strip()} ;; esac\ncat >/dev/null\nexit 0\n'
        path.write_text(f"#!/bin/sh\n{HOOK_MARK}: run pbem's {name} checks for this game\n{run}", encoding="utf-8")
        path.chmod(0o755)
        done.append(f"installed {name} hook")
    for key, value in (("receive.denyNonFastForwards", "true"), ("receive.denyDeletes", "true"),
                       ("receive.fsckObjects", "true")):
        _git(repo.git_dir, "config", key, value)
    done.append("refused non-fast-forward pushes and deletions")
    return done


_KEY_TYPES = ("ssh-ed25519", "ssh-rsa", "ssh-dss", "ecdsa-sha2-", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-")


def _signer_line_problems(text: str) -> list[str]:
    """Lines of an allowed-signers file without a key: git would ignore them and refuse that player's
    every signed push, so say so now ("LINE:1: what is wrong")."""
    problems = []
    for n, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        at = next((i for i, w in enumerate(words) if i > 0 and w.startswith(_KEY_TYPES)), None)
        if at is None or at + 1 >= len(words):
            problems.append(f"{n}:1: no SSH public key on this line; write it as "
                            f'EMAIL namespaces="git" ssh-ed25519 AAAA... (the contents of the player\'s .pub file)')
    return problems


def _principals(text: str) -> list[str]:
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.extend(p for p in line.split()[0].split(",") if p)
    return out


# ------------------------------------------------------------------ pre-receive
def pre_receive(git_dir: Path, updates: list[RefUpdate], now: float) -> list[str]:
    """Check a push; returns lines for the pusher, raises PushRejected to refuse it."""
    for u in updates:
        if u.ref != BRANCH_REF:
            raise PushRejected(f"only main takes pushes in a pbem game, not {u.ref}: commit your orders on main")
        if u.new == ZERO:
            raise PushRejected("main cannot be deleted")
        if u.old == ZERO:
            raise PushRejected("main already exists here: fetch it and commit on top")
    if not updates:
        return []
    (update,) = updates
    game = Game(git_dir)
    if game.repo.head() != update.old:
        raise PushRejected("main moved since you fetched (another player pushed first): git pull --rebase, then push again")
    if not _is_ancestor(git_dir, update.old, update.new):
        raise PushRejected("this push would rewrite main's history (a force-push, or commits already on the server "
                           "amended or rebased): a game's history only grows. git pull --rebase, then push again")
    merges = [line for line in _git(git_dir, "rev-list", "--parents", f"{update.old}..{update.new}").splitlines()
              if len(line.split()) > 2]
    if merges:
        raise PushRejected(f"merge commit {merges[0].split()[0][:10]}: a game's history is a single line; "
                           "use git pull --rebase, then push again")
    signers = game.repo.read(SIGNERS_FILE)
    if signers is None:
        raise PushRejected(f"this game has no {SIGNERS_FILE} file yet; ask the host")
    from pbem.gateways.hosting import current_players, powers_of

    players = current_players(game)
    state = game.state()
    to_move = game.power_to_move(state)
    turn_file = orders_path(state, game.ruleset)
    touched: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="pbem-signers-") as tmp:
        signers_path = Path(tmp) / SIGNERS_FILE
        signers_path.write_bytes(signers)
        log = _git(git_dir, "log", "--format=%H%x00%G?%x00%GS", f"{update.old}..{update.new}",
                   extra_config=("gpg.format=ssh", f"gpg.ssh.allowedSignersFile={signers_path}"))
    for line in log.splitlines():
        sha, status, signer = (line.split("\x00") + ["", ""])[:3]
        if status != "G":
            raise PushRejected(f"commit {sha[:10]} is not signed with a key in the game's {SIGNERS_FILE} "
                               f"(signature status {status or 'none'}): sign your commits (git commit -S, gpg.format=ssh)")
        mine = powers_of(players, signer)
        if not mine:
            raise PushRejected(f"commit {sha[:10]} is signed by {signer}, who plays no power in this game")
        from pbem.game.reveal import chain_path

        allowed = {standing_path(p): p for p in mine}
        allowed.update({chain_path(p): p for p in mine})  # dice chains and reveals (`pbem ack`)
        if to_move in mine:
            allowed[turn_file] = to_move
        for path in _git(git_dir, "diff-tree", "--no-commit-id", "--name-only", "-r", sha).splitlines():
            if path not in allowed:
                plays = f"; {signer} plays {', '.join(sorted(mine))}"
                if path == turn_file:
                    hint = f"{plays}, and it is {possessive(to_move)} turn: only {to_move} writes {turn_file}"
                elif path.startswith("orders/"):
                    hint = f"{plays}; the orders for this turn go in {turn_file} (it is {possessive(to_move)} turn)"
                else:
                    hint = plays
                raise PushRejected(f"commit {sha[:10]} by {signer} changes {path}, which is not theirs to change{hint}")
            touched[path] = allowed[path]
    warnings: list[str] = []  # what `pbem validate` would warn of in the files accepted: told in the push output
    for path, power in sorted(touched.items()):
        text = game.repo.read(path, update.new)
        if text is None:
            raise PushRejected(f"{path} cannot be deleted")
        if path.startswith("dice/"):
            _check_chain_change(game, path, power, game.repo.read(path, update.old), text)
            continue
        try:
            parsed, result = game.check(text, path)
        except ProblemsError as err:
            n = len(err.problems)
            raise PushRejected("\n".join([*(p.format() for p in err.problems),
                                          f"{n} problem{'s' if n != 1 else ''} found; the push was refused."])) from None
        except GameError as err:
            raise PushRejected(f"{path}: {err}") from None
        if parsed.power != power:
            raise PushRejected(f"{path} holds orders for {parsed.power}, but the file is {possessive(power)}")
        warnings += [w.format() for w in (result.warnings if result is not None else ())]
    _take_lease(git_dir, update, now)
    return [*warnings, f"pbem: accepted {', '.join(sorted(touched)) or 'no game files'}"]


def _check_chain_change(game: Game, path: str, power: str, old: bytes | None, new: bytes) -> None:
    """A power's dice chain only ever grows: same anchor, earlier reveals untouched, each new link
    hashing to the one before it. Whether a reveal's seal matches is checked at adjudication."""
    from pbem import dice
    from pbem.io.yamlfile import load_yaml

    try:
        after = load_yaml(new, path, expect_mapping=True).data
        before = load_yaml(old, path, expect_mapping=True).data if old is not None else None
    except ProblemsError as err:
        raise PushRejected("\n".join(p.format() for p in err.problems)) from None
    if after.get("power") != power:
        raise PushRejected(f"{path} is {possessive(power)} dice chain, but it says power: {after.get('power')!r}")
    reveals = after.get("reveals") or []
    if before is not None:
        kept = before.get("reveals") or []
        if (after.get("anchor"), after.get("chain_length")) != (before.get("anchor"), before.get("chain_length")) \
                or reveals[:len(kept)] != kept:
            raise PushRejected(f"{path}: a dice chain's anchor and earlier reveals never change; only new reveals are added")
    previous = str(after.get("anchor"))
    last_index = 0
    for r in reveals:
        steps = int(r.get("index", 0)) - last_index
        if steps < 1 or not dice.verify_link(str(r.get("link")), previous, steps):
            raise PushRejected(f"{path}: the link revealed as number {r.get('index')} does not hash to the one before it")
        previous, last_index = str(r.get("link")), int(r["index"])


def _take_lease(git_dir: Path, update: RefUpdate, now: float) -> None:
    lease = git_dir / LEASE_FILE
    try:
        with FileLock(str(git_dir / (LEASE_FILE + ".lock")), timeout=10):
            if lease.exists():
                parts = lease.read_text().split()
                if len(parts) == 3 and parts[0] == update.old and parts[1] != update.new and now - float(parts[2]) < LEASE_SECONDS:
                    raise PushRejected("another push was accepted first while yours was checked: "
                                       "git pull --rebase, then push again")
            tmp = lease.with_suffix(".tmp")
            tmp.write_text(f"{update.old} {update.new} {now}\n")
            os.replace(tmp, lease)
    except Timeout:
        raise PushRejected("the game is busy; push again in a moment") from None


# ------------------------------------------------------------------ post-receive
def post_receive(git_dir: Path, updates: list[RefUpdate]) -> list[str]:
    """After an accepted push: release the lease, adjudicate a complete turn, report it."""
    from pbem.gateways.turns import adjudicate_ready
    from pbem.report.render import render_report

    lease = git_dir / LEASE_FILE
    if lease.exists() and any(lease.read_text().split()[1:2] == [u.new] for u in updates):
        lease.unlink(missing_ok=True)
    out: list[str] = []
    for adj in adjudicate_ready(git_dir):
        out.append(f"pbem: adjudicated round {adj.round}, {adj.power}, as commit {adj.sha[:10]}; git pull to get the report")
        out.extend(render_report(adj.report, "text").splitlines())
        out.extend(_mail_report(git_dir, adj))
    if not out:
        game = Game(git_dir)
        state = game.state()
        if not state.winner:
            from pbem.gateways.turns import waiting_for

            out.append(f"pbem: waiting for {waiting_for(game)}")
    return out


def _mail_report(git_dir: Path, adj: object) -> list[str]:
    from pbem.gateways.hosting import current_players
    from pbem.gateways.mailboxes import MailError, SmtpSender
    from pbem.gateways.mailconfig import default_config_path, load_mail_config
    from pbem.gateways.outbox import Outbox, QueuedSender, game_outbox
    from pbem.gateways.turns import player_addresses, report_message

    path = default_config_path()
    if not path.is_file():
        return []
    try:
        config = load_mail_config(path)
        game = Game(git_dir)
        message = report_message(game, adj, config.sender, player_addresses(current_players(game)))  # type: ignore[arg-type]
        message["Auto-Submitted"] = "auto-generated"
        sender = SmtpSender(config.smtp)
        queue = QueuedSender(sender)
        try:
            outbox = Outbox(game_outbox(git_dir))
            queue.flush(outbox)
            sent = queue.send(message, outbox)
        finally:
            sender.close()
    except (GameError, MailError, OSError) as err:
        return [f"pbem: the report could not be mailed ({err}); the host has been told"]
    if not sent:
        return ["pbem: the report waits in the game's outbox (the mail server did not take it); the host's next "
                "`pbem mail poll` or `pbem tick` sends it"]
    return ["pbem: report mailed to every player"]


def reference_transaction(git_dir: Path, state: str, updates: list[RefUpdate]) -> None:
    """Release the push lease when git itself refuses or finishes the update of main (a lost race
    for the ref, a failed lock), so a refused push never blocks the next one for LEASE_SECONDS."""
    if state not in ("aborted", "committed"):
        return
    lease = git_dir / LEASE_FILE
    try:
        held = lease.read_text().split()
    except OSError:
        return
    if any(u.ref == BRANCH_REF and held[1:2] == [u.new] for u in updates):
        lease.unlink(missing_ok=True)


def _read_updates(stdin: str) -> list[RefUpdate]:
    return [RefUpdate(*line.split()[:3]) for line in stdin.splitlines() if len(line.split()) >= 3]


def main(argv: list[str]) -> int:
    """Entry point of the installed hooks; prints for the pusher and never shows a traceback."""
    git_dir = Path(os.environ.get("GIT_DIR", ".")).resolve()
    updates = _read_updates(sys.stdin.read())
    hook = argv[0] if argv else ""
    if hook == "reference-transaction":
        try:  # never fails: a non-zero exit here would abort the ref update itself
            reference_transaction(git_dir, argv[1] if len(argv) > 1 else "", updates)
        except Exception:  # noqa: BLE001
            pass
        return 0
    try:
        if hook == "pre-receive":
            lines = pre_receive(git_dir, updates, time.time())
        elif hook == "post-receive":
            lines = post_receive(git_dir, updates)
        else:
            print(f"pbem hook: unknown hook {hook!r}", file=sys.stderr)
            return 2
    except PushRejected as err:
        print(f"pbem: push refused:\n{err}", file=sys.stderr)
        return 1
    except (GameError, RepoError, ProblemsError, OSError) as err:
        print(f"pbem: {hook} failed: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # noqa: BLE001 -- a player must see a sentence, the host the cause
        print(f"pbem: {hook} failed unexpectedly ({type(err).__name__}: {err}); tell the host", file=sys.stderr)
        return 1
    for line in lines:
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
