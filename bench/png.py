"""Figure 13: the PNG compression level of the board pictures (issue #24).

Every resolved step draws its board picture once and writes it as PNG (`pbem.pictures.raster`), at
`raster.PNG_LEVEL`.  This measures levels 1 to 9 on the pictures the demo games draw (`pbem demo all`,
in a temporary folder, or the folder of a demo already played: ``--demo``), ``--sample`` of them taken
evenly over the games (0: all of them, about 200, three minutes): each picture is decoded once,
then encoded at each level in turn (the levels alternating within each round), the CPU time of the
encoding summed over the pictures (median of ``--rounds`` rounds) and the bytes summed.  Both are shown
beside level 9's, and the level in use is marked.

    .venv/bin/python -m bench png [--png-demo data/demo]

``--quick`` encodes two pictures drawn here instead (the demo games take half a minute to play).
"""

from __future__ import annotations

import io
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.harness import Options, Report
from pbem.pictures import raster

LEVELS = range(1, 10)
CPU_TARGET = 0.34  # of level 9's encoding CPU: "a third" (issue #24)
BYTES_TARGET = 1.05  # of level 9's bytes: "about the same"


def _pictures(folder: Path, sample: int) -> list[bytes]:
    """The pictures under ``folder`` (sorted: game by game), ``sample`` of them evenly spaced (0: all)."""
    paths = sorted(folder.rglob("*.png"))
    if sample and len(paths) > sample:
        paths = [paths[i * len(paths) // sample] for i in range(sample)]
    return [p.read_bytes() for p in paths]


def measure(pictures: list[bytes], rounds: int) -> dict[int, tuple[float, int]]:
    """level -> (CPU seconds to encode every picture, median of rounds; their bytes)."""
    from PIL import Image

    images = []
    for data in pictures:
        with Image.open(io.BytesIO(data)) as im:
            images.append(im.convert("RGB"))
    cpu: dict[int, list[float]] = {level: [] for level in LEVELS}
    size: dict[int, int] = {}
    for _ in range(rounds):
        for level in LEVELS:
            total = 0
            start = time.process_time()
            for image in images:
                out = io.BytesIO()
                image.save(out, "PNG", compress_level=level)
                total += out.tell()
            cpu[level].append(time.process_time() - start)
            size[level] = total
    return {level: (statistics.median(cpu[level]), size[level]) for level in LEVELS}


def drawn() -> list[bytes]:
    """Two board-like pictures drawn here (``--quick``): flat areas, lines and text, as the boards have."""
    from PIL import Image, ImageDraw

    out = []
    for k in range(2):
        image = Image.new("RGB", (640, 480), (240, 232, 214))
        pen = ImageDraw.Draw(image)
        for i in range(24):
            x, y = (i * 53 + k * 17) % 600, (i * 37) % 440
            pen.rectangle((x, y, x + 40, y + 30), fill=(120 + i * 5, 80, 60), outline=(0, 0, 0))
            pen.line((x + 20, y + 15, 320, 240), fill=(40, 40, 40), width=2)
            pen.text((x + 2, y + 32), f"lieu {i}", fill=(0, 0, 0))
        buf = io.BytesIO()
        image.save(buf, "PNG")
        out.append(buf.getvalue())
    return out


def run(opts: Options, report: Report) -> None:
    if opts.quick:
        section_of(drawn(), "drawn here (--quick)", 1, report.say, report.row)
        return
    section(opts.png_demo, 30, 3, report.say, report.row)


def section(demo: Path | None, sample: int, rounds: int, say: Callable[[str], None], row: Callable[..., None]) -> None:
    with tempfile.TemporaryDirectory(prefix="pbem-png-") as tmp:
        if demo is None:
            demo = Path(tmp) / "demo"
            subprocess.run([sys.executable, "-m", "pbem", "demo", "all", "--dir", str(demo)], check=True,
                           stdout=subprocess.DEVNULL)
        pictures = _pictures(demo, sample)
    section_of(pictures, "of the demo games", rounds, say, row)


def section_of(pictures: list[bytes], origin: str, rounds: int, say: Callable[[str], None],
               row: Callable[..., None]) -> None:
    if not pictures:
        row("13 PNG level", "pictures", f"none {origin}", "", False)
        return
    say(f"\n[13] PNG level: {len(pictures)} pictures {origin}, each encoded at levels 1-9, "
        f"CPU median of {rounds} rounds")
    figures = measure(pictures, rounds)
    cpu9, bytes9 = figures[9]
    for level, (cpu, total) in figures.items():
        mark = "  <- PNG_LEVEL" if level == raster.PNG_LEVEL else ""
        say(f"  level {level}: {cpu * 1000 / len(pictures):6.2f} ms a picture (×{cpu / cpu9:.2f} level 9), "
            f"{total / len(pictures) / 1024:6.1f} KiB a picture (×{total / bytes9:.3f} level 9){mark}")
    cpu, total = figures[raster.PNG_LEVEL]
    # issue #24: "level 6 costs a third of level 9 for about the same bytes"
    row("13 PNG level", f"level {raster.PNG_LEVEL} vs 9: CPU, bytes",
        f"×{cpu / cpu9:.2f} CPU, ×{total / bytes9:.3f} bytes", f"<= ×{CPU_TARGET:g} CPU, <= ×{BYTES_TARGET:g} bytes",
        cpu / cpu9 <= CPU_TARGET and total / bytes9 <= BYTES_TARGET)
