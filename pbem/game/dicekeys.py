"""Where the dice holder's secret lives: outside every repository, readable by its owner only.

The secret behind a game's hash chain must never be committed, since anyone who had it could
foresee every die.  It is kept in `$XDG_CONFIG_HOME/pbem/keys/<game-id>-<anchor>.key` (or
`~/.config/pbem/keys/...`) with mode 0600, where `<anchor>` is the first 16 hex digits of the
chain's published anchor: two games that share a name on one machine (two leagues' "game-1") then
never share or overwrite a key. Keys written before that (`<game-id>.key`) are still found, or for CI in an environment variable:
`PBEM_DICE_SECRET_<GAME_ID>` for one game, `PBEM_DICE_SECRET` for any.  Losing it stops the
chain, so every failure here says exactly what was looked for and what to do next.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Mapping

from pbem.dice import MIN_SECRET_BYTES, verify_secret

ENV_SECRET = "PBEM_DICE_SECRET"
KEY_SUFFIX = ".key"
_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


class DiceKeyError(Exception):
    """Base for every problem with a game's dice secret."""


class MissingDiceSecret(DiceKeyError):
    """No secret for this game on this machine: the dice holder must restore or replace it."""


class InsecureDiceKey(DiceKeyError):
    """The key file is readable by others, so the dice may already be foreseeable."""


class WrongDiceSecret(DiceKeyError):
    """A secret was found, but it does not produce the anchor published in game.yaml."""


class KeyInsideRepository(DiceKeyError):
    """Refused to write a secret inside a git work tree, where it could be committed."""


def _check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        raise ValueError(
            f"game id {game_id!r} cannot name a key file: use letters, digits, '.', '_' or '-', "
            "starting with a letter or digit, at most 128 characters"
        )
    return game_id


def env_var_for(game_id: str) -> str:
    """The per-game variable: PBEM_DICE_SECRET_ plus the id upper-cased, non-alphanumerics as '_'."""
    return f"{ENV_SECRET}_{re.sub(r'[^A-Z0-9]', '_', _check_game_id(game_id).upper())}"


def default_key_dir(env: Mapping[str, str] = os.environ) -> Path:
    """`$XDG_CONFIG_HOME/pbem/keys`, or `~/.config/pbem/keys` (XDG ignores relative values)."""
    xdg = env.get("XDG_CONFIG_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "pbem" / "keys"
    home = env.get("HOME")
    return (Path(home) if home else Path.home()) / ".config" / "pbem" / "keys"


ANCHOR_DIGITS = 16


def key_path(game_id: str, key_dir: Path | str | None = None, env: Mapping[str, str] = os.environ,
             anchor: str | None = None) -> Path:
    """The key file for a game: named by its id and, given the anchor, by the anchor too."""
    directory = Path(key_dir) if key_dir is not None else default_key_dir(env)
    tag = f"-{anchor[:ANCHOR_DIGITS].lower()}" if anchor else ""
    if tag and not re.fullmatch(r"-[0-9a-f]+", tag):
        raise ValueError(f"an anchor is hexadecimal, not {anchor!r}")
    return directory / f"{_check_game_id(game_id)}{tag}{KEY_SUFFIX}"


def find_work_tree(path: Path | str) -> Path | None:
    """The git work tree containing `path` (existing or not), or None."""
    current = Path(path).resolve()
    for candidate in (current, *current.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def save_secret(
    game_id: str,
    secret: bytes,
    key_dir: Path | str | None = None,
    *,
    game_repo: Path | str | None = None,
    overwrite: bool = False,
    env: Mapping[str, str] = os.environ,
    anchor: str | None = None,
) -> Path:
    """Write the secret as a 0600 key file outside any git work tree; return its path.

    An existing key is never replaced unless `overwrite` is set: replacing it would orphan the
    anchor already published for the game.
    """
    if not isinstance(secret, (bytes, bytearray)) or len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"a dice secret must be at least {MIN_SECRET_BYTES} bytes")
    path = key_path(game_id, key_dir, env, anchor)
    directory = path.parent.resolve()
    if game_repo is not None:
        repo = Path(game_repo).resolve()
        if directory == repo or repo in directory.parents:
            raise KeyInsideRepository(
                f"refusing to write the dice secret into the game repository ({directory}): "
                "it would end up committed; choose a key directory outside it"
            )
    tree = find_work_tree(directory)
    if tree is not None:
        raise KeyInsideRepository(
            f"refusing to write the dice secret into {directory}, inside the git work tree {tree}: "
            "choose a key directory that no repository contains (default: ~/.config/pbem/keys)"
        )
    if path.exists() and not overwrite:
        raise DiceKeyError(
            f"a dice secret for game {game_id!r} already exists at {path}; replacing it would orphan "
            "the game's published anchor, so it is kept"
        )
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    text = (
        f"# pbem dice secret for game {game_id}: keep it private, back it up, never commit it\n"
        f"{bytes(secret).hex()}\n"
    )
    temporary = directory / f".{path.name}.tmp"
    if temporary.exists():
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)  # the umask may only have narrowed it; make it exact
        os.write(fd, text.encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)
    return path


def secret_from_env(game_id: str, env: Mapping[str, str] = os.environ) -> tuple[bytes, str] | None:
    """The secret `PBEM_DICE_SECRET_<GAME_ID>` holds, and the variable's name: a game created where
    it is set (a CI runner with the forge's secret store) takes it, for the runner's key file is
    gone with the runner.  Never the generic `PBEM_DICE_SECRET`: set for one game, it would give
    every new game the same chain, and one game's revealed links would foretell another's dice."""
    name = env_var_for(game_id)
    if env.get(name):
        return _parse(env[name], f"${name}"), name
    return None


def _parse(text: str, source: str) -> bytes:
    lines = [line.strip() for line in text.splitlines()]
    body = "".join(line for line in lines if line and not line.startswith("#"))
    try:
        secret = bytes.fromhex(body)
    except ValueError:
        raise DiceKeyError(f"the dice secret in {source} is not hex; it may be damaged") from None
    if len(secret) < MIN_SECRET_BYTES:
        raise DiceKeyError(f"the dice secret in {source} is shorter than {MIN_SECRET_BYTES} bytes")
    return secret


def load_secret(
    game_id: str,
    key_dir: Path | str | None = None,
    env: Mapping[str, str] = os.environ,
    *,
    anchor: str | None = None,
    chain_length: int | None = None,
) -> bytes:
    """The game's secret from `PBEM_DICE_SECRET_<GAME_ID>`, then `PBEM_DICE_SECRET`, then the key file.

    Given the published `anchor` and `chain_length`, also checks the secret is the right one,
    so a stale variable or another game's key fails here rather than as a bad reveal later.
    """
    path = key_path(game_id, key_dir, env, anchor)
    if anchor is not None and not path.is_file() and key_path(game_id, key_dir, env).is_file():
        path = key_path(game_id, key_dir, env)  # a key written before keys were named by anchor
    per_game = env_var_for(game_id)
    if env.get(per_game):
        secret, source = _parse(env[per_game], f"${per_game}"), f"${per_game}"
    elif env.get(ENV_SECRET):
        secret, source = _parse(env[ENV_SECRET], f"${ENV_SECRET}"), f"${ENV_SECRET}"
    elif path.is_file():
        mode = stat.S_IMODE(path.stat().st_mode)
        if os.name == "posix" and mode & 0o077:
            raise InsecureDiceKey(
                f"the dice secret {path} is readable by other users (mode {mode:o}); run "
                f"`chmod 600 {path}` and consider whether the game's dice may have been exposed"
            )
        secret, source = _parse(path.read_text(encoding="ascii", errors="replace"), str(path)), str(path)
    else:
        raise MissingDiceSecret(
            f"no dice secret for game {game_id!r} on this machine: looked in ${per_game}, "
            f"${ENV_SECRET} and {path}. Only the dice holder has it. If you are the holder, restore "
            f"the key file from your backup (or set ${per_game} in CI). If it is lost, the chain "
            "cannot continue: all players must agree to a new secret and publish its anchor in "
            "game.yaml; turns already adjudicated stay verifiable."
        )
    if anchor is not None:
        if chain_length is None:
            raise ValueError("checking a secret against the anchor needs the chain length too")
        if not verify_secret(secret, anchor, chain_length):
            if source.startswith("$") and path.is_file():
                # a variable set for another game, or stale: the game's own key file may be right
                from_file = _parse(path.read_text(encoding="ascii", errors="replace"), str(path))
                if verify_secret(from_file, anchor, chain_length):
                    return from_file
            raise WrongDiceSecret(
                f"the dice secret from {source} does not produce game {game_id!r}'s published anchor: "
                "it belongs to another game or was replaced; "
                + (f"unset {source[1:]} for this game, or set it to this game's secret" if source.startswith("$")
                   else "find the right key file")
            )
    return secret
