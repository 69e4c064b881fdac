"""The data folders are found in a checkout and would be under share/pbem in a wheel."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pbem import resources


def test_data_folders_are_found() -> None:
    for name in ("schemas", "templates", "examples"):
        assert resources.data_dir(name).is_dir()


def test_installed_layout_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wheel puts the folders in <prefix>/share/pbem/; that is where they are looked for next."""
    monkeypatch.setattr(resources, "_PACKAGE", tmp_path / "site-packages" / "pbem")
    (tmp_path / "share" / "pbem" / "templates").mkdir(parents=True)
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    monkeypatch.setattr(resources.sysconfig, "get_path", lambda name: str(tmp_path))
    assert resources.data_dir("templates") == tmp_path / "share" / "pbem" / "templates"
    with pytest.raises(FileNotFoundError, match="examples"):
        resources.data_dir("examples")
