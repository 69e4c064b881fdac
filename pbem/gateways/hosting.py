"""The `hosting:` settings of game.yaml, and the facts the gateways record in the game's history.

game.yaml is fixed after the first commit (the audit flags any change), so whatever happens while
a game is hosted -- a substitute taking over a power, a reminder sent, a deadline passing -- is
recorded as a commit whose `Pbem-*` trailers say what happened.  Those commits change no file, so
replaying the game is unaffected, and everything a gateway decides is visible in `git log`.

    hosting:
      turn_hours: 48           # each power-turn is due this long after the previous one ended
      grace_hours: 6           # the missing-orders policy applies at deadline + grace
      reminders_hours: [24, 2] # remind the player this long before the deadline
      missing_orders: standing # standing | wait | substitute
      substitutes: {Germany: sub@example.org}   # who takes over, with `substitute`
      adjudicate: on-orders    # on-orders (as soon as the power to move has valid orders) | at-deadline
      report_map: png          # the map attached to report mails: png | svg | none
      site_url: https://league.example/games/summer-7   # where `pbem site` is published; report mails link the turn's page
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pbem.game.game import Game, GameError
from pbem.game.config import odds_seconds

POLICIES = ("standing", "wait", "substitute")
ADJUDICATE = ("on-orders", "at-deadline")
MAP_FORMATS = ("png", "svg", "none")

# trailers written by the gateways (the repository adds the "Pbem-" prefix)
PHASE_SUBSTITUTE = "substitute"
PHASE_REMINDER = "reminder"
PHASE_DEADLINE = "deadline"
TURN_START_PHASES = ("new", "adjudication", PHASE_SUBSTITUTE)


@dataclass(frozen=True)
class Hosting:
    """Validated hosting settings; every field has a default so a bare game can be hosted."""

    turn_hours: float | None = None
    grace_hours: float = 0.0
    reminders_hours: tuple[float, ...] = ()
    missing_orders: str = "wait"
    substitutes: Mapping[str, str] = field(default_factory=dict)
    adjudicate: str = "on-orders"
    report_map: str = "png"
    site_url: str | None = None  # the published game site (`pbem site`); report mails link each turn's page
    odds_seconds: float | None = None  # the bound of each battle's exact odds (pbem.game.config.odds_seconds)

    @property
    def has_deadlines(self) -> bool:
        return self.turn_hours is not None


class HostingError(GameError):
    """Hosting settings that cannot be used: every problem, as (setting, what is wrong)."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__("; ".join(f"game.yaml hosting.{key} {message}" for key, message in problems))


def _hours(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise HostingError([(what, f"must be a number of hours, not {value!r}")])
    return float(value)


def hosting_of(game: Game) -> Hosting:
    """The game's hosting settings, checked: a typo must stop the host, not silently skip a deadline."""
    return check_hosting(game.config.hosting or {}, game.ruleset)


def check_hosting(settings: Mapping[str, Any], ruleset: Any) -> Hosting:
    """Hosting settings from game.yaml (or `pbem new --hosting FILE`), checked against the ruleset;
    HostingError lists every problem, not just the first."""
    raw = dict(settings)
    problems: list[tuple[str, str]] = []

    def hours(key: str, value: Any) -> float | None:
        try:
            return _hours(value, key)
        except HostingError as err:
            problems.extend(err.problems)
            return None

    known = {"turn_hours", "grace_hours", "reminders_hours", "missing_orders", "substitutes", "adjudicate", "report_map",
             "site_url", "odds_seconds"}
    for key in sorted(set(raw) - known):
        problems.append((str(key), f"is not a setting; known: {', '.join(sorted(known))}"))
    turn = raw.get("turn_hours")
    turn_hours = None if turn is None else hours("turn_hours", turn)
    if turn_hours is not None and turn_hours <= 0:
        problems.append(("turn_hours", "must be more than 0"))
    reminders = raw.get("reminders_hours") or []
    if not isinstance(reminders, list):
        reminders = [reminders]
    reminder_hours = [h for h in (hours("reminders_hours", r) for r in reminders) if h is not None]
    grace = hours("grace_hours", raw.get("grace_hours", 0))
    policy = raw.get("missing_orders", "wait")
    if policy not in POLICIES:
        problems.append(("missing_orders", f"is {policy!r}; choose {', '.join(POLICIES)}"))
    subs_raw = raw.get("substitutes") or {}
    subs: dict[str, str] = {}
    if not isinstance(subs_raw, dict):
        problems.append(("substitutes", "must map powers to addresses"))
        subs_raw = {}
    for name, email in subs_raw.items():
        try:
            power = ruleset.power(str(name)).name
        except KeyError:
            problems.append(("substitutes", f"names {name!r}, which is no power of this game"))
            continue
        if not isinstance(email, str) or "@" not in email:
            problems.append(("substitutes", f"gives {name} {email!r}, which is not an address"))
            continue
        subs[power] = email.strip()
    adjudicate = raw.get("adjudicate", "on-orders")
    if adjudicate not in ADJUDICATE:
        problems.append(("adjudicate", f"is {adjudicate!r}; choose {', '.join(ADJUDICATE)}"))
    if adjudicate == "at-deadline" and turn is None:
        problems.append(("adjudicate", "is at-deadline, which needs hosting.turn_hours"))
    report_map = raw.get("report_map", "png")
    if report_map not in MAP_FORMATS:
        problems.append(("report_map", f"is {report_map!r}; choose {', '.join(MAP_FORMATS)}"))
    site_url = raw.get("site_url")
    if site_url is not None and not (isinstance(site_url, str) and re.match(r"^https?://[^\s/]+", site_url)):
        problems.append(("site_url", f"is {site_url!r}; give the site's web address, https://..."))
    seconds = None
    try:
        seconds = odds_seconds(raw)
    except ValueError as err:
        problems.append(("odds_seconds", str(err).removeprefix("hosting.odds_seconds ")))
    if problems:
        raise HostingError(problems)
    return Hosting(turn_hours, grace or 0.0, tuple(sorted(reminder_hours, reverse=True)),
                   policy, subs, adjudicate, report_map, site_url.rstrip("/") if site_url else None, seconds)


def current_players(game: Game) -> dict[str, str]:
    """Power -> player address: game.yaml's players with every recorded substitution applied."""
    players = {p: (e or "").strip() for p, e in game.config.players.items()}
    for c in game.repo.history():
        if c.trailers.get("Phase") == PHASE_SUBSTITUTE and c.trailers.get("Power") in players:
            players[c.trailers["Power"]] = c.trailers.get("Player", "")
    return players


def powers_of(players: Mapping[str, str], address: str) -> list[str]:
    """The powers an address plays (addresses compare case-insensitively)."""
    want = address.strip().lower()
    return [p for p, e in players.items() if e and e.strip().lower() == want]


def turn_started(game: Game) -> datetime:
    """When the current power-turn began: the last adjudication, substitution or the game's creation."""
    history = game.repo.history()
    starts = [i for i, c in enumerate(history) if c.trailers.get("Phase") in TURN_START_PHASES] or [0]
    moment = commit_time(history[starts[-1]])
    # an adjudication a tick triggered at a given --now ends the turn no earlier than that tick's time,
    # which the tick recorded on the commits it made during the turn (the adjudication itself has none)
    previous = starts[-2] if len(starts) > 1 else 0
    for c in history[previous + 1:starts[-1]]:
        if c.trailers.get("At"):
            moment = max(moment, commit_time(c))
    return moment


def commit_time(commit: Any) -> datetime:
    """When a commit happened for the gateways: its `At` trailer (the `--now` of the tick that wrote
    it, so simulated time stays consistent), else its committer time."""
    at = commit.trailers.get("At")
    if at:
        try:
            return parse_now(at)
        except GameError:
            pass
    return datetime.fromtimestamp(commit.timestamp, UTC)


def turn_commits(game: Game) -> list[Any]:
    """The commits of the current power-turn (after the last turn start), oldest first."""
    history = game.repo.history()
    for i in range(len(history) - 1, -1, -1):
        if history[i].trailers.get("Phase") in TURN_START_PHASES:
            return history[i + 1:]
    return history


def deadline_of(game: Game, hosting: Hosting) -> datetime | None:
    """The current turn's deadline, or None when the game has none."""
    if hosting.turn_hours is None:
        return None
    return turn_started(game) + timedelta(hours=hosting.turn_hours)


def parse_now(text: str | None) -> datetime:
    """An ISO 8601 instant (a naive one is taken as UTC); the system clock when None -- CLI edge only."""
    if text is None:
        return datetime.now(UTC)
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise GameError(f"--now {text!r} is not an ISO 8601 time such as 2026-03-01T18:00:00Z") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)
