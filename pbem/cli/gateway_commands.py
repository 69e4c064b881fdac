"""Commands for hosting games: `pbem mail poll`, `pbem serve init`, `pbem init-ci`, `pbem tick`.

They only parse options, call pbem.gateways and print; time is read from the clock here and
nowhere else, so everything below is deterministic under `--now`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli.game_commands import game_option, user_errors


def _gateway_errors(fn):  # type: ignore[no-untyped-def]
    """user_errors, plus the mail gateway's own errors as a message and exit code 2."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        from pbem.gateways.mailboxes import MailError

        try:
            return fn(*args, **kwargs)
        except MailError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(2)

    return user_errors(wrapper)


# ------------------------------------------------------------------ mail
@click.group("mail")
def mail() -> None:
    """Play by email: read orders from a mailbox, answer, adjudicate, mail the reports."""


@mail.command("poll")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="Mail settings (default: $PBEM_MAIL_CONFIG or ~/.config/pbem/mail.yaml); never inside a game repository.")
@click.option("--game", "games", multiple=True, metavar="DIR", help="Serve this game directory too (its id from game.yaml).")
@click.option("--retry-failed", is_flag=True, help="Take messages marked failed by an earlier poll again.")
@click.option("--quiet", is_flag=True, help="Print only problems.")
@_gateway_errors
def mail_poll(config_path: str | None, games: tuple[str, ...], retry_failed: bool, quiet: bool) -> None:
    """Read new messages once, answer each, adjudicate complete turns and mail the reports.

    Exit code 0 when every message was dealt with, 1 when some could not be (they stay in the
    mailbox marked failed and are listed), 2 for a configuration error.
    """
    from dataclasses import replace

    from pbem.game.game import Game
    from pbem.gateways.mail import FAILURE, poll
    from pbem.gateways.mailconfig import default_config_path, load_mail_config

    config = load_mail_config(Path(config_path) if config_path else default_config_path())
    if games:
        extra = {Game(g).config.game.lower(): Path(g).resolve() for g in games}
        config = replace(config, games={**config.games, **extra})
    result = poll(config, retry_failed=retry_failed, log=(lambda _: None) if quiet else click.echo)
    for game_id, round_, power, sha in result.adjudicated:
        click.echo(f"adjudicated {game_id} round {round_} {power} as {sha[:10]}")
    if result.mail:
        click.echo(result.mail, err=bool(result.waiting))
    failed = [o for o in result.outcomes if o.status == FAILURE]
    for o in failed:
        click.echo(f"FAILED message {o.key} from {o.sender or '?'}: {o.detail} (left in the mailbox, marked failed)", err=True)
    for e in result.errors:
        click.echo(f"error: {e}", err=True)
    if not quiet:
        click.echo(f"{len(result.outcomes)} message(s) read, {len(failed)} failed.")
    if not result.ok:
        sys.exit(1)


# ------------------------------------------------------------------ git server
@click.group("serve")
def serve() -> None:
    """Host a game as a bare git repository that players push their orders to."""


@serve.command("init")
@click.argument("bare_repo", type=click.Path(file_okay=False, exists=True))
@click.option("--allowed-signers", type=click.Path(dir_okay=False, exists=True), default=None,
              help="The players' SSH keys, one line each: EMAIL namespaces=\"git\" ssh-ed25519 AAAA...; committed to the game.")
@user_errors
def serve_init(bare_repo: str, allowed_signers: str | None) -> None:
    """Install pbem's pre-receive and post-receive hooks in BARE_REPO (a bare clone of a game)."""
    from pbem.gateways.githooks import install

    for line in install(Path(bare_repo), Path(allowed_signers) if allowed_signers else None):
        click.echo(line)
    click.echo(f"Players now push signed commits to {bare_repo}; see docs/hosting.md.")


# ------------------------------------------------------------------ forge CI
@click.command("init-ci")
@click.argument("forge", type=click.Choice(["github", "gitlab"]))
@game_option
@click.option("--install", default=None, metavar="REQUIREMENT",
              help="What CI installs, e.g. 'pbem @ git+https://example.org/pbem@v0.1.0' (default: this pbem at its exact "
                   "commit when it is a pushed git checkout, else a wheel of it written to the game's .ci/ folder).")
@click.option("--force", is_flag=True, help="Replace an existing CI file.")
@user_errors
def init_ci(forge: str, game_dir: str, install: str | None, force: bool) -> None:
    """Write a CI file: validate orders on pull requests, adjudicate and apply deadlines on main."""
    from pbem.gateways.forge import write_ci

    target, choice = write_ci(Path(game_dir), forge, install=install, force=force)
    click.echo(f"CI installs {choice.what}: {choice.command}")
    click.echo(f"wrote {target}; review it, commit it and push. Secrets to set: see the file's header.")


# ------------------------------------------------------------------ deadlines
@click.command("tick")
@game_option
@click.option("--now", default=None, metavar="ISO8601", help="The time to act at (default: the system clock), e.g. 2026-03-01T18:00Z.")
@click.option("--mail-config", type=click.Path(dir_okay=False), default=None,
              help="Mail settings for reminders and reports (default: $PBEM_MAIL_CONFIG or ~/.config/pbem/mail.yaml, if present).")
@_gateway_errors
def tick(game_dir: str, now: str | None, mail_config: str | None) -> None:
    """Adjudicate a complete turn, send due reminders and apply the missing-orders policy at the deadline."""
    from pbem.gateways.deadlines import tick as run_tick
    from pbem.gateways.hosting import parse_now
    from pbem.gateways.mailboxes import SmtpSender
    from pbem.gateways.mailconfig import default_config_path, load_mail_config

    from pbem.gateways.outbox import Outbox, QueuedSender, game_outbox

    moment = parse_now(now)  # the clock is read here, at the edge, and nowhere below
    path = Path(mail_config) if mail_config else default_config_path()
    sender = queue = None
    if mail_config or path.is_file():
        config = load_mail_config(path)
        sender = SmtpSender(config.smtp)
        queue = QueuedSender(sender)
        queue.flush(Outbox(game_outbox(game_dir)))  # what an earlier run could not send goes first
    try:
        outbox = Outbox(game_outbox(game_dir))
        result = run_tick(Path(game_dir), moment, mailer=(lambda m: queue.send(m, outbox)) if queue else None,
                          sender=config.sender if sender else "pbem <pbem@localhost>")
    finally:
        if sender is not None:
            sender.close()
    for line in result.actions:
        click.echo(line)
    if queue is not None and queue.summary():
        click.echo(queue.summary(), err=bool(queue.queued))
