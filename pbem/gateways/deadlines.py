"""`pbem tick`: move a hosted game on -- adjudicate a complete turn, remind, apply deadlines.

Run from cron or CI as often as you like; every run looks at the game and at `now` (given, never
read here) and does only what is due and not yet done, so running it twice changes nothing.
What it decides is committed with trailers (see pbem.gateways.hosting), so the game's history
says when each reminder went out and why a power's turn was played without its player:

- **adjudicate**: the power to move has orders in, and either `hosting.adjudicate` is `on-orders`
  or the deadline has passed;
- **remind**: for each of `reminders_hours`, once, when the deadline is that close (a tick that
  runs late sends one reminder for all the thresholds it passed);
- **at deadline + grace**, with no orders in, the `missing_orders` policy:
  - `standing`: an empty orders file is submitted for the power (it buys, moves and places
    nothing; its standing orders still govern its defence) and the turn is adjudicated;
  - `wait`: the game waits for the orders; the players are told once;
  - `substitute`: the power passes to `hosting.substitutes[power]`, who gets a full turn from
    now; with no substitute named, or if the substitute misses the deadline too, the game waits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path

from pbem.engine.words import possessive
from pbem.game.game import Game
from pbem.gateways.hosting import (
    PHASE_DEADLINE,
    PHASE_REMINDER,
    PHASE_SUBSTITUTE,
    current_players,
    deadline_of,
    hosting_of,
    turn_commits,
)
from pbem.gateways.turns import (
    Adjudicated,
    adjudicate_ready,
    idle,
    player_addresses,
    ready,
    report_message,
    submit_orders,
)

#: sends one message; returns False (or None, for a plain sender) when it waits in an outbox instead
Mailer = Callable[[EmailMessage], "bool | None"]


@dataclass(frozen=True)
class TickResult:
    actions: tuple[str, ...]
    adjudicated: tuple[Adjudicated, ...]


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


class _Tick:
    def __init__(self, path: Path, now: datetime, mailer: Mailer | None, sender: str):
        self.path, self.now, self.mailer, self.sender = path, now, mailer, sender
        self.actions: list[str] = []
        self.adjudicated: list[Adjudicated] = []

    def mail(self, to: list[str], subject: str, text: str) -> bool:
        if self.mailer is None or not to:
            return False
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.sender, ", ".join(to), subject
        msg["Date"] = formatdate(localtime=False)
        msg["Message-ID"] = make_msgid("pbem", domain=self.sender.rsplit("@", 1)[-1].strip("> ") or None)
        msg["Auto-Submitted"] = "auto-generated"
        msg.set_content(text, cte="quoted-printable")
        self.mailer(msg)
        return True

    def adjudicate(self, notes: list[str], deadline_passed: bool = False) -> None:
        for adj in adjudicate_ready(self.path, notes=notes, deadline_passed=deadline_passed):
            self.adjudicated.append(adj)
            self.actions.append(f"adjudicated round {adj.round} {adj.power} as {adj.sha[:10]}")
            game = Game(self.path)
            if self.mailer is not None:
                recipients = player_addresses(current_players(game))
                if recipients:
                    message = report_message(game, adj, self.sender, recipients)
                    message["Auto-Submitted"] = "auto-generated"
                    left = self.mailer(message)
                    self.actions.append("report mailed to every player" if left is not False
                                        else "report waiting in the outbox (the mail server did not take it)")

    def run(self) -> TickResult:
        game = Game(self.path)
        hosting = hosting_of(game)
        state = game.state()
        if not state.winner and not ready(game) and idle(game):
            self.adjudicate([])  # a power with nothing to order: its turn passes, the next one's clock runs
            game = Game(self.path)
            state = game.state()
        if state.winner:
            return TickResult((f"the game is over: the {state.winner} won",), ())
        deadline = deadline_of(game, hosting)
        if ready(game):
            passed = deadline is not None and self.now >= deadline
            if hosting.adjudicate == "on-orders" or passed:
                self.adjudicate([], deadline_passed=passed)
                if not self.adjudicated:
                    from pbem.gateways.turns import waiting_for

                    self.actions.append(f"waiting for {waiting_for(game)}")
            else:
                self.actions.append(f"orders are in; adjudication at the deadline, {_iso(deadline)}" if deadline else "")
            return self.result()
        if deadline is None:
            self.actions.append(f"waiting for {game.power_to_move(state)}; the game has no deadlines")
            return self.result()
        power = game.power_to_move(state)
        players = current_players(game)
        this_turn = turn_commits(game)
        common = {"Round": str(state.round), "Power": power, "At": _iso(self.now), "Deadline": _iso(deadline)}
        final = deadline + timedelta(hours=hosting.grace_hours)
        if self.now >= final:
            self.missed(game, hosting.missing_orders, hosting.substitutes.get(power), power, players, this_turn, common, deadline)
            return self.result()
        sent = [float(c.trailers.get("Hours", "inf")) for c in this_turn if c.trailers.get("Phase") == PHASE_REMINDER]
        due = [h for h in hosting.reminders_hours if self.now >= deadline - timedelta(hours=h) and not any(s <= h for s in sent)]
        if due:
            hours = min(due)
            left = deadline - self.now
            text = (f"Game {game.config.game}, round {state.round}: your orders for {power} are due by {_iso(deadline)} "
                    f"({max(0, int(left.total_seconds() // 3600))} h left).\n"
                    f"Missing orders: {hosting.missing_orders} (see the game's README).\n")
            mailed = self.mail([players.get(power, "")] if players.get(power) else [],
                               f"[pbem {game.config.game}] Reminder: {possessive(power)} orders are due", text)
            game.repo.commit({}, f"Reminder to {power}: orders due {_iso(deadline)}",
                             {**common, "Phase": PHASE_REMINDER, "Hours": f"{hours:g}", "Sent": "mail" if mailed else "no"})
            self.actions.append(f"reminded {power} ({'mailed' if mailed else 'recorded; no mail configured'})")
        else:
            self.actions.append(f"waiting for {power}; deadline {_iso(deadline)}")
        return self.result()

    def missed(self, game: Game, policy: str, substitute: str | None, power: str, players: dict[str, str],
               this_turn: list, common: dict[str, str], deadline: datetime) -> None:  # type: ignore[type-arg]
        state = game.state()
        everyone = player_addresses(players)
        if policy == "standing":
            text = f"game: {game.config.game}\npower: {power}\nround: {state.round}\n"
            submit_orders(game, text.encode(), "missing-orders.yaml",
                          {**common, "Missing-Orders": "standing"})
            note = f"{power} sent no orders by the deadline ({common['Deadline']}): its standing orders applied and it did nothing else."
            self.actions.append(f"{power} missed the deadline: empty orders submitted, standing orders apply")
            self.adjudicate([note])
            return
        already = {c.trailers.get("Player") for c in this_turn if c.trailers.get("Phase") == PHASE_SUBSTITUTE}
        if policy == "substitute" and substitute and players.get(power, "").lower() != substitute.lower() and substitute not in already:
            previous = players.get(power, "")
            game.repo.commit({}, f"{substitute} takes over {power} after the missed deadline",
                             {**common, "Phase": PHASE_SUBSTITUTE, "Player": substitute, "Previous": previous or "-"})
            new_deadline = deadline_of(Game(self.path), hosting_of(game))
            self.mail([substitute], f"[pbem {game.config.game}] You now play {power}",
                      f"{possessive(power)} player missed the deadline in game {game.config.game}, so you play {power} from now on.\n"
                      f"It is {possessive(power)} turn in round {state.round}; your orders are due by "
                      f"{_iso(new_deadline) if new_deadline else 'the next deadline'}.\n")
            self.mail([e for e in everyone if e.lower() != previous.lower()] + ([previous] if previous else []),
                      f"[pbem {game.config.game}] {substitute} takes over {power}",
                      f"{power} missed the deadline; {substitute} plays {power} from now on.\n")
            self.actions.append(f"{power} missed the deadline: {substitute} takes over")
            return
        if any(c.trailers.get("Phase") == PHASE_DEADLINE for c in this_turn):
            self.actions.append(f"waiting for {power} (deadline passed {common['Deadline']})")
            return
        game.repo.commit({}, f"Deadline passed for {power}: the game waits", {**common, "Phase": PHASE_DEADLINE, "Policy": "wait"})
        self.mail(everyone, f"[pbem {game.config.game}] {power} missed the deadline",
                  f"{power} sent no orders by {common['Deadline']}. The game waits for them.\n")
        self.actions.append(f"{power} missed the deadline: the game waits")

    def result(self) -> TickResult:
        return TickResult(tuple(a for a in self.actions if a), tuple(self.adjudicated))


def tick(game_dir: Path, now: datetime, *, mailer: Mailer | None = None, sender: str = "pbem <pbem@localhost>") -> TickResult:
    """Do what is due in the game at `now`; see the module docstring."""
    return _Tick(Path(game_dir), now, mailer, sender).run()
