"""`partyhost models fetch|list`: downloadable speech models, checked before use.

The manifest (models/manifest.json) names each model's address, SHA-256 and size.
A download goes to a temporary file with a progress bar, must match its SHA-256,
and only then is unpacked into the models folder, so a cut or tampered download
never leaves a half model behind. A box with no network installs the same archive
from a file brought on a USB stick (`--from`: the file, or the folder holding it),
checked the same way.

A model made of several files (faster-whisper's CTranslate2 conversions, from a
pinned revision) lists each file with its SHA-256; all are fetched and checked
before the folder appears (`--from` then names the folder holding those files, or
one of them). An entry whose checksum is not known (null in the manifest) is
refused, never installed unchecked, and not offered (`partyhost models list`).

Not pooch: its Unzip lets zipfile quietly rewrite a member that climbs out of the folder
(`../x`) where this refuses the archive, and the rest here (a file from a USB stick, one
folder kept of a wheel, all files checked before any is moved in, what to do next in each
refusal) would stay hand-written around it; about 30 lines of download and hash would go.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from host.errors import PartyhostError, command
from voice.asr import default_models_dirs, shipped_models_dir

CHUNK = 1 << 16
MANIFEST = shipped_models_dir() / "manifest.json"
"""The list of downloadable models, installed with partyhost (models/manifest.json)."""


class ModelFetchError(PartyhostError):
    """A download that failed or did not match; the message says what to do."""


@dataclass(frozen=True)
class ModelFile:
    """One file of a several-file model: fetched from the entry's url + name."""

    name: str
    sha256: str | None  # None: no published checksum known, so never installed
    bytes: int | None = None


@dataclass(frozen=True)
class ModelEntry:
    name: str
    backend: str
    url: str
    sha256: str | None
    approx_size_mb: float
    keep: str = ""  # the folder of the archive that is the model ("": all of it)
    files: tuple[ModelFile, ...] = ()  # several files instead of one archive
    revision: str = ""
    approx_memory_mb: float = 0.0

    def unverifiable(self) -> list[str]:
        """What has no known SHA-256 (the archive, or files by name)."""
        if self.files:
            return [f.name for f in self.files if not f.sha256]
        return [] if self.sha256 else [self.archive_name]

    @property
    def archive_name(self) -> str:
        """The file a one-archive model downloads (what `--from` takes)."""
        return Path(self.url).name

    def what_to_bring(self) -> str:
        """What to download on another computer for `--from`, in words."""
        if not self.files:
            return f"download {self.url}"
        names = [f.name for f in self.files]
        return f"download {', '.join(names[:-1])} and {names[-1]} from {self.url} into one folder"

    def from_what(self) -> str:
        """The word `--from` takes for this model in a hint: FILE or FOLDER."""
        return "FOLDER" if self.files else "FILE"


def default_models_dir() -> Path:
    return default_models_dirs()[0]


def load_manifest(path: Path = MANIFEST) -> list[ModelEntry]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [
            ModelEntry(
                m["name"],
                m["backend"],
                m["url"],
                (m.get("sha256") or "").lower() or None,
                float(m.get("approx_size_mb", 0)),
                m.get("keep", ""),
                tuple(
                    ModelFile(name, (f.get("sha256") or "").lower() or None, f.get("bytes"))
                    for name, f in (m.get("files") or {}).items()
                ),
                m.get("revision", ""),
                float(m.get("approx_memory_mb", 0)),
            )
            for m in data["models"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ModelFetchError(f"{path}: not a usable model manifest ({error})") from error


def installed(entry: ModelEntry, models_dir: Path) -> bool:
    return (models_dir / entry.name / ".sha256").is_file()


def provided_by_package(entry: ModelEntry) -> str | None:
    """The installed Python package that already holds this model, if any: then it needs no download."""
    if entry.backend == "moonshine":
        from voice.asr.moonshine import packaged_model_dir

        return "moonshine-cpp" if packaged_model_dir() else None
    return None


def fetch(
    entry: ModelEntry, models_dir: Path, progress: bool = True, archive: Path | None = None, again: str = ""
) -> Path:
    """Download (or take `archive`, a copy of the download: the file or the folder holding
    it; for a several-file model, their folder or one of them), verify and unpack one model;
    returns its folder. Safe to repeat. `again`: the command that fetches it, for the hint
    when the download fails (default: `partyhost models fetch NAME` as the user runs it)."""
    target = models_dir / entry.name
    if installed(entry, models_dir):
        return target
    missing = entry.unverifiable()
    if missing:
        raise ModelFetchError(
            f"{entry.name}: no published SHA-256 is known for {', '.join(missing)}, "
            "and partyhost installs nothing it cannot check; nothing was installed."
        )
    again = again or f"{command()} models fetch {entry.name}"
    if archive is not None:
        archive = _brought(entry, archive)
    models_dir.mkdir(parents=True, exist_ok=True)
    if entry.files:
        return _fetch_files(entry, models_dir, progress, archive, again)
    with tempfile.TemporaryDirectory(dir=models_dir) as work:
        if archive is None:
            archive = Path(work) / "download.zip"
            digest, what, hint = _download(entry, archive, progress, again), "the download", "Try again later."
        else:
            digest, what = _file_digest(entry, archive), str(archive)
            hint = f"It must be {entry.archive_name} exactly as {entry.url} serves it."
        if digest != entry.sha256:
            raise ModelFetchError(
                f"{entry.name}: the SHA-256 of {what} is {digest}, expected "
                f"{entry.sha256}; nothing was installed. {hint}"
            )
        unpacked = Path(work) / "unpacked"
        _unzip(archive, unpacked)
        inner = [p for p in unpacked.iterdir() if p.is_dir()]
        source = inner[0] if len(inner) == 1 and not any(unpacked.glob("*.*")) else unpacked
        if entry.keep:
            source = unpacked / entry.keep
            if not source.is_dir() or not source.resolve().is_relative_to(unpacked.resolve()):
                raise ModelFetchError(f"{entry.name}: the archive has no folder {entry.keep}; nothing was installed")
        if target.exists():
            shutil.rmtree(target)
        shutil.move(str(source), target)
    (target / ".sha256").write_text(entry.sha256 + "\n", encoding="utf-8")
    return target


def _brought(entry: ModelEntry, given: Path) -> Path:
    """What `--from` names, as fetch takes it: a one-archive model's archive (given, or in
    the folder given), a several-file model's folder (given, or holding the file given)."""
    wanted = f"the folder holding {', '.join(f.name for f in entry.files)}" if entry.files else entry.archive_name
    if not given.exists():
        raise ModelFetchError(f"{entry.name}: there is no {given}; --from names {wanted}; nothing was installed.")
    if entry.files:
        if given.is_dir():
            return given
        if given.name in {f.name for f in entry.files}:
            return given.parent
    else:
        if not given.is_dir():
            return given
        if (given / entry.archive_name).is_file():
            return given / entry.archive_name
    raise ModelFetchError(
        f"{entry.name}: --from names {wanted} (downloaded from {entry.url}), not {given}; nothing was installed."
    )


def _fetch_files(entry: ModelEntry, models_dir: Path, progress: bool, folder: Path | None, again: str) -> Path:
    """Every file of a several-file model, each checked, then the folder moved in whole."""
    target = models_dir / entry.name
    with tempfile.TemporaryDirectory(dir=models_dir) as work:
        staged = Path(work) / entry.name
        staged.mkdir()
        for item in entry.files:
            url = entry.url + item.name
            one = ModelEntry(f"{entry.name}/{item.name}", entry.backend, url, item.sha256, (item.bytes or 0) / 1e6)
            if folder is None:
                digest, what, hint = _download(one, staged / item.name, progress, again, entry), url, "Try again later."
            else:
                source = folder / item.name
                digest, what = _file_digest(entry, source), str(source)
                hint = f"It must be {item.name} exactly as {url} serves it."
                if digest == item.sha256:
                    shutil.copyfile(source, staged / item.name)
            if digest != item.sha256:
                raise ModelFetchError(
                    f"{entry.name}: the SHA-256 of {what} is {digest}, expected "
                    f"{item.sha256}; nothing was installed. {hint}"
                )
        if target.exists():
            shutil.rmtree(target)
        shutil.move(str(staged), target)
    (target / ".sha256").write_text("".join(f"{f.sha256}  {f.name}\n" for f in entry.files), encoding="utf-8")
    return target


def folder_mb(folder: Path) -> float:
    """Disk space of an installed model."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def _file_digest(entry: ModelEntry, archive: Path) -> str:
    digest = hashlib.sha256()
    try:
        with open(archive, "rb") as data:
            while chunk := data.read(CHUNK):
                digest.update(chunk)
    except OSError as error:
        raise ModelFetchError(
            f"{entry.name}: cannot read {archive} ({error.strerror or error}); nothing was installed."
        ) from error
    return digest.hexdigest()


def _download(entry: ModelEntry, archive: Path, progress: bool, again: str, whole: ModelEntry | None = None) -> str:
    """`entry`'s url saved as `archive`, and its SHA-256. `entry` is a file of `whole`, the
    model, where it has several; a failure says how to install the model without a network."""
    model = whole or entry
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(entry.url, timeout=60) as response, open(archive, "wb") as out:
            total = int(response.headers.get("Content-Length") or entry.approx_size_mb * 1e6)
            with tqdm(total=total, unit="B", unit_scale=True, desc=entry.name, disable=not progress) as bar:
                while chunk := response.read(CHUNK):
                    out.write(chunk)
                    digest.update(chunk)
                    bar.update(len(chunk))
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        raise ModelFetchError(
            f"{model.name}: cannot download {entry.url} ({error}). Check the network, or on another "
            f"computer {model.what_to_bring()}, and install it with `{again} --from {model.from_what()}`."
        ) from error
    return digest.hexdigest()


def _unzip(archive: Path, into: Path) -> None:
    """Unpack, refusing members that would land outside `into`."""
    try:
        with zipfile.ZipFile(archive) as zipped:
            for member in zipped.namelist():
                if not (into / member).resolve().is_relative_to(into.resolve()):
                    raise ModelFetchError(f"{archive.name}: refuses to unpack {member!r} outside the folder")
            zipped.extractall(into)
    except zipfile.BadZipFile as error:
        raise ModelFetchError(f"{archive.name}: not a zip archive ({error})") from error
