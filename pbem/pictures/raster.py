"""A `Scene` made into PNG bytes with Pillow: same scene, same bytes.

The PNG carries the scene's digest in a ``tEXt`` chunk (``pbem-scene``): the golden set of
`pbem demo` compares pictures by what they draw (the digest), not by the rasteriser's bytes, so
a new Pillow or FreeType release does not change what the project considers the same picture.
Nothing else varies: no timestamp, no library version, no random element is written.
"""

from __future__ import annotations

import io
import re

from pbem.pictures.scene import Box, Disc, Line, Scene, Text, font, text_width

DIGEST_KEY = "pbem-scene"
PNG_LEVEL = 6
"""The zlib level of the pictures, chosen by measurement (bench/png.py, `make bench` figure 13: the
202 pictures of `pbem demo all`, each encoded at every level, 2 December 2026, a shared 2-core machine):

    level        1     2     3     4     5     6     7     8     9
    ms/picture  13.8  14.0  14.0  16.6  16.6  18.6  20.0  34.4  76.9
    bytes ×9    1.17  1.16  1.14  1.06  1.04  1.03  1.03  1.01  1.00   (level 9: 63.8 KiB a picture)

Level 6 costs a quarter of level 9 for 3 % more bytes; 7 and 8 buy under 2 % for 8 % and 85 % more time; 1 to 3
save a quarter of the time for 14-17 % more bytes, which every player's mail carries.  The golden set compares
pictures by their scene digest, not their bytes: the level changes no recorded output."""


def png(scene: Scene) -> bytes:
    """The scene as PNG bytes."""
    from PIL import Image, ImageDraw
    from PIL.PngImagePlugin import PngInfo

    image = Image.new("RGB", (scene.width, scene.height), scene.background)
    draw = ImageDraw.Draw(image)
    for item in scene.items:
        if isinstance(item, Box):
            shape = [item.x, item.y, item.x + item.w - 1, item.y + item.h - 1]
            if item.radius:
                draw.rounded_rectangle(shape, item.radius, fill=item.fill, outline=item.outline, width=item.width)
            else:
                draw.rectangle(shape, fill=item.fill, outline=item.outline, width=item.width)
        elif isinstance(item, Line):
            draw.line(list(item.points), fill=item.colour, width=item.width)
        elif isinstance(item, Disc):
            draw.ellipse([item.x - item.r, item.y - item.r, item.x + item.r, item.y + item.r], fill=item.fill,
                         outline=item.outline, width=item.width)
        elif isinstance(item, Text):
            draw.text((item.x, item.y), item.text, fill=item.colour, font=font(item.size, item.bold),
                      anchor=item.anchor)
            if item.strike:
                _strike(draw, item)
    info = PngInfo()
    info.add_text(DIGEST_KEY, scene.digest())
    out = io.BytesIO()
    image.save(out, "PNG", pnginfo=info, compress_level=PNG_LEVEL)
    return out.getvalue()


def _strike(draw: object, item: Text) -> None:
    """A line through the middle of a text (the dead, at Pour Ma Belle)."""
    w = text_width(item.text, item.size, item.bold)
    left = {"l": item.x, "m": item.x - w / 2, "r": item.x - w}[item.anchor[0]]
    middle = {"a": item.y + item.size * 0.55, "m": item.y, "s": item.y - item.size * 0.3}.get(item.anchor[1], item.y)
    draw.line([(left - 1, middle), (left + w + 1, middle)], fill=item.colour, width=2)  # type: ignore[attr-defined]


_TEXT_CHUNK = re.compile(rb"tEXt" + re.escape(DIGEST_KEY.encode()) + rb"\x00([0-9a-f]{64})")


def scene_digest(data: bytes) -> str | None:
    """The scene digest a PNG made here carries (None for any other PNG)."""
    found = _TEXT_CHUNK.search(data)
    return found.group(1).decode() if found else None


def size(data: bytes) -> tuple[int, int]:
    """(width, height) read from a PNG's header."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")

