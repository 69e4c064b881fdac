"""A game is a git repository: every submission and every adjudication is exactly one commit.

Why plumbing and not `git commit` / GitPython's index: four processes committing at once through
an ordinary index silently lost about half of their commits. Here a commit is built without ever
touching the user's index or work tree:

1. take an exclusive lock file in the git directory (`pbem.lock`; waits up to `lock_timeout`,
   then `RepositoryBusy`), so concurrent pbem processes queue instead of racing;
2. write blobs (`hash-object -w --no-filters`, exact bytes), build the new tree in a throw-away
   index (`GIT_INDEX_FILE` in a temp dir: `read-tree`, `update-index --index-info`,
   `write-tree`), and `commit-tree` with the message and `Pbem-*` trailers;
3. in a non-bare repository whose HEAD is on the game branch, check with a dry run that the work
   tree can follow (no local change or untracked file would be overwritten);
4. move the branch with `update-ref <new> <old>`, a compare-and-swap: if anything else moved it
   (even a human's `git commit`), `ConcurrentUpdate`;
5. only then update the index and work tree (`read-tree -m -u old new`: changed paths only,
   unrelated untracked files untouched). If that fails, the branch is moved back.

A failure at any step before 4 leaves refs, index and work tree exactly as they were (at most a
few unreachable objects, which `git gc` removes). Bare repositories (a server hook) take the
same path without step 3 and 5.

Identity: commits are authored by the identity passed to `commit()`, else the game's identity
(stored at `init` in the repository's own config as `pbem.name` / `pbem.email`), else
`DEFAULT_IDENTITY`, `pbem <pbem@localhost>`. It is passed through GIT_AUTHOR_* /
GIT_COMMITTER_* so no `user.name` needs configuring anywhere (fresh machines, CI). Signing is
switched off (`commit.gpgsign=false`, `--no-gpg-sign`) so a user's global config cannot make a
commit hang on a passphrase prompt. GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE and friends
inherited from a calling hook are dropped: every command names the repository explicitly.

Trailers: `commit(trailers={"Round": "1", "Power": "Germany"})` ends the message with
`Pbem-Round: 1` / `Pbem-Power: Germany` (a `git interpret-trailers` compatible block);
`history()` gives them back without the prefix.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from filelock import FileLock, Timeout

__all__ = [
    "DEFAULT_IDENTITY",
    "CommitInfo",
    "ConcurrentUpdate",
    "GameRepo",
    "GitFailed",
    "Identity",
    "NotAGameRepo",
    "RepoError",
    "RepositoryBusy",
    "UnknownRef",
    "WorkTreeConflict",
]

TRAILER_PREFIX = "Pbem-"
_ENV_DROPPED = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX",
                "GIT_NAMESPACE")
_SAFE_CONFIG = ("-c", "commit.gpgsign=false", "-c", "core.quotepath=false",
                "-c", "log.showSignature=false", "-c", "color.ui=false")
_TRAILER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_TRAILER_LINE = re.compile(r"([A-Za-z][A-Za-z0-9-]*): ?(.*)")
_FULL_SHA = re.compile(r"[0-9a-f]{40}")  # a commit id written out (SHA-1 repositories)
_ZERO = "0" * 40


class RepoError(Exception):
    """Base of everything this module raises on purpose; the message is meant for the user."""


class NotAGameRepo(RepoError):
    """The path is not a game repository (not a git repository, or its game branch is missing)."""


class RepositoryBusy(RepoError):
    """Another pbem process held the repository lock for longer than the timeout."""


class ConcurrentUpdate(RepoError):
    """The branch moved since the caller looked at it; nothing was changed: re-read and retry."""


class WorkTreeConflict(RepoError):
    """Local changes or untracked files in the checkout would be overwritten; nothing changed."""


class UnknownRef(RepoError):
    """A ref or commit name that does not exist in the repository."""


class GitFailed(RepoError):
    """A git command failed unexpectedly; carries the command and git's own message."""

    def __init__(self, args: list[str], returncode: int, stderr: str):
        self.args_ = args
        self.returncode = returncode
        self.stderr = stderr
        super().__init__(f"git {' '.join(args[:3])} failed ({returncode}): {stderr.strip()}")


@dataclass(frozen=True)
class Identity:
    """Who a commit is by; passed through the environment so no git config is needed."""

    name: str
    email: str

    def __post_init__(self) -> None:
        for value in (self.name, self.email):
            if not value or any(c in value for c in "<>\n\0"):
                raise ValueError(f"invalid identity part {value!r}")


DEFAULT_IDENTITY = Identity("pbem", "pbem@localhost")


@dataclass(frozen=True)
class CommitInfo:
    """One commit of a game's history, with its `Pbem-*` trailers parsed back."""

    sha: str
    parents: tuple[str, ...]
    subject: str
    body: str  # the message after the subject, trailers excluded
    trailers: dict[str, str]  # without the "Pbem-" prefix, e.g. {"Round": "1"}
    files_changed: tuple[str, ...]
    author: Identity
    timestamp: int  # committer time, seconds since the epoch


def _git_env(identity: Identity | None = None, index_file: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _ENV_DROPPED}
    env.update(LC_ALL="C", LANGUAGE="C", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0")
    if identity is not None:
        env.update(GIT_AUTHOR_NAME=identity.name, GIT_AUTHOR_EMAIL=identity.email,
                   GIT_COMMITTER_NAME=identity.name, GIT_COMMITTER_EMAIL=identity.email)
    if index_file is not None:
        env["GIT_INDEX_FILE"] = index_file
    return env


def _run(args: list[str], *, cwd: Path | None = None, git_dir: Path | None = None,
         work_tree: Path | None = None, input: bytes | None = None,
         env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    command = ["git", *_SAFE_CONFIG]
    if git_dir is not None:
        command.append(f"--git-dir={git_dir}")
    if work_tree is not None:
        command.append(f"--work-tree={work_tree}")
    command += args
    result = subprocess.run(command, cwd=cwd, input=input, capture_output=True,
                            env=env if env is not None else _git_env())
    if check and result.returncode != 0:
        raise GitFailed(args, result.returncode, result.stderr.decode("utf-8", "replace"))
    return result


class _CatFile:
    """One `git cat-file --batch` process answering name after name (`GameRepo.batch_reads`).
    A request is written only once the previous answer is read, so neither pipe can fill up."""

    def __init__(self, git_dir: Path):
        self.proc = subprocess.Popen(["git", *_SAFE_CONFIG, f"--git-dir={git_dir}", "cat-file", "--batch"],
                                     cwd=git_dir, env=_git_env(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def ask(self, name: str) -> tuple[list[bytes], bytes | None]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(name.encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as err:
            raise GitFailed(["cat-file", "--batch"], -1, f"git stopped answering: {err}") from None
        return _batch_answer(self.proc.stdout)

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            if self.proc.stdout is not None:
                self.proc.stdout.close()


def _batch_answer(stream: BinaryIO) -> tuple[list[bytes], bytes | None]:
    """One answer of `git cat-file --batch`: its header's words ("<sha> <type> <size>", or
    "<name> missing", a name that may hold spaces) and, for an object, its content."""
    line = stream.readline()
    if not line.endswith(b"\n"):
        raise GitFailed(["cat-file", "--batch"], -1, "git stopped answering")
    header = line.split()
    if len(header) == 3 and _FULL_SHA.fullmatch(header[0].decode("ascii", "replace")) and header[2].isdigit():
        size = int(header[2])
        body = stream.read(size + 1)  # the content, then a newline
        if len(body) != size + 1:
            raise GitFailed(["cat-file", "--batch"], -1, "git stopped answering")
        return header, body[:size]
    return header, None


def _check_path(path: str) -> str:
    """A repository path: relative, '/'-separated, no '.', '..', '.git' or empty parts."""
    parts = path.split("/")
    if (not path or path.startswith(("/", '"')) or "\\" in path
            or any(ord(c) < 0x20 or c == "\x7f" for c in path)
            or any(p in ("", ".", "..") or p.lower() == ".git" for p in parts)):
        raise ValueError(f"invalid path in a game repository: {path!r}")
    return path


def _format_message(message: str, trailers: Mapping[str, str]) -> str:
    message = message.strip()
    if not message or "\n" in message.splitlines()[0]:
        raise ValueError("a commit message needs a subject line")
    lines = []
    for key, value in trailers.items():
        if not _TRAILER_KEY.fullmatch(key):
            raise ValueError(f"invalid trailer name {key!r}: letters, digits and '-' only")
        value = str(value).strip()
        if "\n" in value or "\r" in value:
            raise ValueError(f"trailer {key!r} must be a single line")
        lines.append(f"{TRAILER_PREFIX}{key}: {value}")
    return message + ("\n\n" + "\n".join(lines) if lines else "") + "\n"


def _parse_message(message: str) -> tuple[str, str, dict[str, str]]:
    """Subject, body and Pbem trailers (the last paragraph, if every line is `Key: value`)."""
    message = message.strip("\n")
    subject, _, rest = message.partition("\n")
    paragraphs = rest.strip("\n").split("\n\n")
    trailers: dict[str, str] = {}
    last = paragraphs[-1].strip("\n") if rest.strip() else ""
    matches = [_TRAILER_LINE.fullmatch(line) for line in last.splitlines()] if last else []
    if matches and all(matches):
        for match in matches:
            assert match is not None
            if match.group(1).startswith(TRAILER_PREFIX):
                trailers[match.group(1)[len(TRAILER_PREFIX):]] = match.group(2).strip()
        if trailers:
            paragraphs = paragraphs[:-1]
    return subject.strip(), "\n\n".join(paragraphs).strip("\n"), trailers


class GameRepo:
    """A game's git repository (bare or with a work tree); all writes via `commit()`."""

    _cat: _CatFile | None = None  # the open `git cat-file --batch` of `batch_reads`

    def __init__(self, path: str | os.PathLike[str], *, branch: str = "main",
                 lock_timeout: float = 30.0):
        self.path = Path(path).resolve()
        self.branch = branch
        self.ref = f"refs/heads/{branch}"
        self.lock_timeout = lock_timeout
        if not self.path.is_dir():
            raise NotAGameRepo(f"{self.path} does not exist or is not a directory")
        result = _run(["rev-parse", "--absolute-git-dir", "--git-common-dir",
                       "--is-bare-repository"], cwd=self.path, check=False)
        lines = result.stdout.decode().splitlines()
        if result.returncode != 0 or len(lines) != 3:
            raise NotAGameRepo(f"{self.path} is not a git repository")
        self.git_dir = Path(lines[0]).resolve()
        self.common_dir = (self.path / lines[1]).resolve()
        self.bare = lines[2] == "true"
        if self.bare:
            if self.git_dir != self.path:
                raise NotAGameRepo(f"{self.path} is inside the bare repository {self.git_dir}")
            self.work_tree: Path | None = None
        else:
            found = _run(["rev-parse", "--show-toplevel"], cwd=self.path, check=False)
            top = Path(found.stdout.decode().strip()).resolve() if found.returncode == 0 else None
            if top != self.path:
                # e.g. a games/ folder inside some other repository: never commit into that
                raise NotAGameRepo(f"{self.path} is not the top of a git repository"
                                   + (f" (it is inside {top})" if top else ""))
            self.work_tree = self.path
        if self._rev(self.ref) is None:
            raise NotAGameRepo(f"{self.path} has no branch {branch!r}: not a game repository")
        self.identity = self._configured_identity()

    # ------------------------------------------------------------------ creating

    @classmethod
    def init(cls, path: str | os.PathLike[str], *, initial_files: Mapping[str, bytes],
             message: str, trailers: Mapping[str, str] | None = None,
             identity: Identity = DEFAULT_IDENTITY, bare: bool = False,
             branch: str = "main") -> "GameRepo":
        """Create a game repository with its first commit; the directory must be new or empty.

        `identity` becomes the game's identity for later commits. On any failure the
        repository is removed again (and the directory, if this call created it).
        """
        target = Path(path)
        created = not target.exists()
        if not created and (not target.is_dir() or any(target.iterdir())):
            raise RepoError(f"{target} exists and is not an empty directory")
        target.mkdir(parents=True, exist_ok=True)
        try:
            _run(["init", "-q", *(["--bare"] if bare else []), str(target)])
            git_dir = target if bare else target / ".git"
            _run(["symbolic-ref", "HEAD", f"refs/heads/{branch}"], git_dir=git_dir)
            _run(["config", "pbem.name", identity.name], git_dir=git_dir)
            _run(["config", "pbem.email", identity.email], git_dir=git_dir)
            _run(["config", "pbem.branch", branch], git_dir=git_dir)
            if not bare:  # players diff these files: keep bytes exactly as written
                _run(["config", "core.autocrlf", "false"], git_dir=git_dir)
            repo = cls.__new__(cls)
            repo._setup(target, git_dir, bare, branch, identity)
            repo._commit(dict(initial_files), message, trailers or {}, expected=None,
                         identity=identity, create=True)
            return cls(target, branch=branch)
        except BaseException:
            if created:
                shutil.rmtree(target, ignore_errors=True)
            else:
                for child in target.iterdir():
                    shutil.rmtree(child) if child.is_dir() else child.unlink()
            raise

    def _setup(self, path: Path, git_dir: Path, bare: bool, branch: str,
               identity: Identity) -> None:
        self.path = path.resolve()
        self.git_dir = self.common_dir = git_dir.resolve()
        self.bare = bare
        self.work_tree = None if bare else self.path
        self.branch = branch
        self.ref = f"refs/heads/{branch}"
        self.lock_timeout = 30.0
        self.identity = identity

    def _configured_identity(self) -> Identity:
        result = self._git(["config", "--local", "--get-regexp", r"^pbem\.(name|email)$"],
                           check=False)
        found = dict(line.split(" ", 1) for line in result.stdout.decode().splitlines()
                     if " " in line)
        try:
            return Identity(found["pbem.name"], found["pbem.email"])
        except (KeyError, ValueError):
            return DEFAULT_IDENTITY

    # ------------------------------------------------------------------ reading

    def _git(self, args: list[str], *, input: bytes | None = None,
             env: dict[str, str] | None = None, check: bool = True,
             work_tree: bool = False) -> subprocess.CompletedProcess[bytes]:
        return _run(args, git_dir=self.git_dir, input=input, env=env, check=check,
                    work_tree=self.work_tree if work_tree else None,
                    cwd=self.work_tree if work_tree else self.git_dir)

    def _rev(self, ref: str) -> str | None:
        result = self._git(["rev-parse", "--verify", "-q", "--end-of-options",
                            f"{ref}^{{commit}}"], check=False)
        return result.stdout.decode().strip() if result.returncode == 0 else None

    def resolve(self, ref: str | None = None) -> str:
        """The full sha of a commit name (default: the game branch); UnknownRef if none."""
        sha = self._rev(ref or self.ref)
        if sha is None:
            raise UnknownRef(f"no commit {ref!r} in {self.path}")
        return sha

    def head(self) -> str:
        """The sha at the tip of the game branch (not the checkout's HEAD, which may differ)."""
        return self.resolve(self.ref)

    def read(self, path: str, ref: str | None = None) -> bytes | None:
        """A file's bytes at `ref` (default: the game branch tip), None if it does not exist."""
        if ref is not None and _FULL_SHA.fullmatch(ref):
            return self.read_many([path], ref)[path]  # a commit id (audit reads hundreds): one git call, not two
        commit = self.resolve(ref)
        result = self._git(["cat-file", "blob", f"{commit}:{_check_path(path)}"], check=False)
        return result.stdout if result.returncode == 0 else None

    def read_many(self, paths: list[str], ref: str | None = None) -> dict[str, bytes | None]:
        """`read` for many files of one commit in one git call (`git cat-file --batch`), or none
        within `batch_reads`.  A commit id is checked in the same call (UnknownRef if there is no
        such commit)."""
        given = ref is not None and _FULL_SHA.fullmatch(ref)
        commit = ref if given else self.resolve(ref)
        names = ([f"{commit}^{{commit}}"] if given else []) + [f"{commit}:{_check_path(p)}" for p in paths]
        if self._cat is not None:
            answers = [self._cat.ask(n) for n in names]
        else:
            out = io.BytesIO(self._git(["cat-file", "--batch"], input="".join(f"{n}\n" for n in names).encode()).stdout)
            answers = [_batch_answer(out) for _ in names]
        found: dict[str | None, bytes | None] = {}
        for p, (header, body) in zip(([None] if given else []) + list(paths), answers):
            # a file's blob, or the commit itself; "missing" or another type of object: None
            found[p] = body if body is not None and (header[1] == b"blob" or (p is None and header[1] == b"commit")) else None
        if given and found.pop(None) is None:
            raise UnknownRef(f"no commit {ref!r} in {self.path}")
        return found  # type: ignore[return-value]

    @contextmanager
    def batch_reads(self) -> Iterator[None]:
        """Within the block, `read_many` (and `read` by commit id) asks one `git cat-file --batch`
        process kept open, instead of starting git for every call: audit reads a few files of
        every commit of a long history, and starting git costs more than reading."""
        if self._cat is not None:
            yield
            return
        self._cat = _CatFile(self.git_dir)
        try:
            yield
        finally:
            cat, self._cat = self._cat, None
            cat.close()

    def list(self, directory: str = "", ref: str | None = None) -> list[str]:
        """Repository paths of all files under `directory` (recursively) at `ref`, sorted."""
        commit = self.resolve(ref)
        args = ["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit]
        prefix = ""
        if directory.strip("/"):
            prefix = _check_path(directory.strip("/")) + "/"
            args += ["--", prefix]
        names = self._git(args).stdout.decode("utf-8", "surrogateescape").split("\0")
        return sorted(n for n in names if n and n.startswith(prefix))

    def history(self, ref: str | None = None) -> list[CommitInfo]:
        """Every commit reachable from `ref` (default: the game branch), oldest first."""
        commit = self.resolve(ref)
        fmt = "%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%ct%x1f%B%x1f"
        out = self._git(["log", "--reverse", "--topo-order", "--root", "--no-renames", "-z",
                         "--name-only", f"--format={fmt}", commit, "--"]).stdout
        infos = []
        for record in out.decode("utf-8", "surrogateescape").split("\x1e")[1:]:
            sha, parents, name, email, when, message, files = record.split("\x1f", 6)
            subject, body, trailers = _parse_message(message)
            infos.append(CommitInfo(
                sha=sha, parents=tuple(parents.split()), subject=subject, body=body,
                trailers=trailers, files_changed=tuple(
                    f.lstrip("\n") for f in files.split("\0") if f.strip("\n")),
                author=Identity(name or "?", email or "?"), timestamp=int(when)))
        return infos

    def work_tree_differences(self) -> list[str]:
        """Tracked files of the checkout that differ from the game branch's tip (empty for a bare
        repository); the first entry says so when the checkout is not on the game branch at all."""
        if self.bare:
            return []
        out: list[str] = []
        if not self._work_tree_follows():
            out.append(f"(the checkout is not on branch {self.branch})")
        self._refresh_index()
        result = self._git(["diff", "--name-only", "-z", "--no-renames", self.ref, "--"], work_tree=True,
                           check=False)
        out += sorted(p for p in result.stdout.decode("utf-8", "surrogateescape").split("\0") if p)
        return out

    def diff(self, a: str, b: str | None = None) -> str:
        """The unified diff between two commits (`b` defaults to the game branch tip)."""
        old, new = self.resolve(a), self.resolve(b)
        return self._git(["diff", "--no-color", "--no-ext-diff", "--no-textconv",
                          "--no-renames", old, new, "--"]).stdout.decode("utf-8", "replace")

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _locked(self) -> Iterator[None]:
        lock = FileLock(str(self.common_dir / "pbem.lock"), timeout=self.lock_timeout)
        try:
            lock.acquire()
        except Timeout:
            raise RepositoryBusy(
                f"{self.path} is busy: another pbem process has held its lock for over "
                f"{self.lock_timeout:g} s; try again shortly") from None
        try:
            yield
        finally:
            lock.release()

    def commit(self, files: Mapping[str, bytes | None], message: str,
               trailers: Mapping[str, str] | None = None, *, expected_head: str | None = None,
               identity: Identity | None = None, sign: bool = False) -> str:
        """Write `files` (None deletes) as one commit on the game branch; returns its sha.

        Atomic and serialised (see the module docstring). With `expected_head`, refuses with
        ConcurrentUpdate unless the branch is still at that commit (the caller's view is fresh).
        With `sign`, the commit is signed with the key git is configured with (`user.signingkey`,
        `gpg.format`), as `git commit -S` would; a signature that cannot be made writes nothing.
        """
        return self._commit(files, message, trailers or {}, expected=expected_head,
                            identity=identity or self.identity, create=False, sign=sign)

    def _commit(self, files: Mapping[str, bytes | None], message: str,
                trailers: Mapping[str, str], *, expected: str | None, identity: Identity,
                create: bool, sign: bool = False) -> str:
        changes = {_check_path(path): data for path, data in files.items()}
        text = _format_message(message, trailers)
        with self._locked():
            old = self._rev(self.ref)
            if create and old is not None:
                raise ConcurrentUpdate(f"{self.path} already has a branch {self.branch!r}")
            if not create and old is None:
                raise NotAGameRepo(f"{self.path} has lost its branch {self.branch!r}")
            if expected is not None and self._rev(expected) != old:
                raise ConcurrentUpdate(
                    f"the game moved on: {self.branch} is now at {str(old)[:12]}, not "
                    f"{expected[:12]}; nothing was written: re-read the game and try again")
            tree = self._build_tree(old, changes)
            new = self._commit_tree(tree, old, text, identity, sign)
            follow = self._work_tree_follows()
            if follow and old is not None:
                self._catch_up_work_tree(old)
                self._check_work_tree(old, new)
            self._before_ref_update(new)
            moved = self._git(["update-ref", "-m", f"pbem: {text.splitlines()[0]}", self.ref,
                               new, old or _ZERO], env=_git_env(identity), check=False)
            if moved.returncode != 0:
                raise ConcurrentUpdate(
                    f"{self.branch} was moved by someone else while committing; nothing was "
                    f"written: re-read the game and try again "
                    f"({moved.stderr.decode('utf-8', 'replace').strip()})")
            if follow:
                self._update_work_tree(old, new, identity)
            return new

    def _before_ref_update(self, new: str) -> None:
        """Last point at which a failure changes nothing; a seam for crash tests."""

    def _build_tree(self, parent: str | None, changes: Mapping[str, bytes | None]) -> str:
        with tempfile.TemporaryDirectory(prefix="pbem-commit-") as scratch:
            index = os.path.join(scratch, "index")
            env = _git_env(index_file=index)
            self._git(["read-tree", f"{parent}^{{tree}}"] if parent else
                      ["read-tree", "--empty"], env=env)
            added = {path: data for path, data in changes.items() if data is not None}
            if added:
                self._check_file_dir_clashes(env, changes)
            lines = []
            if added:
                blob_paths = []
                for number, data in enumerate(added.values()):
                    blob_path = os.path.join(scratch, f"blob{number}")
                    with open(blob_path, "wb") as handle:
                        handle.write(data)
                    blob_paths.append(blob_path)
                shas = self._git(["hash-object", "-w", "--no-filters", "--stdin-paths"],
                                 input="\n".join(blob_paths).encode() + b"\n").stdout.split()
                for path, sha in zip(added, shas):
                    lines.append(f"100644 {sha.decode()}\t{path}")
            lines += [f"0 {_ZERO}\t{path}" for path, data in changes.items() if data is None]
            if lines:
                self._git(["update-index", "--index-info"], env=env,
                          input=("\n".join(lines) + "\n").encode())
            return self._git(["write-tree"], env=env).stdout.decode().strip()

    def _check_file_dir_clashes(self, env: dict[str, str],
                                changes: Mapping[str, bytes | None]) -> None:
        """Refuse `a/b` while file `a` stays (git would silently drop `a`), and vice versa."""
        existing = set(self._git(["ls-files", "-z"], env=env).stdout.decode(
            "utf-8", "surrogateescape").split("\0")) - {""}
        remaining = {p for p in existing if changes.get(p, b"") is not None}
        directories = {p.rsplit("/", 1)[0] for p in remaining if "/" in p}
        directories |= {d.rsplit("/", i)[0] for d in list(directories)
                        for i in range(1, d.count("/") + 1)}
        for path, data in changes.items():
            if data is None:
                continue
            parts = path.split("/")
            for end in range(1, len(parts)):
                if "/".join(parts[:end]) in remaining:
                    raise ValueError(f"cannot write {path!r}: {'/'.join(parts[:end])!r} is a file")
            if path in directories:
                raise ValueError(f"cannot write {path!r}: it is a directory")

    def _commit_tree(self, tree: str, parent: str | None, text: str, identity: Identity,
                     sign: bool = False) -> str:
        args = ["commit-tree", "-S" if sign else "--no-gpg-sign", tree,
                *(["-p", parent] if parent else []), "-F", "-"]
        result = self._git(args, input=text.encode(), env=_git_env(identity), check=not sign)
        if result.returncode != 0:
            raise RepoError(
                "the commit could not be signed, so nothing was written: check this clone's "
                "user.signingkey and gpg.format (git config), or unset commit.gpgsign here\n"
                + result.stderr.decode("utf-8", "replace").strip())
        return result.stdout.decode().strip()

    def _work_tree_follows(self) -> bool:
        """Whether the checkout shows the game branch, so must be brought along after a commit."""
        if self.bare:
            return False
        result = self._git(["symbolic-ref", "-q", "HEAD"], check=False)
        return result.stdout.decode().strip() == self.ref

    def _refresh_index(self) -> None:
        """Re-stat the checkout's files: a copied or touched game directory has an index whose
        cached stat data no longer matches, and git would call every file "not uptodate"."""
        self._git(["update-index", "-q", "--refresh"], work_tree=True, check=False)

    def _catch_up_work_tree(self, head: str) -> None:
        """Bring a checkout left behind by a crash up to the branch tip, before anything else.

        A process killed between moving the branch (step 4) and updating the work tree (step 5)
        leaves index and files exactly as an earlier commit of the branch had them. Read as local
        changes, they would be the reversal of the turns since; committing them (the usual advice)
        would undo those turns. So when the index is exactly an earlier commit's tree and no file
        differs from the index, the checkout is moved forward to the tip instead. A process killed
        while git wrote the checkout may also have left the tip's new files on disk, untracked:
        where each such file is byte for byte the tip's, it is taken as the tip's.  A git lock left
        by a killed git is named, with what to do."""
        lock = self.git_dir / "index.lock"
        if lock.exists():
            raise WorkTreeConflict(
                f"git's lock file {lock} is left over from an interrupted git command; nothing was "
                "written: if no git or pbem process is running on this game, delete that file and run the command again")
        self._refresh_index()
        index_tree = self._git(["write-tree"], work_tree=True, check=False)
        if index_tree.returncode != 0:
            return  # a conflicted index is the user's business: _check_work_tree reports it
        tree = index_tree.stdout.decode().strip()
        if tree == self._git(["rev-parse", f"{head}^{{tree}}"]).stdout.decode().strip():
            return
        if self._git(["diff-files", "--quiet"], work_tree=True, check=False).returncode != 0:
            return  # files edited by hand: real local changes, never overwritten
        ancestors = self._git(["rev-list", "--first-parent", "--format=%H %T", "--no-commit-header",
                               "-n", "50", head], check=False).stdout.decode().split()
        for commit, commit_tree in zip(ancestors[0::2], ancestors[1::2]):
            if commit_tree == tree:
                moved = self._git(["read-tree", "-m", "-u", commit, head], work_tree=True, check=False)
                if moved.returncode != 0:
                    # the killed run's files, untracked, bar the way: remove those that are the tip's
                    # byte for byte and move again; anything else stays, and git keeps refusing
                    self._remove_tip_files(commit, head)
                    moved = self._git(["read-tree", "-m", "-u", commit, head], work_tree=True, check=False)
                if moved.returncode != 0:
                    said = moved.stderr.decode("utf-8", "replace").strip()
                    raise WorkTreeConflict(
                        f"the checkout in {self.path} is behind the game after an interrupted run, and files of yours "
                        f"are in the way; nothing was written: move them away and run the command again\n{said}")
                return

    def _remove_tip_files(self, commit: str, head: str) -> None:
        """Delete the files the tip adds that sit on disk untracked with exactly the tip's bytes (the
        run that was killed wrote them); a file with other bytes is the player's and is kept."""
        paths = self._git(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=A", commit, head], check=False).stdout.decode(
            "utf-8", "surrogateescape").split("\0")
        for path in filter(None, paths):
            on_disk = Path(self.path) / path
            if not on_disk.is_file() or on_disk.is_symlink():
                continue
            mine = self._git(["hash-object", "--no-filters", "--", path], work_tree=True, check=False).stdout.decode().strip()
            theirs = self._git(["rev-parse", "-q", "--verify", f"{head}:{path}"], check=False).stdout.decode().strip()
            if mine and mine == theirs:
                on_disk.unlink()

    def _check_work_tree(self, old: str, new: str) -> None:
        result = self._git(["read-tree", "-m", "-u", "-n", old, new], work_tree=True, check=False)
        if result.returncode != 0:
            # name the files in the player's words, not git's ("Entry 'state.yaml' not uptodate")
            said = result.stderr.decode("utf-8", "replace")
            changed = list(dict.fromkeys(re.findall(r"'([^']+)'", said))) or self._git(
                ["diff-files", "--name-only"], work_tree=True, check=False).stdout.decode("utf-8", "replace").split()
            named = f" ({', '.join(changed[:5])}{', ...' if len(changed) > 5 else ''})" if changed else ""
            raise WorkTreeConflict(
                f"the checkout in {self.path} has changes{named} that this commit would overwrite; "
                "nothing was written: commit, move or discard them first"
                + (f" (git checkout -- {' '.join(changed[:5])} discards them)" if changed else ""))

    def _update_work_tree(self, old: str | None, new: str, identity: Identity) -> None:
        args = ["read-tree", "-m", "-u", old, new] if old else ["read-tree", "-m", "-u", new]
        result = self._git(args, work_tree=True, check=False)
        if result.returncode == 0:
            return
        undone = self._git(["update-ref", "-m", "pbem: undo, checkout could not follow",
                            self.ref, old or _ZERO, new] if old else
                           ["update-ref", "-d", self.ref, new], env=_git_env(identity),
                           check=False)
        state = ("nothing was written" if undone.returncode == 0 else
                 f"the commit {new[:12]} landed but the checkout was not updated")
        raise WorkTreeConflict(
            f"the checkout in {self.path} could not be updated ({state}):\n"
            + result.stderr.decode("utf-8", "replace").strip())
