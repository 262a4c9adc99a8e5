"""Figure 9, hostile input: each reader of untrusted input (the cases of `scripts/hostile.py`, which
`tests/test_hostile_input.py` also runs), its slowest pathological case at 100 KB and at 1 MB measured in
the same run (their ratio is about 10 when the reader is linear)."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from bench.harness import ROOT, Options, Report


def cases_module() -> ModuleType:
    """scripts/hostile.py, loaded by its path (scripts/ is not a package)."""
    if "hostile" in sys.modules:
        return sys.modules["hostile"]
    spec = importlib.util.spec_from_file_location("hostile", ROOT / "scripts" / "hostile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hostile"] = module
    spec.loader.exec_module(module)
    return module


def run(opts: Options, report: Report) -> None:
    hostile = cases_module()
    small_size, big_size = (1_000, 10_000) if opts.quick else (100_000, 1_000_000)
    small_label, big_label = f"{small_size // 1000} KB", f"{big_size // 1000} KB" if big_size < 1_000_000 else "1 MB"
    report.say(f"\n[9] hostile input: every reader of untrusted input, its slowest pathological case at "
               f"{small_label} and {big_label}")
    worst: dict[int, dict[str, tuple[str, float]]] = {}
    # each size on cases set up afresh; --quick sets them up once for both (the set-up is most of its time)
    batches = [(small_size, big_size)] if opts.quick else [(small_size,), (big_size,)]
    for sizes in batches:
        with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
            cases, close = hostile.all_cases(Path(tmp))
            try:
                for size in sizes:
                    results = hostile.run(cases, size)
                    raised = [r.case.name for r in results if r.error]
                    if raised:
                        report.note(f"hostile input at {size:,} bytes: raised in {', '.join(raised)}")
                    worst[size] = hostile.worst_by_reader(results)
            finally:
                close()
    for reader, (shape, big) in worst[big_size].items():
        _shape, small = worst[small_size][reader]
        report.say(f"    {reader:28} {big * 1000:8.1f} ms at {big_label} ({shape}), {small * 1000:7.1f} ms at "
                   f"{small_label}, x{big / max(small, 1e-6):.1f}")
        report.row("9 hostile", f"{reader} ({big_label})",
                   f"{big * 1000:.0f} ms, x{big / max(small, 1e-6):.0f} of {small_label}",
                   f"<= {hostile.TARGET_SECONDS:g} s", big <= hostile.TARGET_SECONDS)
