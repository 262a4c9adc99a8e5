"""The golden set of `pbem demo`: every outgoing mail's bytes, every forum file, every export JSON.

    python scripts/golden.py record   # writes tests/golden/demo.sha256 (after an intended change of output)
    python scripts/golden.py check    # plays the demos again and lists every file that differs
    python scripts/golden.py dump DIR # writes the whole set as files into DIR (to diff two versions)

A refactor must leave this set byte-identical; a change of behaviour records it anew, in the
same commit, saying why.

Pictures (forum PNGs, and PNG attachments of the public mails) are compared by the digest of the
scene they draw, which each PNG carries (`pbem.pictures.raster`), not by the rasteriser's bytes:
a new Pillow or FreeType changes pixels, not what pbem drew.  Everything else stays byte for byte.
"""

from __future__ import annotations

import base64
import hashlib
import json
import mailbox
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests" / "golden" / "demo.sha256"


def golden_set() -> dict[str, bytes]:
    """Plays every demo in a temporary folder; returns {logical name: bytes}."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        return collect(out, play_demos(out))


def play_demos(out: Path, keep_open: list[Any] | None = None) -> dict[str, dict[str, object]]:
    """Plays every demo as `pbem demo` does, into ``out``; returns each game's export, taken as the demo
    closes its game.  With ``keep_open`` the games are not closed but put there (the tests read them; the
    caller closes them)."""
    from pbem.demo import Demo, run_demos

    exports: dict[str, dict[str, object]] = {}
    real_close = Demo.close

    def close(self: Demo) -> None:  # every demo closes its game: take the export then
        exports[self.root.name] = self.engine.export(self.game_id, include_seed=True)
        if keep_open is None:
            real_close(self)
        else:
            keep_open.append(self)

    Demo.close = close  # type: ignore[method-assign]
    try:
        for _line in run_demos("all", out):
            pass
    finally:
        Demo.close = real_close  # type: ignore[method-assign]
    return exports


def collect(out: Path, exports: dict[str, dict[str, object]]) -> dict[str, bytes]:
    """The golden set of the demos played into ``out``: {logical name: bytes}."""
    from pbem.demo import DEMOS

    files: dict[str, bytes] = {}
    for name in DEMOS:
        root = out / name
        box = mailbox.Maildir(str(root / "mail" / "outbox"), create=False)
        # Maildir file names are random: a mail is named by its Message-ID (and a counter for repeats)
        seen: dict[str, int] = {}
        for key in box.keys():
            raw = by_scene(box.get_bytes(key))
            mid = str(box[key]["Message-ID"]).strip("<>")
            n = seen[mid] = seen.get(mid, 0) + 1
            files[f"{name}/outbox/{mid}#{n}"] = raw
        for path in sorted((root / "forum").rglob("*")):
            if path.is_file():
                data = path.read_bytes()
                files[f"{name}/forum/{path.relative_to(root / 'forum')}"] = (
                    picture_id(data) if path.suffix == ".png" else data)
        files[f"{name}/export.json"] = json.dumps(exports[name], ensure_ascii=False, sort_keys=True,
                                                  indent=1).encode()
    return files


def picture_id(png: bytes) -> bytes:
    """What stands for a PNG in the set: the digest of the scene it was drawn from."""
    from pbem.pictures.raster import scene_digest

    digest = scene_digest(png)
    if digest is None:
        raise ValueError("a PNG without its scene digest")
    return f"pbem picture, scene {digest}".encode()


_PNG_PART = re.compile(rb"(Content-Type: image/png[^\r]*\r\n(?:[^\r\n]+\r\n)*\r\n)([A-Za-z0-9+/=\r\n]+?)(\r\n--)")


def by_scene(raw: bytes) -> bytes:
    """A mail with each base64 PNG part replaced by `picture_id` (the rest of its bytes kept)."""
    def swap(m: re.Match[bytes]) -> bytes:
        return m.group(1) + picture_id(base64.b64decode(m.group(2))) + m.group(3)

    return _PNG_PART.sub(swap, raw) if b"Content-Type: image/png" in raw else raw


def manifest(files: dict[str, bytes]) -> str:
    return "".join(f"{hashlib.sha256(b).hexdigest()}  {k}\n" for k, b in sorted(files.items()))


def differences(files: dict[str, bytes]) -> list[str]:
    want = dict(line.split("  ", 1)[::-1] for line in MANIFEST.read_text().splitlines())
    have = {k: hashlib.sha256(b).hexdigest() for k, b in files.items()}
    out = [f"missing: {k}" for k in sorted(want.keys() - have.keys())]
    out += [f"new: {k}" for k in sorted(have.keys() - want.keys())]
    out += [f"changed: {k}" for k in sorted(want.keys() & have.keys()) if want[k] != have[k]]
    return out


def main(argv: list[str]) -> int:
    cmd = argv[1] if len(argv) > 1 else "check"
    files = golden_set()
    if cmd == "record":
        MANIFEST.parent.mkdir(parents=True, exist_ok=True)
        MANIFEST.write_text(manifest(files))
        print(f"{len(files)} files recorded in {MANIFEST.relative_to(ROOT)}")
        return 0
    if cmd == "dump":
        target = Path(argv[2])
        for k, b in files.items():
            p = target / k.replace("#", "_")
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(b)
        print(f"{len(files)} files written under {target}")
        return 0
    diff = differences(files)
    print("\n".join(diff) if diff else f"{len(files)} files, all identical to the golden set")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
