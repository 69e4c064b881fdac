"""The dice secret stays out of repositories, private to its owner, and its loss is explained."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pbem.dice import anchor
from pbem.game.dicekeys import (
    DiceKeyError,
    InsecureDiceKey,
    KeyInsideRepository,
    MissingDiceSecret,
    WrongDiceSecret,
    default_key_dir,
    env_var_for,
    key_path,
    load_secret,
    save_secret,
)

SECRET = bytes(range(32))
posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def test_default_directory_follows_xdg_then_home(tmp_path: Path) -> None:
    assert default_key_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "pbem" / "keys"
    home = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": "relative/ignored"}
    assert default_key_dir(home) == tmp_path / ".config" / "pbem" / "keys"
    assert key_path("g1", env={"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "pbem" / "keys" / "g1.key"


def test_save_then_load_round_trip(tmp_path: Path) -> None:
    path = save_secret("g1", SECRET, tmp_path / "keys")
    assert path == tmp_path / "keys" / "g1.key"
    assert load_secret("g1", tmp_path / "keys", env={}) == SECRET
    assert SECRET.hex() in path.read_text()


@posix_only
def test_key_file_is_owner_only_even_with_a_permissive_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        path = save_secret("g1", SECRET, tmp_path / "keys")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


@posix_only
def test_loading_a_key_others_can_read_is_refused(tmp_path: Path) -> None:
    path = save_secret("g1", SECRET, tmp_path)
    path.chmod(0o644)
    with pytest.raises(InsecureDiceKey, match="chmod 600"):
        load_secret("g1", tmp_path, env={})


def test_refuses_to_write_inside_a_git_work_tree(tmp_path: Path) -> None:
    repo = tmp_path / "game"
    (repo / ".git").mkdir(parents=True)
    with pytest.raises(KeyInsideRepository, match="git work tree"):
        save_secret("g1", SECRET, repo / "secrets")
    assert not (repo / "secrets").exists()


def test_refuses_to_write_inside_the_named_game_repository(tmp_path: Path) -> None:
    repo = tmp_path / "game"  # not yet a git repository, but named as the game's
    repo.mkdir()
    with pytest.raises(KeyInsideRepository, match="game repository"):
        save_secret("g1", SECRET, repo / "keys", game_repo=repo)
    assert save_secret("g1", SECRET, tmp_path / "keys", game_repo=repo).is_file()


def test_never_silently_replaces_a_key(tmp_path: Path) -> None:
    save_secret("g1", SECRET, tmp_path)
    with pytest.raises(DiceKeyError, match="already exists"):
        save_secret("g1", bytes(32), tmp_path)
    assert load_secret("g1", tmp_path, env={}) == SECRET
    save_secret("g1", bytes(32), tmp_path, overwrite=True)
    assert load_secret("g1", tmp_path, env={}) == bytes(32)


def test_missing_secret_says_where_it_looked_and_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(MissingDiceSecret) as caught:
        load_secret("my-game.1", tmp_path, env={})
    message = str(caught.value)
    assert "PBEM_DICE_SECRET_MY_GAME_1" in message and "$PBEM_DICE_SECRET and" in message
    assert str(tmp_path / "my-game.1.key") in message
    assert "restore" in message and "new secret" in message and "anchor" in message


def test_environment_variables_for_ci_take_precedence(tmp_path: Path) -> None:
    save_secret("g1", SECRET, tmp_path)
    other = bytes([7]) * 32
    assert env_var_for("g1") == "PBEM_DICE_SECRET_G1"
    assert load_secret("g1", tmp_path, env={"PBEM_DICE_SECRET": other.hex()}) == other
    both = {"PBEM_DICE_SECRET": other.hex(), "PBEM_DICE_SECRET_G1": f"  {SECRET.hex().upper()}\n"}
    assert load_secret("g1", tmp_path, env=both) == SECRET
    assert load_secret("nofile", tmp_path, env={"PBEM_DICE_SECRET_NOFILE": SECRET.hex()}) == SECRET


def test_a_damaged_secret_is_reported_without_echoing_it(tmp_path: Path) -> None:
    with pytest.raises(DiceKeyError, match=r"\$PBEM_DICE_SECRET is not hex") as caught:
        load_secret("g1", tmp_path, env={"PBEM_DICE_SECRET": "zz-not-hex-zz"})
    assert "zz-not-hex" not in str(caught.value)
    with pytest.raises(DiceKeyError, match="shorter"):
        load_secret("g1", tmp_path, env={"PBEM_DICE_SECRET": "abcd"})


def test_the_secret_is_checked_against_the_published_anchor(tmp_path: Path) -> None:
    save_secret("g1", SECRET, tmp_path)
    published = anchor(SECRET, 20)
    assert load_secret("g1", tmp_path, env={}, anchor=published, chain_length=20) == SECRET
    with pytest.raises(WrongDiceSecret, match="published anchor"):
        load_secret("g1", tmp_path, env={}, anchor=anchor(bytes(32), 20), chain_length=20)
    with pytest.raises(ValueError, match="chain length"):
        load_secret("g1", tmp_path, env={}, anchor=published)


@pytest.mark.parametrize("bad", ["", "../escape", ".hidden", "a/b", "x" * 200])
def test_game_ids_cannot_escape_the_key_directory(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ValueError, match="game id"):
        save_secret(bad, SECRET, tmp_path)


def test_short_secrets_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 16 bytes"):
        save_secret("g1", b"tiny", tmp_path)


def test_two_games_with_the_same_name_keep_their_own_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two leagues' "game-1" on one machine: each key is named by the game's anchor too, so the
    second `pbem new` neither fails nor takes the first game's key, and both games adjudicate."""
    from pbem.game.game import Game, new_game

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("PBEM_DICE_SECRET", raising=False)
    orders = (Path(__file__).resolve().parents[2] / "examples" / "1942-2e" / "round-01" / "1-soviet-union.yaml").read_bytes()
    games = [new_game(tmp_path / league / "game-1", "1942-2e", {}, game_id="demo") for league in ("north", "south")]
    keys = sorted((tmp_path / "config" / "pbem" / "keys").glob("demo-*.key"))
    assert len(keys) == 2
    for g in games:
        g.submit(orders, "orders.yaml")
        Game(g.path).adjudicate()


def test_a_key_written_before_keys_had_the_anchor_is_still_found(tmp_path: Path) -> None:
    from pbem import dice

    anchor = dice.anchor(SECRET, 10)
    save_secret("g1", SECRET, tmp_path)  # the old name, g1.key
    assert load_secret("g1", tmp_path, env={}, anchor=anchor, chain_length=10) == SECRET


def test_a_game_created_where_a_secret_is_set_takes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/dice.md: the secret may live in `PBEM_DICE_SECRET_<GAME_ID>` or `PBEM_DICE_SECRET`
    for CI.  A game created where one is set takes that secret (a runner's key file dies with the
    runner), so the adjudications there find the anchor it published."""
    from pbem import dice
    from pbem.game.game import Game, new_game

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("PBEM_DICE_SECRET", raising=False)
    monkeypatch.setenv("PBEM_DICE_SECRET_CI_GAME", SECRET.hex())
    game = new_game(tmp_path / "ci-game", "1942-2e", {}, game_id="ci-game")
    assert game.config.dice["anchor"] == dice.anchor(SECRET, game.config.dice["chain_length"])
    orders = (Path(__file__).resolve().parents[2] / "examples" / "1942-2e" / "round-01" / "1-soviet-union.yaml").read_bytes()
    game.submit(orders.replace(b"game: demo", b"game: ci-game"), "orders.yaml")
    Game(game.path).adjudicate()


def test_the_generic_variable_never_seeds_a_new_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`PBEM_DICE_SECRET`, set for one game, must not become every new game's secret: two games on
    one chain would let one game's revealed links foretell the other's dice."""
    from pbem.game.game import new_game

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("PBEM_DICE_SECRET", SECRET.hex())
    a = new_game(tmp_path / "a", "1942-2e", {}, game_id="game-a")
    b = new_game(tmp_path / "b", "1942-2e", {}, game_id="game-b")
    assert a.config.dice["anchor"] != b.config.dice["anchor"]


def test_a_variable_set_for_another_game_gives_way_to_this_games_key_file(tmp_path: Path) -> None:
    """A stale or other game's `PBEM_DICE_SECRET` does not stop a game whose own key file is the
    right one; with no right key it is named, with what to do."""
    from pbem import dice

    other = bytes(range(32, 64))
    anchor = dice.anchor(SECRET, 10)
    save_secret("g1", SECRET, tmp_path, anchor=anchor)
    assert load_secret("g1", tmp_path, env={"PBEM_DICE_SECRET": other.hex()}, anchor=anchor, chain_length=10) == SECRET
    with pytest.raises(WrongDiceSecret, match=r"unset PBEM_DICE_SECRET for this game"):
        load_secret("g2", tmp_path, env={"PBEM_DICE_SECRET": other.hex()}, anchor=anchor, chain_length=10)
