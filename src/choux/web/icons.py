"""Draws Choux's app icons (PNG and SVG) with nothing but the standard library: a gold club
on the green felt. `python -m choux.web.icons` writes them under static/icons/."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

FELT = (0x1F, 0x4D, 0x3A)
GOLD = (0xD9, 0xA4, 0x41)
PAPER = (0xFB, 0xF7, 0xEE)
OUT = Path(__file__).parent / "static" / "icons"


def _inside_club(x: float, y: float) -> bool:
    """The club in a unit square centred on (0.5, 0.5): three leaves and a stem."""
    leaves = ((0.5, 0.34), (0.33, 0.55), (0.67, 0.55))
    if any((x - cx) ** 2 + (y - cy) ** 2 <= 0.155**2 for cx, cy in leaves):
        return True
    if 0.44 <= x <= 0.56 and 0.45 <= y <= 0.74:
        return True
    half = (y - 0.66) * 0.9  # the foot: a small triangle widening downwards
    return 0.66 <= y <= 0.80 and abs(x - 0.5) <= half


def _pixel(x: float, y: float, size: int, maskable: bool) -> tuple[int, int, int, int]:
    """Colour of the point (x, y) in [0, 1)²; a rounded square unless maskable."""
    if not maskable:
        r = 0.18
        dx = max(r - x, 0.0, x - (1 - r))
        dy = max(r - y, 0.0, y - (1 - r))
        if dx * dx + dy * dy > r * r:
            return (0, 0, 0, 0)
    scale = 0.62 if maskable else 0.8  # maskable icons keep their drawing in the safe zone
    cx, cy = (x - 0.5) / scale + 0.5, (y - 0.5) / scale + 0.5
    return (*GOLD, 255) if _inside_club(cx, cy) else (*FELT, 255)


def png(size: int, maskable: bool = False, samples: int = 3) -> bytes:
    """An RGBA PNG, each pixel the average of samples² points (smooth edges)."""
    rows = bytearray()
    for j in range(size):
        rows.append(0)  # no filter
        for i in range(size):
            acc = [0, 0, 0, 0]
            for sj in range(samples):
                for si in range(samples):
                    px = _pixel(
                        (i + (si + 0.5) / samples) / size,
                        (j + (sj + 0.5) / samples) / size,
                        size,
                        maskable,
                    )
                    for k in range(4):
                        acc[k] += px[k]
            rows.extend(round(v / samples**2) for v in acc)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<rect width="100" height="100" rx="18" fill="#1f4d3a"/>
<g fill="#d9a441" transform="translate(10 10) scale(.8)">
<circle cx="50" cy="34" r="15.5"/><circle cx="33" cy="55" r="15.5"/><circle cx="67" cy="55" r="15.5"/>
<rect x="44" y="45" width="12" height="29"/><path d="M50 66 L63 80 L37 80 Z"/>
</g>
</svg>
"""


def write_all(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = {
        "choux-192.png": png(192),
        "choux-512.png": png(512, samples=2),
        "choux-maskable-512.png": png(512, maskable=True, samples=2),
        "choux.svg": SVG.encode(),
    }
    for name, data in made.items():
        (out / name).write_bytes(data)
    return [out / name for name in made]


if __name__ == "__main__":
    for path in write_all():
        print(path)
