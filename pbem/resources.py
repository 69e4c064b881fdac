"""Where the files beside the package are: schemas/, templates/ and examples/.

A source checkout or an editable install has them next to the `pbem` package; a wheel installs
them under `<prefix>/share/pbem/` (pyproject's data-files).  One function finds either, so every
command works however pbem was installed.
"""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The directory `name` ("schemas", "templates" or "examples") of this installation."""
    candidates = [_PACKAGE.parent / name]
    for prefix in dict.fromkeys([sysconfig.get_path("data"), sys.prefix, sys.base_prefix]):
        if prefix:
            candidates.append(Path(prefix) / "share" / "pbem" / name)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pbem's {name}/ folder is missing from this installation (looked in "
                            + ", ".join(str(c) for c in candidates) + ")")
