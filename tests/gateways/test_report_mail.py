"""The report mail: HTML with the board inline by Content-ID, and a plain-text alternative (issue 14)."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest

from pbem.gateways.turns import Adjudicated, report_message
from tests.gateways.helpers import ROUND_ONE, example, make_game


@pytest.mark.parametrize("picture", ["svg", "png"])
def test_the_map_is_an_inline_part_the_html_shows_by_content_id(tmp_path: Path, picture: str) -> None:
    """A mailed report is read in a mailbox, where a link to a file beside it means nothing: the map
    is a related part of the HTML, shown through its Content-ID, and survives a round trip as bytes."""
    if picture == "png":
        pytest.importorskip("resvg_py", reason="PNG maps need resvg-py")
    game = make_game(tmp_path / "g", hosting={"report_map": picture})
    game.submit(example(ROUND_ONE[0]), "orders.yaml")
    sha, report = game.adjudicate()
    mail = report_message(game, Adjudicated(sha, 1, "Soviet Union", report), "host@league.test", ["a@players.test"])
    parsed = email.message_from_bytes(mail.as_bytes(), policy=email.policy.default)
    assert parsed.get_content_type() == "multipart/alternative"
    plain, related = parsed.get_payload()
    assert plain.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    html, image = related.get_payload()
    assert image.get_content_type() == f"image/{'svg+xml' if picture == 'svg' else 'png'}"
    assert image.get_content_disposition() == "inline"
    cid = image["Content-ID"].strip("<>")
    body = html.get_content()
    assert f'src="cid:{cid}"' in body
    assert "<svg" not in body  # not inline SVG, which mail clients strip
    assert list(parsed.iter_attachments()) == []


def test_without_a_map_the_mail_is_text_and_html_only(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", hosting={"report_map": "none"})
    game.submit(example(ROUND_ONE[0]), "orders.yaml")
    sha, report = game.adjudicate()
    mail = report_message(game, Adjudicated(sha, 1, "Soviet Union", report), "host@league.test", ["a@players.test"])
    assert [p.get_content_type() for p in mail.get_payload()] == ["text/plain", "text/html"]
    assert "cid:" not in mail.get_body(("html",)).get_content()


def test_a_games_mails_form_one_thread_and_the_map_is_named_for_the_turn(tmp_path: Path) -> None:
    """In-Reply-To and References name one id per game, so a game's mail reads as one thread; the
    map part is named after the game, round and power (issue 21)."""
    game = make_game(tmp_path / "g", hosting={"report_map": "svg"})
    game.submit(example(ROUND_ONE[0]), "orders.yaml")
    sha, report = game.adjudicate()
    first = report_message(game, Adjudicated(sha, 1, "Soviet Union", report), "host@league.test", ["a@players.test"])
    game.submit(example(ROUND_ONE[1]), "orders.yaml")
    sha2, report2 = game.adjudicate()
    second = report_message(game, Adjudicated(sha2, 1, "Germany", report2), "host@league.test", ["a@players.test"])
    assert first["In-Reply-To"] == second["In-Reply-To"] == first["References"]
    assert first["Message-ID"] != second["Message-ID"]
    names = [p.get_filename() for m in (first, second) for p in m.walk() if p.get_content_disposition() == "inline"]
    assert names == ["demo-round-01-soviet-union-map.svg", "demo-round-01-germany-map.svg"]
