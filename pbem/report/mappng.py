"""PNG rendering of the map SVG, for mail clients and forums that do not show SVG.

We use resvg (the ``resvg-py`` wheel): a maintained Rust renderer shipped as one self-contained
abi3 wheel, so it needs no system library (cairosvg would need libcairo).  It is imported only
here, when a PNG is asked for, so the rest of the program starts fast and works without it.
"""

from __future__ import annotations

import re
from pathlib import Path

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
REQUIREMENT = "resvg-py>=0.5,<0.6"
FONT_FAMILY = "DejaVu Sans"
#: DejaVu Sans and Sans Bold, subset to Latin-1 (fonts/LICENSE.txt)
FONT_FILES = tuple(sorted((Path(__file__).parent / "fonts").glob("*.ttf")))


def svg_to_png(svg: str, *, width: int | None = None, colours: int | None = None) -> bytes:
    """Rasterise `svg` to PNG bytes, `width` pixels wide (height keeps the aspect ratio).

    With `colours`, the picture is reduced to that many colours (a palette PNG, by Pillow): a map
    is flat colours and text, so this keeps it sharp at a third of the size, which is what lets a
    report mail carry it under the size mailing lists accept."""
    png = _render(svg, width)
    if colours is None:
        return png
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    palette = image.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, "PNG", optimize=True)
    return out.getvalue()


def _render(svg: str, width: int | None) -> bytes:
    if width is not None and width <= 0:
        raise ValueError(f"width must be positive, not {width}")
    try:
        import resvg_py
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise RuntimeError(f"PNG maps need the {REQUIREMENT!r} package: pip install '{REQUIREMENT}'") from exc
    height = None
    if width is not None:
        size = _intrinsic_size(svg)
        if size:
            height = max(1, round(width * size[1] / size[0]))
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            width=width,
            height=height,
            background="#ffffff",
            font_family=FONT_FAMILY,
            sans_serif_family=FONT_FAMILY,
            # the fonts shipped with pbem, never the machine's: the same picture everywhere, and
            # labels even where no font is installed
            skip_system_fonts=True,
            font_files=[str(p) for p in FONT_FILES],
        )
    )


def _intrinsic_size(svg: str) -> tuple[float, float] | None:
    """The document's viewBox width and height, to keep the aspect ratio when scaling."""
    m = re.search(r"<svg\b[^>]*?\bviewBox\s*=\s*[\"']([^\"']+)[\"']", svg)
    if not m:
        return None
    parts = m.group(1).replace(",", " ").split()
    if len(parts) != 4:
        return None
    w, h = float(parts[2]), float(parts[3])
    return (w, h) if w > 0 and h > 0 else None


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) read from a PNG's IHDR chunk."""
    if not png.startswith(PNG_MAGIC) or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
