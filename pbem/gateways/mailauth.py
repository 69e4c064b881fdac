"""Who really sent a mail: orders are taken only from a sender the gateway can prove.

A From: header is written by the sender's own program, so anyone can write anyone's address. The
mail settings (`authentication:`) choose one proof, each documented in docs/hosting.md with what it
protects against:

- `authentication-results`: the verdict of the host's own mail server, an `Authentication-Results`
  header (RFC 8601) whose authserv-id is the one the settings name (`authserv_id`), showing DMARC
  passing, or DKIM passing for a domain aligned with the From: domain. Headers with any other
  authserv-id were written by someone else (the sender included) and are ignored; the host's server
  must remove such headers bearing its own id from incoming mail (RFC 8601, section 5).
- `signature`: the orders carry an SSH signature (`ssh-keygen -Y sign`, namespace `pbem-orders`)
  by a key that the game's `allowed_signers` file (the same keys the git server checks) gives to
  the sender's address. `pbem orders sign FILE` prints what to paste.
- `none`: nothing is checked (a friendly game); every report then says so.

The signed text is the orders in a canonical form (line ends as LF, trailing spaces removed, one
final newline), so what a mail client does to whitespace does not break a good signature.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem.gateways.mailparse import clean_text, orders_from_body

MODES = ("authentication-results", "signature", "none")
NAMESPACE = "pbem-orders"


@dataclass(frozen=True)
class AuthSettings:
    mode: str
    authserv_id: str | None = None


def canonical(text: str) -> str:
    """The form of the orders that is signed and verified."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ Authentication-Results
def _results(value: str) -> tuple[str, list[tuple[str, str, dict[str, str]]]]:
    """authserv-id and [(method, result, properties)] of one Authentication-Results header."""
    value = re.sub(r"\([^)]*\)", " ", value)  # comments
    parts = [p.strip() for p in value.split(";")]
    head = parts[0].split()
    authserv = head[0].lower() if head else ""
    out = []
    for part in parts[1:]:
        m = re.match(r"([A-Za-z0-9_.-]+)\s*=\s*([A-Za-z0-9_.-]+)(.*)", part, re.S)
        if not m:
            continue
        props = {k.lower(): v.strip('"').lower() for k, v in re.findall(r"([A-Za-z0-9_.-]+)\s*=\s*(\"[^\"]*\"|[^\s;]+)", m.group(3))}
        out.append((m.group(1).lower(), m.group(2).lower(), props))
    return authserv, out


def _aligned(domain: str, sender_domain: str) -> bool:
    """Relaxed alignment (DMARC): the same organisational domain, taken as the last two labels."""
    def org(d: str) -> str:
        return ".".join(d.lower().strip(".").split(".")[-2:])

    return bool(domain) and org(domain) == org(sender_domain)


def check_auth_results(headers: Sequence[str], sender: str, authserv_id: str) -> str | None:
    """None when the host's server vouches for the sender, else the reason it does not."""
    sender_domain = sender.rsplit("@", 1)[-1].lower()
    ours = []
    for raw in headers:
        serv, results = _results(str(raw))
        if serv == authserv_id.lower():
            ours.append(results)
    if not ours:
        return (f"the message carries no Authentication-Results from {authserv_id}, the server that checks senders "
                "here, so its sender cannot be proven")
    results = ours[0]  # the topmost: added last, by our own server on receipt
    for method, result, props in results:
        if method == "dmarc" and result == "pass":
            return None
        if method == "dkim" and result == "pass" and _aligned(props.get("header.d", props.get("header.i", "").split("@")[-1]), sender_domain):
            return None
    said = ", ".join(f"{m}={r}" for m, r, _ in results) or "nothing"
    return f"{authserv_id} did not confirm the sender ({said}): DMARC, or DKIM for {sender_domain}, must pass"


# ------------------------------------------------------------------ SSH signatures
def check_signature(orders: str, signature: str | None, sender: str, allowed_signers: bytes | None) -> str | None:
    """None when `signature` is a valid signature of `orders` by a key the game's allowed_signers
    gives to `sender`, else the reason."""
    if signature is None:
        return ("the orders are not signed: this game takes mailed orders only with an SSH signature "
                "(`pbem orders sign FILE` prints the orders with the signature to paste)")
    if allowed_signers is None:
        return "this game has no allowed_signers file, so no signature can be checked; ask the host"
    # the orders as signed: the file whole, or as the mail reader takes them from a body
    forms = list(dict.fromkeys(canonical(t) for t in (orders, orders_from_body(orders) or orders)))
    with tempfile.TemporaryDirectory(prefix="pbem-mailsig-") as tmp:
        signers = Path(tmp) / "allowed_signers"
        signers.write_bytes(allowed_signers)
        sig = Path(tmp) / "orders.sig"
        sig.write_text(signature)
        for form in forms:
            result = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(signers), "-I", sender, "-n", NAMESPACE, "-s", str(sig)],
                                    input=form.encode(), capture_output=True, timeout=30)
            if result.returncode == 0:
                break
    if result.returncode != 0:
        return (f"the signature does not verify as {sender}'s (a key in the game's allowed_signers for that address, "
                f"over exactly these orders): {result.stderr.decode('utf-8', 'replace').strip() or 'invalid'}")
    return None


def sign(text: str, key: Path) -> str:
    """The orders and their signature, to paste into a mail (what `pbem orders sign` prints): the
    orders as the mail reader will take them from the body (from the first orders line on)."""
    body = canonical(orders_from_body(clean_text(text)) or text)
    with tempfile.TemporaryDirectory(prefix="pbem-sign-") as tmp:
        path = Path(tmp) / "orders.yaml"
        path.write_text(body)
        result = subprocess.run(["ssh-keygen", "-Y", "sign", "-f", str(key), "-n", NAMESPACE, str(path)],
                                capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise ValueError(f"ssh-keygen could not sign with {key}: {result.stderr.decode('utf-8', 'replace').strip()}")
        signature = (Path(tmp) / "orders.yaml.sig").read_text()
    return body + "\n" + signature


def settings(raw: Mapping[str, object] | str | None, where: str) -> AuthSettings:
    """The `authentication:` setting, checked: a mode, and the authserv-id where it is needed."""
    from pbem.game.game import GameError

    if raw is None:
        raise GameError(f"{where}: say how senders are proven with `authentication:` - "
                        "{require: authentication-results, authserv_id: mx.your-domain} (your mail server's verdict), "
                        "{require: signature} (orders signed with the players' SSH keys) or "
                        "{require: none} (a friendly game; every report says orders were not authenticated); see docs/hosting.md")
    if isinstance(raw, str):
        raw = {"require": raw}
    if not isinstance(raw, Mapping) or raw.get("require") not in MODES:
        raise GameError(f"{where}: authentication.require must be one of {', '.join(MODES)}")
    mode = str(raw["require"])
    authserv = raw.get("authserv_id")
    if mode == "authentication-results" and not authserv:
        raise GameError(f"{where}: authentication-results needs authserv_id, the name your mail server writes first in "
                        "its Authentication-Results headers (e.g. mx.league.example)")
    return AuthSettings(mode, str(authserv) if authserv else None)
