"""`pbem mail poll`: play by email through an IMAP mailbox (or a local Maildir or mbox).

One poll reads every new message in arrival order and, for each:

1. finds the game (the `[pbem GAME-ID]` subject tag, else the one game the sender plays in) and
   checks the sender's address against the game's players.  An unknown sender gets one fixed
   answer that says nothing about the game -- not whether it exists, who plays, or whose turn it is.
2. takes the orders from a YAML attachment (the one naming the subject's power, if there are
   several) or else from the body, with quoted replies, signatures and HTML removed.
3. validates and commits them, and answers: the problems with line and column, or the
   acknowledgement with the battle-odds preview.
4. when the power to move has valid orders (and game.yaml's `hosting.adjudicate` is `on-orders`,
   the default), adjudicates after the batch and mails the report to every player: HTML with a
   plain-text alternative and the map attached.

Messages for a power whose turn has not come yet are held until the end of the batch, so a round's
orders arriving together are taken in turn order; a power that sends twice before adjudication gets
its later valid orders used (each valid submission replaces the last).  Orders that arrive after
their turn was adjudicated are answered with the validator's "it is X's turn" problems.

Nothing is lost: every answer and report is written to an outbox before it is sent and removed
once the SMTP server took it; what could not leave waits there and the next poll sends it first
(pbem.gateways.outbox). A message is marked done once its answer is safely in the outbox; one that
fails is marked failed, stays in the mailbox and is listed in the poll's output (exit code 1).  A message
delivered twice is recognised by its Message-ID in the game's history and not committed again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from functools import partial
from pathlib import Path
from typing import Any

from pbem.engine.problems import ProblemsError
from pbem.game.game import Game, GameError
from pbem.gateways.hosting import current_players, hosting_of, powers_of
from pbem.gateways.mailboxes import (
    DONE,
    FAILED,
    MailError,
    MailSource,
    SmtpSender,
    open_source,
)
from pbem.gateways.mailconfig import MailConfig
from pbem.gateways.mailparse import IncomingMail, parse_mail, reply_subject
from pbem.gateways.outbox import Outbox, QueuedSender, default_outbox, game_outbox
from pbem.gateways.turns import (
    Adjudicated,
    adjudicate_ready,
    player_addresses,
    preview_text,
    report_message,
    submit_orders,
)

UNKNOWN_SENDER_TEXT = (
    "This address accepts orders only from the registered players of the games it hosts, "
    "and your address is not one of them, so your message was not read.\n\n"
    "If you think this is a mistake, ask your game's host.\n"
)
HOW_TO = (
    "How to send orders: write to this address with the subject\n"
    "    [pbem GAME-ID] orders POWER\n"
    "and attach your orders file (.yaml), or paste the orders into the message body as plain text, "
    "starting with the `game:` or `power:` line.\n"
)

ACCEPTED, INVALID, REJECTED, DUPLICATE, FINISHED, IGNORED, UNCLEAR, FAILURE = (
    "accepted", "invalid", "rejected", "duplicate", "finished", "ignored", "unclear", "failed")


@dataclass(frozen=True)
class Outcome:
    """What became of one message; `detail` is for the host's log, never sent to an unknown sender."""

    key: str
    message_id: str
    sender: str
    game: str | None
    status: str
    detail: str


@dataclass(frozen=True)
class PollResult:
    outcomes: tuple[Outcome, ...]
    adjudicated: tuple[tuple[str, int, str, str], ...]  # game, round, power, sha
    errors: tuple[str, ...]
    mail: str = ""  # what was sent and what waits in the outboxes (pbem.gateways.outbox)
    waiting: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors and all(o.status != FAILURE for o in self.outcomes)


@dataclass
class _GameSlot:
    """A served game during one poll."""

    game_id: str
    path: Path
    game: Game
    players: dict[str, str]
    message_ids: set[str]
    deferred: list[tuple[Any, IncomingMail]] = field(default_factory=list)
    touched: bool = False


class MailGateway:
    """One poll over one mailbox; `poll()` does the work, the CLI only prints its result."""

    def __init__(self, config: MailConfig, *, source: MailSource | None = None, smtp: SmtpSender | None = None,
                 log: Callable[[str], None] = lambda _: None):
        self.config = config
        self.source = source
        self.smtp = smtp or SmtpSender(config.smtp)
        self.queue = QueuedSender(self.smtp)
        self.log = log
        self.slots: dict[str, _GameSlot] = {}
        self.outcomes: list[Outcome] = []
        self.adjudicated: list[tuple[str, int, str, str]] = []
        self.errors: list[str] = []

    # ------------------------------------------------------------------ the poll
    def poll(self, *, retry_failed: bool = False) -> PollResult:
        for path in sorted(set(self.config.games.values())):
            if Path(path).is_dir():
                self.queue.flush(Outbox(game_outbox(path)))
        self.queue.flush(Outbox(default_outbox()))
        source = self.source or open_source(self.config)
        try:
            raw_mails = source.fetch(retry_failed)
            for raw in raw_mails:
                try:
                    mail = parse_mail(raw.data)
                except Exception as err:  # noqa: BLE001 -- one unreadable message must never stop the others
                    mail = _unreadable(raw.data)
                    self._guarded(source, raw.key, mail, partial(self._unreadable_answer, raw.key, mail, err))
                    continue
                self._guarded(source, raw.key, mail, partial(self._handle, raw.key, mail))
            self._advance_games(source)
        finally:
            self.smtp.close()
            if self.source is None:
                source.close()
        return PollResult(tuple(self.outcomes), tuple(self.adjudicated), tuple(self.errors), self.queue.summary(),
                          len(self.queue.queued))

    def _guarded(self, source: MailSource, key: str, mail: IncomingMail, work: Callable[[], Outcome | None]) -> None:
        """Run one message's work; mark it done only after its answer left, failed on any error."""
        try:
            outcome = work()
        except (MailError, GameError, OSError) as err:
            outcome = Outcome(key, mail.message_id, mail.sender, mail.game_id, FAILURE, str(err))
        except Exception as err:  # noqa: BLE001 -- a bug must not lose the message: it stays, marked failed, and is reported
            outcome = Outcome(key, mail.message_id, mail.sender, mail.game_id, FAILURE, f"{type(err).__name__}: {err}")
        if outcome is None:
            return  # deferred to later in this poll
        try:
            source.mark(key, FAILED if outcome.status == FAILURE else DONE)
        except MailError as err:
            self.errors.append(f"message {key}: could not mark it {outcome.status}: {err}")
        self.outcomes.append(outcome)
        self.log(f"{outcome.status:<9} {mail.sender or '?'} {mail.subject!r}: {outcome.detail}")

    # ------------------------------------------------------------------ one message
    def _unreadable_answer(self, key: str, mail: IncomingMail, err: Exception) -> Outcome:
        """A message the parser could not read at all: answered when it has a sender (and is not
        automatic), then set aside as failed for the host, with the reason in the poll's log."""
        if mail.sender and not mail.automatic:
            self._reply(mail, "Your message could not be read (its headers or structure are damaged), so nothing was "
                              "done with it. Please send your orders again as plain text or a .yaml attachment.\n\n" + HOW_TO)
        return Outcome(key, mail.message_id, mail.sender, None, FAILURE, f"unreadable message ({type(err).__name__}: {err})")

    def _slot(self, game_id: str) -> _GameSlot | None:
        if game_id in self.slots:
            return self.slots[game_id]
        path = self.config.games.get(game_id)
        if path is None:
            return None
        game = Game(path)
        ids = {c.trailers["Mail-Message-Id"] for c in game.repo.history() if "Mail-Message-Id" in c.trailers}
        slot = _GameSlot(game_id, path, game, current_players(game), ids)
        self.slots[game_id] = slot
        return slot

    def _handle(self, key: str, mail: IncomingMail) -> Outcome | None:
        def done(status: str, detail: str, game: str | None = None) -> Outcome:
            return Outcome(key, mail.message_id, mail.sender, game, status, detail)

        if mail.automatic or not mail.sender or mail.sender == self.config.sender_address.lower():
            return done(IGNORED, "automatic message (bounce, auto-reply or our own); not answered")
        slot, reason = self._find_game(mail)
        if slot is None:
            if reason:
                self._reply(mail, reason)
                return done(UNCLEAR, reason)
            self._reply(mail, UNKNOWN_SENDER_TEXT)
            return done(REJECTED, f"sender not registered for game {mail.game_id or '(no tag)'}")
        mine = powers_of(slot.players, mail.sender)
        if mail.message_id and mail.message_id in slot.message_ids:
            self._reply(mail, "This message was already received and its orders committed; nothing more was done.\n", slot)
            return done(DUPLICATE, "Message-ID already in the game's history", slot.game_id)
        state = slot.game.state()
        if state.winner:
            self._reply(mail, f"Game {slot.game_id} is over: the {state.winner} won. Nothing was changed.\n", slot)
            return done(FINISHED, "game over", slot.game_id)
        candidates = mail.orders_for(mail.power_hint)
        if not candidates:
            extra = "".join(f"- {p}\n" for p in mail.problems)
            if any("could not be decoded whole" in p for p in mail.problems):
                self._reply(mail, "Your orders were NOT accepted: they could not be read whole, and orders with lines "
                                  "missing must not be taken. Nothing was changed.\n" + extra +
                                  "\nPlease send them again, as a .yaml attachment or as plain text.\n", slot)
                return done(INVALID, "orders not readable whole", slot.game_id)
            self._reply(mail, "No orders were found in your message.\n" + extra + "\n" + HOW_TO, slot)
            return done(INVALID, "no orders in the message", slot.game_id)
        chosen = candidates[0]
        named = _named_power(chosen.text, slot.game)
        to_move = slot.game.power_to_move(state)
        if named is not None and named != to_move and named in mine and not _is_standing(chosen.text):
            slot.deferred.append((key, mail))
            return None
        return self._submit(key, mail, slot, mine)

    def _find_game(self, mail: IncomingMail) -> tuple[_GameSlot | None, str | None]:
        """The game and None; or None and a reason safe to tell the sender; or None, None: unknown sender."""
        if mail.game_id is not None:
            slot = self._slot(mail.game_id)
            if slot is None or not powers_of(slot.players, mail.sender):
                return None, None
            return slot, None
        playing = []
        for game_id in sorted(self.config.games):
            slot = self._slot(game_id)
            if slot is not None and powers_of(slot.players, mail.sender):
                playing.append(slot)
        if len(playing) == 1:
            return playing[0], None
        if not playing:
            return None, None
        names = ", ".join(s.game_id for s in playing)
        return None, f"You play in several games here ({names}); say which in the subject.\n\n" + HOW_TO

    def _unproven(self, mail: IncomingMail, slot: _GameSlot, orders: str) -> str | None:
        """Why the sender of these orders is not proven, under the settings' proof (None: proven)."""
        from pbem.gateways.mailauth import check_auth_results, check_signature

        auth = self.config.auth
        if auth.mode == "authentication-results":
            return check_auth_results(mail.auth_results, mail.sender, auth.authserv_id or "")
        if auth.mode == "signature":
            return check_signature(orders, mail.signature, mail.sender, slot.game.repo.read("allowed_signers"))
        return None

    def _submit(self, key: str, mail: IncomingMail, slot: _GameSlot, mine: list[str]) -> Outcome:
        chosen = mail.orders_for(mail.power_hint)[0]
        why = self._unproven(mail, slot, chosen.text)
        if why is not None:
            self._reply(mail, f"Your orders were NOT accepted: {why}. Nothing was changed.\n\n"
                              "Orders by mail are taken only from a sender this game can prove; see the game's README "
                              "or ask the host how to send them.\n", slot)
            return Outcome(key, mail.message_id, mail.sender, slot.game_id, INVALID, f"sender not proven: {why}")
        note = ""
        if len(mail.candidates) > 1:
            note = f"(Your message had {len(mail.candidates)} orders files; {chosen.filename} was used.)\n\n"
        trailers = {"Via": "mail", "Submitted-By": mail.sender}
        if mail.message_id:
            trailers["Mail-Message-Id"] = mail.message_id
        try:
            sub = submit_orders(slot.game, chosen.text.encode("utf-8"), chosen.filename, trailers, allowed_powers=mine)
        except ProblemsError as err:
            from pbem.engine.problems import problem_count

            problems = "\n".join(p.format() for p in err.problems)
            n = problem_count(err.problems)
            text = (f"Your orders were NOT accepted: {n} problem{'s' if n != 1 else ''} found. Nothing was changed.\n\n"
                    f"{note}{problems}\n\nLine numbers count in the orders as read:\n\n"
                    f"{_numbered(chosen.text, max((p.line or 0) for p in err.problems))}\n"
                    "Correct them and send the whole orders again.\n")
            self._reply(mail, text, slot)
            return Outcome(key, mail.message_id, mail.sender, slot.game_id, INVALID, f"{n} problem{'s' if n != 1 else ''}")
        except GameError as err:
            self._reply(mail, f"Your orders were NOT accepted: {err}. Nothing was changed.\n", slot)
            return Outcome(key, mail.message_id, mail.sender, slot.game_id, INVALID, str(err))
        if mail.message_id:
            slot.message_ids.add(mail.message_id)
        slot.touched = True
        hosting = hosting_of(slot.game)
        # an identical resend commits nothing: the reply names no commit of its own
        accepted = "are the same as those already submitted: nothing changed" if sub.unchanged else f"accepted (commit {sub.sha[:10]})"
        if sub.standing:
            text = f"{note}Standing orders of {sub.power} {accepted}. They apply from now on.\n"
        else:
            later = ("The turn is adjudicated at the deadline; until then you may send new orders, and the last "
                     "valid ones count." if hosting.adjudicate == "at-deadline"
                     else "The turn will be adjudicated now and the report mailed to every player.")
            odds = preview_text(sub.preview)
            text = (f"{note}Orders of {sub.power} for round {sub.round} {accepted}.\n"
                    + (f"\nBattle odds:\n{odds}\n" if odds else "\nNo battles declared.\n") + f"\n{later}\n")
        if sub.warnings:
            text += "\nWarnings (the orders are accepted; read these before the turn is played):\n" + "\n".join(sub.warnings) + "\n"
        self._reply(mail, text, slot)
        return Outcome(key, mail.message_id, mail.sender, slot.game_id, ACCEPTED, f"{sub.power} round {sub.round} {sub.sha[:10]}")

    # ------------------------------------------------------------------ after the batch
    def _advance_games(self, source: MailSource) -> None:
        for slot in list(self.slots.values()):
            while True:
                if slot.touched and hosting_of(slot.game).adjudicate == "on-orders":
                    slot.touched = False
                    try:
                        for adj in adjudicate_ready(slot.path):
                            self.adjudicated.append((slot.game_id, adj.round, adj.power, adj.sha))
                            self.send_report(slot.game_id, adj)
                    except (GameError, MailError, ProblemsError, OSError) as err:
                        self.errors.append(f"game {slot.game_id}: adjudication or report failed: {err}")
                    slot.game = Game(slot.path)
                if not slot.deferred:
                    break
                waiting, slot.deferred = slot.deferred, []
                state = slot.game.state()
                to_move = None if state.winner else slot.game.power_to_move(state)
                ready = [(k, m) for k, m in waiting if to_move and _named_power(m.orders_for(m.power_hint)[0].text, slot.game) == to_move]
                rest = [(k, m) for k, m in waiting if (k, m) not in ready]
                if not ready or hosting_of(slot.game).adjudicate != "on-orders":
                    # nothing can move the game on: answer every held message now (its turn is not up)
                    for k, m in waiting:
                        self._guarded(source, k, m, partial(self._submit, k, m, slot, powers_of(slot.players, m.sender)))
                    break
                for k, m in ready:
                    self._guarded(source, k, m, partial(self._submit, k, m, slot, powers_of(slot.players, m.sender)))
                slot.deferred = rest

    def send_report(self, game_id: str, adj: Adjudicated, notes: list[str] | None = None) -> None:
        slot = self._slot(game_id)
        assert slot is not None
        game = Game(slot.path)
        recipients = player_addresses(current_players(game))
        if not recipients:
            return
        if self.config.auth.mode == "none":
            notes = [*(notes or []), "Orders by mail are not authenticated in this game (the host's choice): "
                                     "anyone who knows a player's address could have sent them."]
        message = report_message(game, adj, self.config.sender, recipients, notes)
        message["Auto-Submitted"] = "auto-generated"
        self.queue.send(message, Outbox(game_outbox(slot.path)))

    # ------------------------------------------------------------------ answers
    def _reply(self, mail: IncomingMail, text: str, slot: _GameSlot | None = None) -> None:
        msg = EmailMessage()
        msg["From"] = self.config.sender
        msg["To"] = mail.sender
        subject = mail.subject if slot is not None else "your message"
        msg["Subject"] = reply_subject(subject or "your message")
        msg["Date"] = formatdate(localtime=False)
        msg["Message-ID"] = make_msgid("pbem", domain=self.config.sender_address.rsplit("@", 1)[-1] or None)
        msg["Auto-Submitted"] = "auto-replied"
        if mail.message_id:
            msg["In-Reply-To"] = mail.message_id
            msg["References"] = mail.references
        msg.set_content(text, cte="quoted-printable")
        self.queue.send(msg, Outbox(game_outbox(slot.path)) if slot is not None else Outbox(default_outbox()))


def _unreadable(raw: bytes) -> IncomingMail:
    """What can be told of a message the parser failed on: its sender and id, read leniently."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0].decode("latin-1")
    sender = re.search(r"^From:.*?([\w.+-]+@[\w.-]+\w)", head, re.MULTILINE | re.IGNORECASE)
    message_id = re.search(r"^Message-ID:\s*(<[^>\s]+>)", head, re.MULTILINE | re.IGNORECASE)
    automatic = re.search(r"^(Auto-Submitted:\s*(?!no)|List-Id:|Precedence:\s*(bulk|junk|list))", head,
                          re.MULTILINE | re.IGNORECASE) is not None
    return IncomingMail(message_id.group(1) if message_id else "", sender.group(1).lower() if sender else "",
                        "your message", None, None, (), None, (), automatic, message_id.group(1) if message_id else "")


def _named_power(text: str, game: Game) -> str | None:
    match = re.search(r"^power\s*:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(#.*)?$", text, re.MULTILINE | re.IGNORECASE)
    if not match:
        return None
    try:
        return game.ruleset.power(match.group(1).strip()).name
    except KeyError:
        return None


def _is_standing(text: str) -> bool:
    return re.search(r"^standing_orders\s*:", text, re.MULTILINE) is not None


def _numbered(text: str, cited: int = 0) -> str:
    """The orders with line numbers; a problem cited past the last line (the end of the orders, as
    for an unclosed bracket) gets a line of its own, so every number cited is in the listing."""
    lines = text.rstrip("\n").split("\n")
    out = "".join(f"{i:4d} | {line}\n" for i, line in enumerate(lines, 1))
    return out + (f"{len(lines) + 1:4d} | (the end of the orders)\n" if cited > len(lines) else "")


def poll(config: MailConfig, *, retry_failed: bool = False, log: Callable[[str], None] = lambda _: None) -> PollResult:
    """Read and answer every new message once; see the module docstring."""
    return MailGateway(config, log=log).poll(retry_failed=retry_failed)
