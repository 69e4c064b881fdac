"""`pbem audit`: replay a game's whole history and prove every turn; `pbem luck`: the dice statistics.

The audit trusts nothing but the first commit's game.yaml and the pbem code.  It walks branch main
from its first commit and checks:

- the first commit creates game.yaml and state.yaml, and that state is the ruleset's initial state;
- game.yaml never changes, and its ruleset hash is the loaded ruleset's data hash;
- adjudications are numbered 1, 2, 3... (`Pbem-Dice-Index`), so an inserted or removed one shows;
- each revealed dice link hashes to the previous one (committed mode; link 0 is the anchor), or is
  the link recomputed from the public seed (local mode);
- the orders adjudicated were valid against the state before them;
- with opponents' reveals, every reveal a turn used was made for exactly the orders and standing
  orders adjudicated (its seal), so nothing was changed once the dice could be known;
- adjudicating again with the same dice gives, byte for byte, the committed state and reports;
  the replayed reports carry the pbem version the committed ones name, so a game made by an
  older pbem audits clean where nothing but that label differs, and a turn that differs names
  both versions (an engine change, not only an edit, can explain it);
- an orders file never changes once adjudicated, and state and reports change only by adjudication;
- once the game has players' keys (`allowed_signers`), every commit that changes a power's orders,
  standing orders or dice chain is signed by a key the file committed before it gives to a player
  of that power. A signature covers the commit's parents, so a player's commit that a host amended,
  reordered or replayed elsewhere no longer verifies. Orders submitted by mail carry no signature;
  they are listed as vouched for by the host (`warnings`), not as failures.

Every turn is replayed from the state committed before it, so one tampered commit is reported
where it happened instead of making every later turn differ.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from pbem import __version__, dice
from pbem.game.game import GAME_FILE, STATE_FILE, Game, GameError, adjudication_files, idle_orders, orders_path, read_config
from pbem.game.repo import CommitInfo, GameRepo

#: paths an orders/standing-orders submission may change; everything else belongs to adjudications
# Files players and hosts commit between adjudications: orders, standing orders, dice chains, and
# the hosting files of the gateways (allowed signers for git push, forge CI workflows).
# files changed between adjudications: players' submissions, and the host's CI files (`pbem init-ci`
# writes the workflow and, for a pbem installed from sources, a wheel of it under .ci/)
_SUBMISSION_PREFIXES = ("orders/", "standing/", "dice/", "allowed_signers", ".github/", ".gitlab-ci.yml", ".ci/")


@dataclass(frozen=True)
class Finding:
    """One difference: the commit where it shows, the file concerned, what is wrong, a unified diff."""

    commit: str
    file: str
    message: str
    diff: str = ""

    def format(self, with_diff: bool = True) -> str:
        head = f"{self.commit[:12]} {self.file}: {self.message}"
        return head + ("\n" + self.diff if with_diff and self.diff else "")


@dataclass(frozen=True)
class TurnAudit:
    """One adjudication: its Dice-Index, where it is, and what (if anything) did not match."""

    index: int
    commit: str
    round: str
    power: str
    findings: tuple[Finding, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.findings

    def line(self) -> str:
        status = "ok" if self.ok else "MISMATCH: " + "; ".join(f"{f.file}: {f.message}" for f in self.findings)
        return f"turn {self.index:>3}  round {self.round:>2}  {self.power:<16} {self.commit[:12]}  {status}"


@dataclass
class AuditResult:
    """Everything the audit found; `ok` only when every check passed."""

    commits: int = 0
    turns: list[TurnAudit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # all findings, in history order
    warnings: list[str] = field(default_factory=list)  # what the audit cannot prove, e.g. unsigned mail submissions

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def first(self) -> Finding | None:
        return self.findings[0] if self.findings else None


def trailers(c: CommitInfo) -> dict[str, str]:
    """A commit's trailers without any leftover "Pbem-" prefix (game.py once wrote "Pbem-Pbem-Round")."""
    out = {}
    for k, v in c.trailers.items():
        while k.startswith("Pbem-"):
            k = k[len("Pbem-"):]
        out[k] = v
    return out


def unified(expected: bytes | None, actual: bytes | None, path: str) -> str:
    """A readable diff from what the replay produces to what the repository holds."""
    def lines(b: bytes | None) -> list[str]:
        return [] if b is None else b.decode("utf-8", "replace").splitlines(keepends=True)

    def binary(b: bytes | None) -> bool:
        if b is None:
            return False
        try:
            b.decode("utf-8")
        except UnicodeDecodeError:
            return True
        return b"\0" in b

    if binary(expected) or binary(actual):
        def size(b: bytes | None) -> str:
            return "absent" if b is None else f"{len(b):,} bytes"
        return f"binary file {path}: {size(expected)} replayed or before, {size(actual)} committed\n"
    out = "".join(difflib.unified_diff(lines(expected), lines(actual), f"replayed/{path}", f"committed/{path}", n=2))
    if len(out) > 6000:
        out = out[:6000] + "\n... (diff truncated)\n"
    return out


@dataclass
class Replay:
    """What adjudicating one turn again produces."""

    files: dict[str, bytes]
    dice_source: Any
    dice_info: dict[str, Any]
    orders_path: str
    orders_text: bytes | None
    problems: list[str]


def _notes(c: CommitInfo) -> list[str]:
    """Notes the adjudicator added to the report (a missed deadline, say), from their trailer."""
    raw = trailers(c).get("Note")
    return raw.split(" | ") if raw else []


def _opponents(c: CommitInfo) -> dict[str, str] | None:
    """The opponents' links an adjudication used (commit-reveal games), from its trailer."""
    from pbem.game.reveal import decode

    raw = trailers(c).get("Dice-Opponents")
    return None if raw is None else decode("" if raw == "none" else raw)


def replay_turn(game: Game, parent: str, index: int, link: str | None, extra_links: dict[str, str] | None = None,
                notes: list[str] | None = None, engine_version: str | None = None) -> Replay:
    """Adjudicate again the turn whose state is at commit `parent`, with the dice of adjudication `index`.

    Committed mode uses the revealed `link` (the secret stays with the adjudicator); local mode
    recomputes the link with `Game.dice_for_turn`.  The files are made as `Game.adjudicate` makes them,
    their reports labelled with `engine_version` when given (the pbem that made the committed
    ones: the label says which engine ran, it does not follow from the orders and the dice).
    """
    from pbem.engine.orders import Orders
    from pbem.engine.problems import ProblemsError
    from pbem.engine.turn import run_turn
    from pbem.game.reportdata import build_report
    from pbem.io.orders import read_orders_text

    state_text = game.state_text(parent)
    state = game.parse_state(state_text)
    path = orders_path(state, game.ruleset)
    orders_text = game.repo.read(path, parent)
    empty = Replay({}, None, {}, path, orders_text, [])
    if state.winner:
        empty.problems.append(f"the game was already over (the {state.winner} won)")
        return empty
    if orders_text is None:
        empty.problems.append(f"no orders at {path} before the adjudication")
        return empty
    # the validation `pbem submit` did: parse, then a dice-free run must find no problem
    try:
        _, orders = read_orders_text(orders_text, path, game.ruleset)
    except ProblemsError as err:
        empty.problems.extend(p.format() for p in err.problems)
        return empty
    if not isinstance(orders, Orders):
        empty.problems.append("not an orders file")
        return empty
    if orders.game and orders.game != game.config.game:
        empty.problems.append(f"orders for game {orders.game!r}, this is {game.config.game!r}")
    standing = game.standing_orders(parent)
    check = run_turn(game.ruleset, game.rules, game.combat_rules, state, orders, standing, game.config.options, None)
    empty.problems.extend(p.message for p in check.problems)
    if empty.problems:
        return empty

    if game.config.dice["mode"] == "local":
        source, info = game.dice_for_turn(state_text, orders_text, index, extra_links)
    else:
        state_hash, orders_hash = dice.sha256_hex(state_text), dice.sha256_hex(orders_text)
        if link is None or not dice._is_hash(link):
            empty.problems.append(f"no usable dice link revealed ({link!r})")
            return empty
        source = dice.SeededDice(dice.turn_seed(link, state_hash, orders_hash, extra_links or {}), mode=dice.MODE_COMMITTED)
        info = {"mode": "committed", "link": link, "index": index, "state_hash": state_hash, "orders_hash": orders_hash,
                "opponents": dict(extra_links or {})}
    result = run_turn(game.ruleset, game.rules, game.combat_rules, state, orders, standing, game.config.options, source)
    if result.problems:
        empty.problems.extend(p.message for p in result.problems)
        return empty
    report = build_report(game, state, result, info, source)
    if notes:
        report["notes"] = [*report["notes"], *notes]
    if engine_version:
        report["game"] = dict(report["game"], engine_version=engine_version)
    files, _ = adjudication_files(game.ruleset, state, result.state, report, validate=False)
    return Replay(files, source, info, path, orders_text, [])


def _check_first(repo: GameRepo, first: CommitInfo, result: AuditResult) -> tuple[bytes | None, Any]:
    """The first commit: game.yaml, state.yaml, the ruleset and its hash.  Returns (game.yaml bytes, ruleset)."""
    from pbem.io.rulesets import load_ruleset
    from pbem.io.state import dump_state, initial_state

    add = result.findings.append
    if first.parents:
        add(Finding(first.sha, "-", "the history does not start at a root commit"))
    for f in (GAME_FILE, STATE_FILE):
        if f not in first.files_changed:
            add(Finding(first.sha, f, "the first commit does not create it"))
    config_raw = repo.read(GAME_FILE, first.sha)
    if config_raw is None:
        return None, None
    try:
        config = read_config(config_raw)
        ruleset = load_ruleset(config.ruleset)
    except Exception as err:  # a broken game.yaml or unknown ruleset is a finding, not a crash
        add(Finding(first.sha, GAME_FILE, f"unreadable: {err}"))
        return config_raw, None
    if ruleset.data_hash != config.ruleset_hash:
        add(Finding(first.sha, GAME_FILE, f"ruleset_hash {config.ruleset_hash[:12]} is not the data hash {ruleset.data_hash[:12]} "
                    f"of the {ruleset.id} ruleset loaded: the ruleset changed under this game (use {config.engine})"))
        return config_raw, None
    from pbem.io.rulesets import rules_for

    expected = dump_state(initial_state(ruleset, config.options, rules_for(ruleset)[0]), ruleset).encode()
    actual = repo.read(STATE_FILE, first.sha)
    if actual != expected:
        add(Finding(first.sha, STATE_FILE, "the first state is not the ruleset's initial state", unified(expected, actual, STATE_FILE)))
    return config_raw, ruleset


def audit_game(path: str | Path) -> AuditResult:
    """Walk branch main from its first commit and check every commit; see the module docstring."""
    repo = GameRepo(Path(path))
    with repo.batch_reads():  # a few files of every commit: one git process, not one per read
        return _audit(path, repo)


def _audit(path: str | Path, repo: GameRepo) -> AuditResult:
    result = AuditResult()
    history = repo.history()
    differs = repo.work_tree_differences()
    if differs:
        shown = ", ".join(differs[:8]) + (f" and {len(differs) - 8} more" if len(differs) > 8 else "")
        result.warnings.append(f"the files in {repo.path.name}/ differ from the commit audited ({repo.branch} at "
                               f"{history[-1].sha[:12] if history else '?'}): {shown}. The audit checks the commits, "
                               "not these files; `git status` shows the changes")
    result.commits = len(history)
    if not history:
        result.findings.append(Finding("-" * 12, "-", "the game has no commits"))
        return result
    config_raw, ruleset = _check_first(repo, history[0], result)
    if config_raw is None or ruleset is None:
        return result  # nothing can be replayed without the game's own settings and ruleset
    try:
        game = Game(path)
    except GameError as err:
        result.findings.append(Finding(history[-1].sha, GAME_FILE, str(err)))
        return result
    with game.repo.batch_reads():
        _audit_history(game, repo, history, config_raw, result)
    return result


def _audit_history(game: Game, repo: GameRepo, history: list[CommitInfo], config_raw: bytes, result: AuditResult) -> None:
    """Every commit after the first, then the orders at the tip."""
    if game.repo.read(GAME_FILE) != config_raw:
        # replay with the first commit's settings, whatever HEAD says
        game.config = read_config(config_raw)
    mode = game.config.dice["mode"]
    previous_link = game.config.dice.get("anchor")
    adjudicated: dict[str, tuple[str, bytes | None]] = {}  # orders path -> (adjudication sha, bytes adjudicated)
    players = {p: (e or "").strip() for p, e in game.config.players.items()}
    expected_index = 1
    for c in history[1:]:
        add = result.findings.append
        if len(c.parents) != 1:
            add(Finding(c.sha, "-", f"a commit with {len(c.parents)} parents: a game's history is a single line"))
            continue
        parent = c.parents[0]
        if GAME_FILE in c.files_changed:
            add(Finding(c.sha, GAME_FILE, "game.yaml changed after the first commit", unified(config_raw, repo.read(GAME_FILE, c.sha), GAME_FILE)))
        for f in c.files_changed:
            if f in adjudicated:
                sha, text = adjudicated[f]
                add(Finding(c.sha, f, f"orders changed after they were adjudicated in {sha[:12]}", unified(text, repo.read(f, c.sha), f)))
        phase = trailers(c).get("Phase")
        if phase == "substitute" and trailers(c).get("Power") in players:
            players[trailers(c)["Power"]] = trailers(c).get("Player", "")
        if phase != "adjudication":
            if trailers(c).get("Idle"):
                _check_idle(game, c, parent, result)
            _check_signature(game, c, parent, players, result)
            for f in c.files_changed:
                if f != GAME_FILE and f not in adjudicated and not f.startswith(_SUBMISSION_PREFIXES):
                    add(Finding(c.sha, f, f"changed outside an adjudication (commit {c.subject!r})",
                                unified(repo.read(f, parent), repo.read(f, c.sha), f)))
            continue
        result.turns.append(_audit_adjudication(game, c, parent, expected_index, mode, previous_link, adjudicated, result))
        expected_index += 1
        if mode == "committed":
            previous_link = trailers(c).get("Dice-Link", previous_link)
    # belt and braces: every adjudicated orders file at HEAD is still what was adjudicated
    at_head = repo.read_many(list(adjudicated), history[-1].sha) if adjudicated else {}
    for f, (sha, text) in adjudicated.items():
        now = at_head[f]
        if now != text and not any(x.file == f for x in result.findings):
            result.findings.append(Finding(history[-1].sha, f, f"orders at HEAD differ from those adjudicated in {sha[:12]}", unified(text, now, f)))


def _file_owner(game: Game, path: str) -> str | None:
    """The power whose orders, standing orders or dice chain a path holds (None for other files)."""
    from pbem.game.game import slug

    parts = path.split("/")
    if parts[0] in ("standing", "dice") and len(parts) == 2:
        name = parts[1].removesuffix(".yaml")
    elif parts[0] == "orders" and len(parts) == 3:
        name = parts[2].removesuffix(".yaml").split("-", 1)[-1]
    else:
        return None
    return next((p.name for p in game.ruleset.powers if slug(p.name) == name), None)


def _check_signature(game: Game, c: CommitInfo, parent: str, players: dict[str, str], result: AuditResult) -> None:
    """A player's commit is signed by a key of that player, as the signers file before it says."""
    import subprocess
    import tempfile

    owners = {f: _file_owner(game, f) for f in c.files_changed}
    owners = {f: p for f, p in owners.items() if p is not None}
    if not owners:
        return
    signers = game.repo.read("allowed_signers", parent)
    if signers is None:
        return  # a game without players' keys: nothing to check against
    if trailers(c).get("Idle") and not any(x.sha == c.sha for x in result.findings):
        return  # the game's own empty orders for a power with nothing to order, checked by _check_idle
    if trailers(c).get("Missing-Orders"):
        result.warnings.append(f"{c.sha[:12]} {', '.join(sorted(owners))}: empty orders the host submitted after a missed deadline")
        return
    if trailers(c).get("Via") == "mail":
        result.warnings.append(f"{c.sha[:12]} {', '.join(sorted(owners))}: submitted by mail from "
                               f"{trailers(c).get('Submitted-By', '?')}, unsigned: the host vouches for the sender")
        return
    with tempfile.TemporaryDirectory(prefix="pbem-audit-signers-") as tmp:
        path = Path(tmp) / "allowed_signers"
        path.write_bytes(signers)
        out = subprocess.run(["git", f"--git-dir={game.repo.git_dir}", "-c", "gpg.format=ssh",
                              "-c", f"gpg.ssh.allowedSignersFile={path}", "log", "-1", "--format=%G?%x00%GS", c.sha],
                             capture_output=True, text=True, env={**__import__("os").environ, "LC_ALL": "C"})
    status, _, signer = out.stdout.strip().partition("\x00")
    for f, power in sorted(owners.items()):
        if status != "G":
            result.findings.append(Finding(c.sha, f, f"changes {possessive_of(power)} file but is not signed by a key in "
                                           f"allowed_signers (signature status {status or 'none'})"))
        elif (players.get(power) or "").lower() != signer.strip().lower():
            result.findings.append(Finding(c.sha, f, f"changes {possessive_of(power)} file but is signed by {signer}, "
                                           f"who does not play {power}"))


def _check_idle(game: Game, c: CommitInfo, parent: str, result: AuditResult) -> None:
    """Empty orders the game committed for a power with nothing to order (Game.pass_idle_turns):
    the power had indeed nothing to order, and they are those orders and nothing else."""
    from pbem.engine.idle import nothing_to_order

    state = game.state(parent)
    power = game.power_to_move(state)
    path = orders_path(state, game.ruleset)
    reason = nothing_to_order(game.ruleset, game.rules, state, game.config.options)
    why = None
    if reason is None:
        why = f"empty orders committed as if {power} had nothing to order, but it had units or IPCs it could spend"
    elif set(c.files_changed) != {path} or game.repo.read(path, c.sha) != idle_orders(game.config.game, power, state.round, reason):
        why = f"commits more than the empty orders of {power}, which had nothing to order"
    if why:
        result.findings.append(Finding(c.sha, path, why))


def possessive_of(name: str) -> str:
    from pbem.game.game import possessive

    return possessive(name)


def _engine_of(changed: dict[str, bytes | None]) -> str | None:
    """The pbem version an adjudication's committed report names, if it names one."""
    reports = [f for f in changed if f.startswith("reports/") and f.endswith(".json")]
    if len(reports) != 1:
        return None
    try:
        version = json.loads(changed[reports[0]] or b"null")["game"]["engine_version"]
    except (ValueError, TypeError, KeyError):
        return None  # an unreadable report: the comparison of the files says so
    return version if isinstance(version, str) and version else None


def _audit_adjudication(game: Game, c: CommitInfo, parent: str, expected_index: int, mode: str, previous_link: str | None,
                        adjudicated: dict[str, tuple[str, bytes | None]], result: AuditResult) -> TurnAudit:
    found: list[Finding] = []
    trailer_index = trailers(c).get("Dice-Index", "")
    if trailer_index != str(expected_index):
        found.append(Finding(c.sha, "Pbem-Dice-Index", f"is {trailer_index!r}, expected {expected_index}: an adjudication was inserted or removed"))
    if trailers(c).get("Dice-Mode") != mode:
        found.append(Finding(c.sha, "Pbem-Dice-Mode", f"is {trailers(c).get('Dice-Mode')!r}, game.yaml says {mode!r}"))
    link = trailers(c).get("Dice-Link")
    if mode == "committed" and not (link and previous_link and dice.verify_link(link, previous_link)):
        what = "the anchor" if expected_index == 1 else "the previous link"
        found.append(Finding(c.sha, "Pbem-Dice-Link", f"{(link or 'missing')[:16]}... does not hash to {what} {(previous_link or '?')[:16]}..."))
    changed = game.repo.read_many(list(c.files_changed), c.sha)  # what the commit wrote, in one call
    made_by = _engine_of(changed)
    try:
        replay = replay_turn(game, parent, expected_index, link, _opponents(c), _notes(c), made_by)
    except Exception as err:  # an unreadable state or orders file is a finding
        replay = Replay({}, None, {}, "?", None, [f"cannot replay: {err}"])
    if replay.orders_text is not None:
        adjudicated[replay.orders_path] = (c.sha, replay.orders_text)
    for p in replay.problems:
        found.append(Finding(c.sha, replay.orders_path, f"orders not valid against the state before: {p}"))
    if replay.files and game.config.dice.get("reveal") == "opponents":
        from pbem.game.reveal import encode, opponent_links

        state = game.state(parent)
        mover = game.power_to_move(state)
        expected = encode(opponent_links(game, state.round, mover, replay.dice_info["orders_hash"], deadline_passed=True, ref=parent))
        if (trailers(c).get("Dice-Opponents") or "none") != (expected or "none"):
            found.append(Finding(c.sha, "Pbem-Dice-Opponents", f"records {trailers(c).get('Dice-Opponents')!r}; the reveals committed before it give {expected or 'none'!r}"))
        from pbem.game.reveal import check_seals

        try:
            check_seals(game, state.round, mover, parent)
        except GameError as err:
            found.append(Finding(c.sha, "dice/", str(err)))
    if replay.files:
        if mode == "local" and link != replay.dice_info.get("link"):
            found.append(Finding(c.sha, "Pbem-Dice-Link", f"{(link or 'missing')[:16]}... is not the link {replay.dice_info['link'][:16]}... of the local seed"))
        unchanged = [f for f in replay.files if f not in changed]
        committed = changed | (game.repo.read_many(unchanged, c.sha) if unchanged else {})
        why = "differs from the replayed adjudication"
        if made_by and made_by != __version__:
            why += (f" (adjudicated by pbem {made_by}, replayed by pbem {__version__}: a change of engine can explain it; "
                    f"audit with pbem {made_by} to tell it from an edit)")
        for f, expected in replay.files.items():
            actual = committed[f]
            if actual != expected:
                found.append(Finding(c.sha, f, why, unified(expected, actual, f)))
        extra = [f for f in c.files_changed if f not in replay.files]
        for f in extra:
            found.append(Finding(c.sha, f, "changed by the adjudication commit but not by adjudicating",
                                 unified(game.repo.read(f, parent), changed.get(f), f)))
    result.findings.extend(found)
    return TurnAudit(expected_index, c.sha, trailers(c).get("Round", "?"), trailers(c).get("Power", "?"), tuple(found))


# --- one turn in detail --------------------------------------------------------------------------

def explain_turn(path: str | Path, index: int) -> dict[str, Any]:
    """Adjudication number `index` (its Dice-Index): every die with its stream label, and the casualties."""
    game = Game(path)
    adjudications = [c for c in game.repo.history() if trailers(c).get("Phase") == "adjudication"]
    if not 1 <= index <= len(adjudications):
        raise GameError(f"there is no turn {index}: the game has {len(adjudications)} adjudication(s)")
    c = adjudications[index - 1]
    made_by = _engine_of(game.repo.read_many(list(c.files_changed), c.sha))  # as `audit_game` replays it
    replay = replay_turn(game, c.parents[0], index, trailers(c).get("Dice-Link"), _opponents(c), _notes(c), made_by)
    if replay.problems:
        raise GameError(f"turn {index} cannot be replayed: " + "; ".join(replay.problems))
    json_path = next(f for f in replay.files if f.endswith(".json"))
    raw = game.repo.read(json_path, c.sha)
    report = json.loads(raw) if raw else {}
    casualties = []
    for b in report.get("battles", []):
        for r in b.get("rounds", []):
            for step in r.get("steps", []):
                for cas in step.get("casualties", []):
                    casualties.append({"space": b["space"], "round": r["number"], "step": f"{step['step']} fire", **cas})
        # and the losses no die chose: defenceless units removed by a rule, cargo of a sunk ship
        for cas in b.get("removed", []):
            casualties.append({"space": b["space"], "step": "no dice", **cas})
        last = max((r["number"] for r in b.get("rounds", [])), default=0)
        for cas in b.get("lost_aboard", []):
            casualties.append({"space": b["space"], "round": last, "step": f"aboard the sunk {cas['aboard']}", "power": cas["power"],
                               "unit": cas["unit"], "count": cas["count"], "damaged": False, "chosen_by": "rule"})
    return {
        "turn": index, "commit": c.sha, "round": trailers(c).get("Round"), "power": trailers(c).get("Power"),
        "dice": {k: v for k, v in replay.dice_info.items()},
        "rolls": [{"label": r.label, "values": list(r.values)} for r in replay.dice_source.log],
        "casualties": casualties,
        "matches": all(game.repo.read(f, c.sha) == b for f, b in replay.files.items()),
    }


# --- luck ----------------------------------------------------------------------------------------

def luck_records(path: str | Path) -> list[Any]:
    """One LuckRecord per dice group of every battle and raid, from the committed report JSON files, in play order."""
    repo = GameRepo(Path(path))
    reports = [(c.sha, f) for c in repo.history() if trailers(c).get("Phase") == "adjudication"
               for f in c.files_changed if f.startswith("reports/") and f.endswith(".json")]
    with repo.batch_reads():  # a report per power-turn: one git process, not two per report
        texts = [repo.read(f, sha) for sha, f in reports]  # each as its adjudication committed it
    return [r for raw in texts if raw is not None for r in report_luck_records(json.loads(raw))]


def report_luck_records(report: Mapping[str, Any]) -> list[Any]:
    """The LuckRecords of one turn report: every battle's dice groups, then every raid's rolls (the
    guns' and the air battle's aim at a number; the damage dice have none, hit on 0: they count in the
    face test, not in hits).  `pbem luck` and the game site both count these."""
    from pbem.game.luck import LuckRecord

    records = []
    for b in report.get("battles", []):
        name = f"round {report.get('round')} {report.get('power')}: {b['space']}"
        for r in b.get("rounds", []):
            for step in r.get("steps", []):
                for g in step.get("groups", []):
                    values = tuple(g.get("dice") or ())
                    if values:
                        hit_on = max(0, min(6, int(g["hit_on"])))
                        # allies defending together roll together: the dice are theirs jointly
                        who = " and ".join(step["powers"]) if step.get("powers") else step["power"]
                        records.append(LuckRecord(who, name, values, (hit_on,) * len(values)))
    for raid in report.get("bombing", []):
        name = f"round {report.get('round')} {report.get('power')}: raid on {raid['space']}"
        for roll in raid.get("rolls", []):
            values = tuple(roll.get("dice") or ())
            if values:
                who = raid["attacker"] if roll.get("side") == "attacker" else raid["defender"]
                hit_on = 0 if roll["step"] == "damage" else max(0, min(6, int(roll["hit_on"])))
                records.append(LuckRecord(who, name, values, (hit_on,) * len(values)))
    return records


def luck_data(path: str | Path) -> dict[str, Any]:
    """The luck report of the whole game as plain data (what `pbem luck --json` prints)."""
    from pbem.game.luck import luck_report

    rep = luck_report(luck_records(path))

    def t(x: Any) -> dict[str, Any]:
        return {"dice": x.dice, "expected_hits": round(x.expected, 3), "actual_hits": x.actual, "luck": round(x.luck, 3), "z": round(x.z, 3)}

    return {
        "powers": [{"power": p.power, **t(p.tally)} for p in rep.powers],
        "battles": [{"battle": b.battle, "power": b.power, **t(b.tally)} for b in rep.battles],
        "total": t(rep.total),
        "faces": {"counts": list(rep.faces.counts), "total": rep.faces.total, "chi_square": round(rep.faces.chi_square, 4),
                  "dof": rep.faces.dof, "p_value": round(rep.faces.p_value, 4), "reliable": rep.faces.reliable},
    }
