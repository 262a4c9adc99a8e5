"""`make bench`, section 13: the PNG compression level of the board pictures (issue #24).

Every resolved step draws its board picture once and writes it as PNG (`pbem.pictures.raster`), at
`raster.PNG_LEVEL`.  This measures levels 1 to 9 on the pictures the demo games draw (`pbem demo all`,
in a temporary folder, or the folder of a demo already played: ``--demo``), ``--sample`` of them taken
evenly over the games (0: all of them, about 200, three minutes): each picture is decoded once,
then encoded at each level in turn (the levels alternating within each round), the CPU time of the
encoding summed over the pictures (median of ``--rounds`` rounds) and the bytes summed.  Both are shown
beside level 9's, and the level in use is marked.

    .venv/bin/python scripts/bench_png.py [--demo data/demo] [--sample 30] [--rounds 3]
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.pictures import raster  # noqa: E402

LEVELS = range(1, 10)


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


def section(demo: Path | None, sample: int, rounds: int, say: Callable[[str], None], row: Callable[..., None]) -> None:
    with tempfile.TemporaryDirectory(prefix="pbem-png-") as tmp:
        if demo is None:
            demo = Path(tmp) / "demo"
            subprocess.run([sys.executable, "-m", "pbem", "demo", "all", "--dir", str(demo)], check=True,
                           stdout=subprocess.DEVNULL)
        pictures = _pictures(demo, sample)
    if not pictures:
        row("13 PNG level", "demo pictures", f"none in {demo}", "", False)
        return
    say(f"\n[13] PNG level: {len(pictures)} pictures of the demo games, each encoded at levels 1-9, "
        f"CPU median of {rounds} rounds")
    figures = measure(pictures, rounds)
    cpu9, bytes9 = figures[9]
    for level, (cpu, total) in figures.items():
        mark = "  <- PNG_LEVEL" if level == raster.PNG_LEVEL else ""
        say(f"  level {level}: {cpu * 1000 / len(pictures):6.2f} ms a picture (×{cpu / cpu9:.2f} level 9), "
            f"{total / len(pictures) / 1024:6.1f} KiB a picture (×{total / bytes9:.3f} level 9){mark}")
    cpu, total = figures[raster.PNG_LEVEL]
    row("13 PNG level", f"level {raster.PNG_LEVEL} vs 9: CPU, bytes",
        f"×{cpu / cpu9:.2f} CPU, ×{total / bytes9:.3f} bytes", "", None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--demo", type=Path, default=None, help="a folder `pbem demo all --dir` wrote")
    ap.add_argument("--sample", type=int, default=30, help="pictures measured (0: all)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    section(args.demo, args.sample, args.rounds, print, lambda *a, **k: print("  row:", *a))
    return 0


if __name__ == "__main__":
    sys.exit(main())
