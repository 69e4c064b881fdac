"""The mail gateway's configuration: servers, credentials and which games it serves.

It lives outside every game repository -- by default `$XDG_CONFIG_HOME/pbem/mail.yaml` (or
`~/.config/pbem/mail.yaml`), else the file named by `--config` or `$PBEM_MAIL_CONFIG` -- because it
holds or points at passwords, and a game repository is shared with every player.  Passwords are
best kept in the environment (`password_env`, default `PBEM_IMAP_PASSWORD` / `PBEM_SMTP_PASSWORD`);
a literal `password:` is refused in a file that sits inside a git work tree.

    from: "League adjudicator <orders@league.example>"
    incoming:                      # exactly one of imap, maildir, mbox
      imap: {host: imap.league.example, port: 993, security: ssl, user: orders@league.example,
             mailbox: INBOX}       # password from $PBEM_IMAP_PASSWORD
      # maildir: /var/mail/orders
      # mbox: /var/mail/orders.mbox
    smtp: {host: smtp.league.example, port: 465, security: ssl, user: orders@league.example}
    games:                         # game id -> game repository
      summer-league-7: /srv/pbem/summer-league-7
    authentication:                # how a sender is proven (pbem.gateways.mailauth)
      require: authentication-results
      authserv_id: mx.league.example
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from pbem.game.game import GameError
from pbem.gateways.mailauth import AuthSettings, settings

ENV_CONFIG = "PBEM_MAIL_CONFIG"
SECURITY = ("ssl", "starttls", "plain")


@dataclass(frozen=True)
class ServerConfig:
    """An IMAP or SMTP server; `password` is resolved from the environment when the config is read."""

    host: str
    port: int
    security: str
    user: str | None = None
    password: str | None = None
    mailbox: str = "INBOX"
    timeout: float = 30.0


@dataclass(frozen=True)
class MailConfig:
    sender: str  # the From header of every mail the gateway sends
    imap: ServerConfig | None
    maildir: Path | None
    mbox: Path | None
    smtp: ServerConfig | None
    games: Mapping[str, Path] = field(default_factory=dict)
    source: str = "<memory>"
    auth: "AuthSettings" = field(default_factory=lambda: AuthSettings("none"))  # how senders are proven

    @property
    def sender_address(self) -> str:
        return parseaddr(self.sender)[1]


def default_config_path(env: Mapping[str, str] = os.environ) -> Path:
    if env.get(ENV_CONFIG):
        return Path(env[ENV_CONFIG])
    from pbem.game.dicekeys import default_key_dir

    return default_key_dir(env).parent / "mail.yaml"


def _server(raw: Any, kind: str, env: Mapping[str, str], where: str, in_repo: bool) -> ServerConfig:
    if not isinstance(raw, dict) or not raw.get("host"):
        raise GameError(f"{where}: {kind} needs at least a host")
    security = str(raw.get("security", "ssl"))
    if security not in SECURITY:
        raise GameError(f"{where}: {kind}.security is {security!r}; choose {', '.join(SECURITY)}")
    defaults = {("imap", "ssl"): 993, ("imap", "starttls"): 143, ("imap", "plain"): 143,
                ("smtp", "ssl"): 465, ("smtp", "starttls"): 587, ("smtp", "plain"): 25}
    password = raw.get("password")
    if password is not None and in_repo:
        raise GameError(f"{where} is inside a git work tree and holds a {kind} password: move the file out of the "
                        f"repository, or use password_env and set the variable instead")
    if password is None and raw.get("user"):
        variable = str(raw.get("password_env") or f"PBEM_{kind.upper()}_PASSWORD")
        password = env.get(variable)
        if password is None:
            raise GameError(f"no {kind} password: set ${variable} (named by {kind}.password_env in {where})")
    try:
        port = int(raw.get("port") or defaults[(kind, security)])
        timeout = float(raw.get("timeout", 30))
    except (TypeError, ValueError):
        raise GameError(f"{where}: {kind}.port and {kind}.timeout must be numbers") from None
    return ServerConfig(str(raw["host"]), port, security, raw.get("user"), password,
                        str(raw.get("mailbox", "INBOX")), timeout)


def load_mail_config(path: Path, env: Mapping[str, str] = os.environ) -> MailConfig:
    """Read and check the configuration; every mistake is a GameError naming the file and the key."""
    import yaml

    from pbem.game.dicekeys import find_work_tree

    if not path.is_file():
        raise GameError(f"no mail configuration at {path}: write one (see docs/hosting.md) or pass --config")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise GameError(f"{path} is not readable YAML: {err}") from None
    if not isinstance(data, dict):
        raise GameError(f"{path}: expected a mapping of settings")
    in_repo = find_work_tree(path.parent) is not None
    where = str(path)
    incoming = data.get("incoming") or {}
    if not isinstance(incoming, dict) or len([k for k in ("imap", "maildir", "mbox") if incoming.get(k)]) > 1:
        raise GameError(f"{where}: incoming takes exactly one of imap, maildir or mbox")
    imap = _server(incoming["imap"], "imap", env, where, in_repo) if incoming.get("imap") else None
    smtp = _server(data["smtp"], "smtp", env, where, in_repo) if data.get("smtp") else None
    base = path.parent
    games_raw = data.get("games") or {}
    if not isinstance(games_raw, dict):
        raise GameError(f"{where}: games must map game ids to directories")
    games = {str(k).lower(): (base / str(v)).resolve() for k, v in games_raw.items()}
    sender = str(data.get("from") or "")
    if "@" not in parseaddr(sender)[1]:
        raise GameError(f"{where}: `from` must be the gateway's address, e.g. \"Adjudicator <orders@league.example>\"")
    auth = settings(data.get("authentication"), where)
    return MailConfig(sender, imap,
                      (base / str(incoming["maildir"])).resolve() if incoming.get("maildir") else None,
                      (base / str(incoming["mbox"])).resolve() if incoming.get("mbox") else None,
                      smtp, games, where, auth)
