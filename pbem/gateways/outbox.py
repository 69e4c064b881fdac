"""Mail that must not be lost: every message is written to an outbox before it is sent, and
removed only once the SMTP server accepted it.

Why: a report mailed while the SMTP server was down was simply gone (and the command said
"report mailed"). Now a message that cannot leave stays in the outbox, the command says so, and
the next `pbem mail poll` or `pbem tick` sends what is waiting, in the order it was written.

Where: a game's outbox is `pbem-outbox/` inside its git directory (`.git/pbem-outbox/`, or the
bare repository itself for a git server): it belongs to the game and moves with it, yet git never
tracks it, so it can neither make the work tree "dirty" nor be committed by accident. Mail that
belongs to no game (the fixed answer to an unknown sender) waits in `$XDG_STATE_HOME/pbem/outbox`
(default `~/.local/state/pbem/outbox`).

Each message is one RFC 5322 file, written to a temporary name and renamed, so a crash leaves
either the whole message or nothing; the name begins with a sequence number, which keeps the
sending order.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

OUTBOX_DIR = "pbem-outbox"


class Transport(Protocol):
    def send(self, message: EmailMessage) -> None: ...


def game_outbox(game_path: str | os.PathLike[str]) -> Path:
    """The outbox of a game: inside its git directory, where git never looks."""
    found = subprocess.run(["git", "-C", str(game_path), "rev-parse", "--absolute-git-dir"],
                           capture_output=True, text=True)
    git_dir = Path(found.stdout.strip()) if found.returncode == 0 and found.stdout.strip() else Path(game_path) / ".git"
    return git_dir / OUTBOX_DIR


def default_outbox(env: dict[str, str] | None = None) -> Path:
    """The outbox for mail of no game: `$XDG_STATE_HOME/pbem/outbox` or `~/.local/state/pbem/outbox`."""
    env = dict(os.environ) if env is None else env
    state = env.get("XDG_STATE_HOME", "")
    base = Path(state) if state and os.path.isabs(state) else Path(env.get("HOME") or Path.home()) / ".local" / "state"
    return base / "pbem" / "outbox"


class Outbox:
    """One outbox directory: put a message, list what waits, remove what left."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)

    def put(self, message: EmailMessage) -> Path:
        data = message.as_bytes(policy=policy.SMTP)
        self.directory.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.name.split("-", 1)[0]) for p in self.waiting() if p.name.split("-", 1)[0].isdigit()]
        name = f"{max(numbers, default=0) + 1:06d}-{hashlib.sha256(data).hexdigest()[:16]}.eml"
        temporary = self.directory / f".{name}.tmp"
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.directory / name)
        return self.directory / name

    def waiting(self) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.iterdir() if p.suffix == ".eml" and not p.name.startswith("."))

    @staticmethod
    def read(path: Path) -> EmailMessage:
        return message_from_bytes(path.read_bytes(), policy=policy.default)  # type: ignore[return-value]


@dataclass
class QueuedSender:
    """Sends every message through an outbox. After the first failure in a batch the server is
    taken as down: later messages are only queued (no minute of timeouts per message)."""

    transport: Transport
    sent: int = 0
    queued: list[str] = field(default_factory=list)  # subjects of what waits
    error: str | None = None

    def send(self, message: EmailMessage, outbox: Outbox) -> bool:
        """Queue, then try to send; True if it left now, False if it waits in the outbox."""
        path = outbox.put(message)
        return self._try(path, message)

    def flush(self, outbox: Outbox) -> None:
        """Send what an earlier run left waiting, oldest first; stop at the first failure."""
        for path in outbox.waiting():
            if self.error is not None:
                self.queued.append(str(Outbox.read(path).get("Subject", "")))
                continue
            self._try(path, Outbox.read(path))

    def _try(self, path: Path, message: EmailMessage) -> bool:
        if self.error is None:
            try:
                self.transport.send(message)
            except Exception as err:  # noqa: BLE001 -- any failure leaves the message waiting, never lost
                self.error = str(err)
            else:
                path.unlink(missing_ok=True)
                self.sent += 1
                return True
        self.queued.append(str(message.get("Subject", "")))
        return False

    def summary(self) -> str:
        """What was sent and what waits, for the command's output."""
        if not self.queued:
            return f"{self.sent} message(s) sent" if self.sent else ""
        return (f"{self.sent} message(s) sent; {len(self.queued)} waiting in the outbox ({self.error or 'not sent'}); "
                "the next `pbem mail poll` or `pbem tick` sends them")
