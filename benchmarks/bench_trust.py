"""Trust figures: fuzzed inputs and crashes, SIGKILL trials and what they broke, concurrent submissions lost.

Prints figures; asserts nothing (the tests assert each defect's fix; this measures at volume).  Every
figure that should be zero is printed with its aim, so a regression is one line to read:

    inputs fuzzed (property-based): orders N, standing orders N, game files N, mail messages N
    inputs fuzzed (coverage-guided): N executions; crashes 0
    SIGKILL trials: N (submit a, adjudicate b, poll c); unreadable 0, half-done 0, audit failing 0
    concurrent submissions: git N over G games, lost 0; mail N over G games, lost 0

Run: python benchmarks/bench_trust.py            (the issue's volumes: >= 10^5 inputs, >= 100 kills,
                                                  >= 100 submissions per game; about half an hour)
     python benchmarks/bench_trust.py --quick    (a few minutes, the same checks at small volume)
The coverage-guided part needs atheris (`pip install atheris`); without it that line says so.
"""

from __future__ import annotations

import argparse
import email.policy
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
ROUND_ONE = ROOT / "examples" / "1942-2e" / "round-01"
PBEM = [sys.executable, "-m", "pbem"]
ADJUDICATOR = "orders@league.test"
PLAYERS = {
    "Soviet Union": "ivan@players.test",
    "Germany": "anna@players.test",
    "United Kingdom": "winston@players.test",
    "Japan": "kenji@players.test",
    "United States": "frank@players.test",
}
POWER_FILES = {p: f for p, f in zip(PLAYERS, sorted(ROUND_ONE.glob("*.yaml")))}


def pbem(*args: str | Path, check: bool = False, env: dict[str, str] | None = None,
         timeout: float = 300) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([*PBEM, *map(str, args)], capture_output=True, text=True, timeout=timeout,
                            env=env, stdin=subprocess.DEVNULL)
    if check and result.returncode != 0:
        raise RuntimeError(f"pbem {' '.join(map(str, args))} failed:\n{result.stdout}\n{result.stderr}")
    return result


def new_game(path: Path, game_id: str = "demo") -> None:
    pbem("new", path, "--id", game_id, "--dice", "local", "--seed", "pbem-demo",
         *[x for power, mail in PLAYERS.items() for x in ("--player", f"{power}={mail}")], check=True)


# --------------------------------------------------------------------------------------------- fuzzing


@dataclass
class FuzzTally:
    counts: Counter[str] = field(default_factory=Counter)
    crashes: list[str] = field(default_factory=list)

    def run(self, kind: str, call: Callable[[], object], expected: tuple[type[BaseException], ...]) -> None:
        self.counts[kind] += 1
        try:
            call()
        except expected as err:
            if not str(err):
                self.crashes.append(f"{kind}: {type(err).__name__} with an empty message")
        except Exception:  # noqa: BLE001 - a traceback is exactly what this counts
            self.crashes.append(f"{kind}: {traceback.format_exc(limit=6)}")


def fuzz_property_based(tally: FuzzTally, workdir: Path, per_kind: int) -> None:
    """Hypothesis-generated orders, standing orders, game files and mail messages, each fed to its reader."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from pbem.engine.problems import ProblemsError
    from pbem.game.game import Game, GameError, read_config
    from pbem.gateways import mailparse
    from pbem.io.state import load_state
    from tests.game.test_orders_fuzz import POWERS, UNITS, orders, space

    import yaml

    game_dir = workdir / "fuzz-game"
    new_game(game_dir, "fuzz")
    game = Game(game_dir)
    user_errors = (ProblemsError, GameError)
    run = settings(max_examples=per_kind, deadline=None, database=None,
                   suppress_health_check=list(HealthCheck))

    def dump(data: object) -> bytes:
        return yaml.safe_dump(data, allow_unicode=True).encode()

    policy = st.fixed_dictionaries({}, optional={
        "order_of_loss": st.one_of(st.lists(st.sampled_from(UNITS + ["x"]), max_size=4), st.text(max_size=8)),
        "hold_territory": st.one_of(st.booleans(), st.text(max_size=4)),
        "submerge": st.one_of(st.booleans(), st.text(max_size=5)),
        "intercept": st.one_of(st.booleans(), st.integers())})
    standing = st.fixed_dictionaries(
        {"power": st.one_of(st.sampled_from(POWERS), st.text(max_size=10))},
        optional={"standing_orders": st.fixed_dictionaries({}, optional={
            "default": policy, "territories": st.dictionaries(space, policy, max_size=3),
            "choices": st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=2)})})
    state_text = game.state_text()
    config_text = (game_dir / "game.yaml").read_bytes()

    def mutate(data: bytes, rnd: random.Random) -> bytes:
        out = bytearray(data)
        for _ in range(rnd.randint(1, 8)):
            at = rnd.randrange(len(out))
            choice = rnd.random()
            if choice < 0.4:
                out[at] = rnd.randrange(256)
            elif choice < 0.7:
                del out[at:at + rnd.randint(1, 40)]
            else:
                out[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 12)))
        return bytes(out)

    @run
    @given(data=orders)
    def fuzz_orders(data: dict) -> None:  # type: ignore[type-arg]
        tally.run("orders", lambda: game.check(dump(data), "fuzz.yaml"), user_errors)

    @run
    @given(data=standing)
    def fuzz_standing(data: dict) -> None:  # type: ignore[type-arg]
        tally.run("standing orders", lambda: game.check(dump(data), "standing.yaml"), user_errors)

    @run
    @given(seed=st.integers(min_value=0, max_value=2**32), which=st.booleans())
    def fuzz_game_files(seed: int, which: bool) -> None:
        rnd = random.Random(seed)
        if which:
            tally.run("game files", lambda: load_state(mutate(state_text, rnd), game.ruleset), user_errors + (ValueError,))
        else:
            tally.run("game files", lambda: read_config(mutate(config_text, rnd)), user_errors + (ValueError,))

    header = st.sampled_from(["From", "Subject", "Content-Type", "Content-Transfer-Encoding", "Date", "To",
                              "Message-ID", "List-Id", "Auto-Submitted", "Content-Disposition", "MIME-Version"])
    raw_line = st.binary(max_size=60).map(lambda b: b.replace(b"\n", b" ").replace(b"\r", b" "))
    message = st.builds(
        lambda hs, body: b"".join(h.encode() + b": " + v + b"\r\n" for h, v in hs) + b"\r\n" + body,
        st.lists(st.tuples(header, st.one_of(raw_line, st.sampled_from([
            b"text/plain; format=flowed; delsp=yes", b"quoted-printable", b"base64",
            b"multipart/mixed; boundary=x", b"attachment; filename=\xe9t\xe9.yaml", b"Mon, 32 Foo 99 25:61"]))),
            max_size=10),
        st.one_of(st.binary(max_size=400), st.sampled_from([
            b"--x\r\nContent-Type: text/plain\r\n\r\npower: Germany\r\n--x--\r\n",
            b"power: Germany = \r\nround: 1\r\n", b"cG93ZXI6IEdlcm1hbnkK\r\n"])))

    @run
    @given(raw=message)
    def fuzz_mail(raw: bytes) -> None:
        tally.run("mail messages", lambda: mailparse.parse_mail(raw), (ValueError,))

    for fuzz in (fuzz_orders, fuzz_standing, fuzz_game_files, fuzz_mail):
        fuzz()


ATHERIS_TARGET = r"""
import sys
import atheris
with atheris.instrument_imports():
    from pbem.io.yamlfile import load_yaml
    from pbem.gateways import mailparse
    from pbem.engine.problems import ProblemsError
def one(data: bytes) -> None:
    if data[:1] == b"m":
        try:
            mailparse.parse_mail(data[1:])
        except ValueError:
            pass
        return
    try:
        load_yaml(data, "fuzz.yaml")
    except ProblemsError:
        pass
atheris.Setup(sys.argv, one)
atheris.Fuzz()
"""


def fuzz_coverage_guided(runs: int, workdir: Path) -> str:
    """libFuzzer through atheris over the YAML loader and the mail parser, in a child (it exits the process)."""
    try:
        import atheris  # noqa: F401
    except ImportError:
        return "inputs fuzzed (coverage-guided): skipped, atheris is not installed (pip install atheris)"
    script = workdir / "atheris_target.py"
    script.write_text(ATHERIS_TARGET)
    corpus = workdir / "corpus"
    corpus.mkdir(exist_ok=True)
    for i, seed in enumerate(sorted(ROUND_ONE.glob("*.yaml"))):
        (corpus / f"orders-{i}").write_bytes(seed.read_bytes())
    (corpus / "mail").write_bytes(b"mFrom: a@b.test\r\nContent-Type: text/plain; format=flowed\r\n\r\npower: Germany\r\n")
    result = subprocess.run([sys.executable, str(script), f"-runs={runs}", "-max_len=4096", str(corpus)],
                            capture_output=True, text=True, cwd=workdir, env={**os.environ, "PYTHONPATH": str(ROOT)})
    done = [line for line in result.stderr.splitlines() if line.startswith("Done ")]
    crashed = "Uncaught Python exception" in result.stderr or result.returncode != 0
    figure = done[-1].split()[1] if done else "?"
    line = f"inputs fuzzed (coverage-guided): {figure} executions; crashes {1 if crashed else 0} (aim 0)"
    if crashed:
        line += "\n" + "\n".join(result.stderr.splitlines()[-25:])
    return line


# --------------------------------------------------------------------------------------------- SIGKILL


@dataclass
class KillTally:
    trials: Counter[str] = field(default_factory=Counter)
    unreadable: list[str] = field(default_factory=list)
    half_done: list[str] = field(default_factory=list)
    audit_failing: list[str] = field(default_factory=list)


def _consistent(game_dir: Path) -> str | None:
    """None when the game reads, its last commit is whole and the next command can go on; else why not."""
    from pbem.game.game import Game

    try:
        game = Game(game_dir)
        game.state()
    except Exception as err:  # noqa: BLE001
        return f"unreadable: {err}"
    head = subprocess.run(["git", "-C", str(game_dir), "show", "--stat", "--format=%s", "HEAD"],
                          capture_output=True, text=True).stdout
    if "adjudicat" in head.lower() and "state.yaml" not in head:
        return f"half-done: an adjudication commit without its state:\n{head}"
    status = pbem("status", "--game", game_dir)
    if status.returncode != 0:
        return f"unreadable: pbem status: {status.stderr.strip()}"
    return None


def sigkill_trials(workdir: Path, trials: int, rnd: random.Random) -> KillTally:
    """Kill submit, adjudicate and mail poll at a random moment; then look, finish the turn and audit."""
    tally = KillTally()
    template = workdir / "kill-template"
    new_game(template)
    maildir_root = workdir / "kill-mail"
    durations: dict[str, float] = {}
    soviet = POWER_FILES["Soviet Union"]
    for trial in range(trials):
        op = ("submit", "adjudicate", "poll")[trial % 3]
        game_dir = workdir / f"kill-{trial}"
        shutil.copytree(template, game_dir, symlinks=True)
        env = dict(os.environ)
        if op == "adjudicate":
            pbem("submit", soviet, "--game", game_dir, check=True)
            args: list[str | Path] = ["adjudicate", "--game", game_dir, "--format", "none"]
        elif op == "submit":
            args = ["submit", soviet, "--game", game_dir]
        else:
            box = maildir_root / f"box-{trial}"
            for sub in ("new", "cur", "tmp"):
                (box / sub).mkdir(parents=True, exist_ok=True)
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = PLAYERS["Soviet Union"], ADJUDICATOR, "[pbem demo] Soviet Union"
            msg["Message-ID"] = f"<kill-{trial}@players.test>"
            msg.set_content(soviet.read_text())
            (box / "new" / f"{trial}.bench").write_bytes(msg.as_bytes(policy=email.policy.SMTP))
            config = maildir_root / f"mail-{trial}.yaml"
            config.write_text(f"from: League <{ADJUDICATOR}>\nincoming: {{maildir: {box}}}\n"
                              f"smtp: {{host: 127.0.0.1, port: {_free_port()}, security: plain, timeout: 2}}\n"
                              f"games: {{demo: {game_dir}}}\n")
            args = ["mail", "poll", "--config", config, "--quiet"]
        if op not in durations:
            probe = workdir / f"probe-{op}"
            shutil.copytree(game_dir, probe, symlinks=True)
            probe_args = [str(a).replace(str(game_dir), str(probe)) for a in args]
            if op == "poll":
                probe_config = maildir_root / "probe.yaml"
                probe_box = maildir_root / "probe-box"
                shutil.copytree(maildir_root / f"box-{trial}", probe_box)
                probe_config.write_text(config.read_text().replace(str(game_dir), str(probe))
                                        .replace(str(maildir_root / f"box-{trial}"), str(probe_box)))
                probe_args = ["mail", "poll", "--config", str(probe_config), "--quiet"]
            start = time.perf_counter()
            pbem(*probe_args)
            durations[op] = time.perf_counter() - start
        tally.trials[op] += 1
        child = subprocess.Popen([*PBEM, *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        time.sleep(rnd.uniform(0.05, durations[op]))
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()
        why = _consistent(game_dir)
        if why:
            (tally.unreadable if why.startswith("unreadable") else tally.half_done).append(f"trial {trial} ({op}): {why}")
            continue
        # the interrupted work can be finished: submit (again, if needed) and adjudicate the turn, then audit
        from pbem.game.game import Game

        game = Game(game_dir)
        steps = []
        if game.power_to_move() == "Soviet Union":
            if game.submitted_orders() is None:
                steps.append(pbem("submit", soviet, "--game", game_dir))
            steps.append(pbem("adjudicate", "--game", game_dir, "--format", "none"))
        audit = pbem("audit", "--game", game_dir)
        if audit.returncode != 0 or Game(game_dir).power_to_move() != "Germany":
            said = "".join(f"{s.args[3:]}: {s.returncode} {s.stdout[-300:]}{s.stderr[-300:]}" for s in steps + [audit])
            tally.audit_failing.append(f"trial {trial} ({op}): the turn could not be finished: {said}")
        shutil.rmtree(game_dir, ignore_errors=True)
    return tally


# --------------------------------------------------------------------------------------------- concurrency


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _git(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120)


def concurrent_git(workdir: Path, games: int, per_game: int) -> tuple[int, int, list[str]]:
    """Players of several games push standing-orders changes at once; every accepted push must be in main."""
    pushes, lost, notes = 0, 0, []
    lock = threading.Lock()
    accepted: dict[str, list[tuple[str, bytes]]] = {}

    def player(game_id: str, bare: Path, power: str, email_: str, count: int) -> None:
        nonlocal pushes
        clone = workdir / f"{game_id}-{power.replace(' ', '-')}"
        _git("clone", "-q", bare, clone)
        key = workdir / "keys" / email_.split("@")[0]
        for name, value in (("user.name", power), ("user.email", email_), ("pull.rebase", "true"),
                            ("gpg.format", "ssh"), ("user.signingkey", str(key)), ("commit.gpgsign", "true")):
            _git("-C", clone, "config", name, value)
        path = f"standing/{power.lower().replace(' ', '-')}.yaml"
        for n in range(count):
            text = f"power: {power}\nstanding_orders: {{default: {{order_of_loss: [infantry, artillery, tank]}}}}\n# change {n}\n".encode()
            for _attempt in range(60):
                _git("-C", clone, "pull", "-q", "--rebase")
                (clone / path).parent.mkdir(parents=True, exist_ok=True)
                (clone / path).write_bytes(text)
                _git("-C", clone, "add", path)
                if _git("-C", clone, "commit", "-q", "-m", f"{power} standing orders {n}").returncode != 0:
                    break  # nothing to commit: already there
                push = _git("-C", clone, "push", "-q", "origin", "main")
                if push.returncode == 0:
                    sha = _git("-C", clone, "rev-parse", "HEAD").stdout.strip()
                    with lock:
                        pushes += 1
                        accepted.setdefault(game_id, []).append((sha, text))
                    break
                _git("-C", clone, "reset", "-q", "--hard", "origin/main")
                time.sleep(random.uniform(0, 0.05))

    threads = []
    keys = workdir / "keys"
    keys.mkdir(exist_ok=True)
    signers = workdir / "allowed_signers"
    lines = []
    for mail in PLAYERS.values():
        key = keys / mail.split("@")[0]
        if not key.exists():
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", mail, "-f", str(key)], check=True)
        lines.append(f'{mail} namespaces="git" {key.with_suffix(".pub").read_text().strip()}\n')
    signers.write_text("".join(lines))
    for g in range(games):
        game_id = f"push{g}"
        work = workdir / f"{game_id}-work"
        new_game(work, game_id)
        bare = workdir / f"{game_id}.git"
        _git("clone", "-q", "--bare", work, bare)
        pbem("serve", "init", bare, "--allowed-signers", signers, check=True)
        share = max(1, per_game // len(PLAYERS))
        for power, mail in PLAYERS.items():
            threads.append(threading.Thread(target=player, args=(game_id, bare, power, mail, share)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for g in range(games):
        game_id = f"push{g}"
        bare = workdir / f"{game_id}.git"
        history = set(_git("-C", bare, "rev-list", "main").stdout.split())
        for sha, _text in accepted.get(game_id, []):
            if sha not in history:
                lost += 1
                notes.append(f"{game_id}: accepted push {sha[:10]} is not in main")
        if _git("-C", bare, "fsck", "--strict").returncode != 0:
            notes.append(f"{game_id}: git fsck failed")
    return pushes, lost, notes


class _SmtpSink:
    """A local SMTP server that keeps every reply the gateway sends, by recipient."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.port = _free_port()
        self.received: list[bytes] = []
        sink = self

        class Handler:
            async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
                sink.received.append(envelope.original_content or envelope.content)  # type: ignore[attr-defined]
                return "250 OK"

        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()


def concurrent_mail(workdir: Path, games: int, per_game: int, pollers: int) -> tuple[int, int, list[str]]:
    """Standing orders mailed to several games while several pollers run at once: each is committed or answered."""
    try:
        sink = _SmtpSink()
    except ImportError:
        return 0, 0, ["skipped: aiosmtpd is not installed (pip install -e '.[test]')"]
    sent, lost, notes = 0, 0, []
    try:
        box = workdir / "mail-box"
        for sub in ("new", "cur", "tmp"):
            (box / sub).mkdir(parents=True, exist_ok=True)
        dirs = {}
        for g in range(games):
            game_id = f"mail{g}"
            dirs[game_id] = workdir / f"{game_id}-game"
            new_game(dirs[game_id], game_id)
        config = workdir / "mail-concurrent.yaml"
        config.write_text(f"from: League <{ADJUDICATOR}>\nincoming: {{maildir: {box}}}\n"
                          f"smtp: {{host: 127.0.0.1, port: {sink.port}, security: plain, timeout: 10}}\n"
                          "games: {" + ", ".join(f"{k}: {v}" for k, v in dirs.items()) + "}\n")
        ids: dict[str, str] = {}
        stop = threading.Event()

        def deliver() -> None:
            nonlocal sent
            n = 0
            for i in range(per_game):
                for game_id in dirs:
                    power = list(PLAYERS)[i % len(PLAYERS)]
                    msg = EmailMessage()
                    msg["From"], msg["To"] = PLAYERS[power], ADJUDICATOR
                    msg["Subject"] = f"[pbem {game_id}] {power} standing orders"
                    msg["Message-ID"] = mid = f"<c{n}@players.test>"
                    msg.set_content(f"game: {game_id}\npower: {power}\nstanding_orders: {{default: {{order_of_loss: "
                                    f"[infantry, artillery]}}}}\n# message {n}\n")
                    tmp = box / "tmp" / f"{n}.bench"
                    tmp.write_bytes(msg.as_bytes(policy=email.policy.SMTP))
                    tmp.rename(box / "new" / f"{n}.bench")
                    ids[mid.strip("<>")] = game_id
                    sent += 1
                    n += 1
            stop.set()

        def poll_loop() -> None:
            while True:
                last = stop.is_set()
                pbem("mail", "poll", "--config", config, "--quiet", timeout=600)
                if last:
                    break

        threads = [threading.Thread(target=deliver)] + [threading.Thread(target=poll_loop) for _ in range(pollers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        pbem("mail", "poll", "--config", config, "--quiet", timeout=600)
        answered = set()
        for raw in sink.received:
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            for header in ("In-Reply-To", "References"):
                answered.update(x.strip("<>") for x in (msg.get(header) or "").split())
        committed = set()
        for game_dir in dirs.values():
            log = _git("-C", game_dir, "log", "--format=%B").stdout
            committed.update(line.split(":", 1)[1].strip().strip("<>") for line in log.splitlines()
                             if "mail-message-id:" in line.lower())
        for mid in ids:
            if mid not in answered and mid not in committed:
                lost += 1
        if os.environ.get("BENCH_DEBUG") and sink.received:
            notes.append(email.message_from_bytes(sink.received[0], policy=email.policy.default).get_body(("plain",)).get_content()[:600])
        notes.append(f"{len(committed & set(ids))} committed, {len(answered & set(ids))} answered")
        if lost:
            notes.append(f"{lost} messages neither committed nor answered (e.g. {sorted(set(ids) - answered - committed)[:3]})")
    finally:
        sink.stop()
    return sent, lost, notes


# --------------------------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small volumes: a few minutes")
    parser.add_argument("--seed", type=int, default=1, help="for the kill moments")
    parser.add_argument("--only", choices=["fuzz", "kill", "concurrency"], action="append")
    args = parser.parse_args()
    per_kind = 500 if args.quick else 25_000
    atheris_runs = 5_000 if args.quick else 100_000
    kills = 15 if args.quick else 120
    games, per_game = (2, 20) if args.quick else (3, 100)
    parts = set(args.only or ["fuzz", "kill", "concurrency"])
    workdir = Path(tempfile.mkdtemp(prefix="pbem-trust-"))
    try:
        if "fuzz" in parts:
            tally = FuzzTally()
            start = time.perf_counter()
            fuzz_property_based(tally, workdir, per_kind)
            counts = ", ".join(f"{k} {v}" for k, v in tally.counts.items())
            print(f"inputs fuzzed (property-based): {counts}; total {sum(tally.counts.values())} "
                  f"in {time.perf_counter() - start:.0f} s")
            print(f"crashes and tracebacks: {len(tally.crashes)} (aim 0)")
            for crash in tally.crashes[:5]:
                print("  " + crash.replace("\n", "\n  "))
            print(fuzz_coverage_guided(atheris_runs, workdir))
        if "kill" in parts:
            k = sigkill_trials(workdir, kills, random.Random(args.seed))
            ops = ", ".join(f"{op} {n}" for op, n in sorted(k.trials.items()))
            print(f"SIGKILL trials: {sum(k.trials.values())} ({ops}); left unreadable {len(k.unreadable)}, "
                  f"a turn half-done {len(k.half_done)}, audit failing {len(k.audit_failing)} (aim 0 each)")
            for line in (k.unreadable + k.half_done + k.audit_failing)[:5]:
                print("  " + line.replace("\n", "\n  "))
        if "concurrency" in parts:
            pushes, lost, notes = concurrent_git(workdir, games, per_game)
            print(f"concurrent submissions, git server: {pushes} accepted pushes over {games} games at once; "
                  f"lost {lost} (aim 0)")
            for note in notes[:5]:
                print("  " + note)
            sent, lost, notes = concurrent_mail(workdir, games, per_game, pollers=3)
            print(f"concurrent submissions, mail gateway: {sent} messages over {games} games, 3 pollers at once; "
                  f"lost {lost} (aim 0)")
            for note in notes[:5]:
                print("  " + note)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
