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
    image.save(out, "PNG", pnginfo=info, compress_level=6)  # 9 is three times slower for 3 % less
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

