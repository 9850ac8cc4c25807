"""Draw the Teams app icons (pure Python: zlib + struct, no image library).

``color.png``: 192x192, the accent colour (#4472C4) with a white "D" (full-colour icon).
``outline.png``: 32x32, the same "D" in white on a transparent background (Teams requires the
outline icon to be white with transparency only).

Run ``python infra/teams/make_icons.py`` (writes both files next to this script); deterministic, so the
committed PNGs can be checked with ``--check``.
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ACCENT = (0x44, 0x72, 0xC4)
SAMPLES = 4  # supersampling per axis (anti-aliased edges)


def in_d(x: float, y: float) -> bool:
    """The letter "D" in a 192x192 design space."""
    outer = (56 <= x <= 96 and 44 <= y <= 148) or (
        x > 96 and ((x - 96) / 52) ** 2 + ((y - 96) / 52) ** 2 <= 1
    )
    inner = (80 <= x <= 96 and 68 <= y <= 124) or (
        x > 96 and ((x - 96) / 28) ** 2 + ((y - 96) / 28) ** 2 <= 1
    )
    return outer and not inner


def coverage(size: int, shape: Callable[[float, float], bool]) -> list[list[float]]:
    """Share of each pixel covered by ``shape`` (scaled from the 192 design space)."""
    scale = 192 / size
    grid = []
    for py in range(size):
        row = []
        for px in range(size):
            hits = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) * scale
                    y = (py + (sy + 0.5) / SAMPLES) * scale
                    hits += shape(x, y)
            row.append(hits / SAMPLES**2)
        grid.append(row)
    return grid


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    """An 8-bit RGBA PNG from raw rows (filter type 0 on every row)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def color_icon() -> bytes:
    size = 192
    cover = coverage(size, in_d)
    rows = []
    for line in cover:
        row = bytearray()
        for c in line:
            rgb = [round(a * (1 - c) + 255 * c) for a in ACCENT]
            row += bytes([*rgb, 255])
        rows.append(bytes(row))
    return png(size, size, rows)


def outline_icon() -> bytes:
    size = 32
    cover = coverage(size, in_d)
    rows = [b"".join(bytes([255, 255, 255, round(255 * c)]) for c in line) for line in cover]
    return png(size, size, rows)


ICONS = {"color.png": color_icon, "outline.png": outline_icon}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="directory to write the icons to")
    parser.add_argument("--check", action="store_true", help="fail if the committed icons differ")
    args = parser.parse_args(argv)
    stale = []
    for name, draw in ICONS.items():
        data = draw()
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
        else:
            path.write_bytes(data)
            print(f"wrote {path} ({len(data)} bytes)")
    if stale:
        print(f"stale icons: {', '.join(stale)}; run python infra/teams/make_icons.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
