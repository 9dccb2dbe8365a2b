"""Sound devices: what PortAudio sees, and finding the one a user named.

Everything that touches sounddevice goes through `sounddevice_module()`, so a
machine without PortAudio gets one clear sentence saying what to install instead
of an OSError from deep inside an import.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

from host.errors import PartyhostError, command

Kind = Literal["input", "output"]

_PORTAUDIO_MISSING = (
    "PortAudio is not installed, so no microphone or speaker can be used. "
    "Install it (Debian/Ubuntu/Raspberry Pi OS: sudo apt-get install libportaudio2 "
    "libasound2-plugins; macOS: brew install portaudio), or use --input FILE.wav / "
    "--output FILE.wav|text."
)

_rescan_lock = threading.Lock()


class AudioDeviceError(PartyhostError, RuntimeError):
    """A sound device (or PortAudio itself) is missing or unusable; the message says what to do."""


class PortAudioMissing(AudioDeviceError):
    pass


class DeviceNotFound(AudioDeviceError):
    pass


@dataclass(frozen=True)
class DeviceProblem:
    """Something the user may need to hear about a device mid-game; never fatal."""

    kind: str  # "overflow" | "lost" | "recovered"
    message: str


@dataclass(frozen=True)
class Device:
    """One PortAudio device as `partyhost devices` lists it."""

    index: int
    name: str
    hostapi: str
    inputs: int
    outputs: int
    default_rate: int
    is_default_input: bool
    is_default_output: bool

    def describe(self) -> str:
        marks = "".join(m for m, on in ((">", self.is_default_input), ("<", self.is_default_output)) if on)
        return (
            f"{marks:>2} {self.index:3d}  {self.name} ({self.hostapi}; "
            f"{self.inputs} in, {self.outputs} out, {self.default_rate} Hz)"
        )


def sounddevice_module() -> ModuleType:
    """Import sounddevice, turning "PortAudio library not found" into an instruction."""
    try:
        import sounddevice
    except OSError as error:
        raise PortAudioMissing(_PORTAUDIO_MISSING) from error
    return sounddevice


def close_stream(stream: Any) -> None:
    """Abort and close a PortAudio stream; one whose device is gone has nothing left to free."""
    if stream is None:
        return
    try:
        stream.abort()
        stream.close()
    except Exception:  # the device may be gone already
        pass


def rescan() -> None:
    """Make PortAudio enumerate devices again (it only does so when initialised).

    Needed to see a device plugged in (or a sound server started) after startup.
    PortAudio closes every open stream while re-initialising, so callers do this only
    when their own stream is already gone.
    """
    sd = sounddevice_module()
    with _rescan_lock:
        sd._terminate()
        sd._initialize()


def list_devices() -> list[Device]:
    """Every device PortAudio knows, with the default input and output marked."""
    sd = sounddevice_module()
    apis = [api["name"] for api in sd.query_hostapis()]
    default_in, default_out = _defaults(sd)
    return [
        Device(
            index=i,
            name=d["name"],
            hostapi=apis[d["hostapi"]],
            inputs=d["max_input_channels"],
            outputs=d["max_output_channels"],
            default_rate=int(d["default_samplerate"]),
            is_default_input=i == default_in,
            is_default_output=i == default_out,
        )
        for i, d in enumerate(sd.query_devices())
    ]


def find_device(name_or_index: int | str | None, kind: Kind) -> Device:
    """The device to use for `kind`: the default for None, else by index or by name.

    A name matches exactly (ignoring case) or, failing that, as a unique part of one
    device's name ("USB" finds "USB PnP Sound Device: Audio (hw:1,0)").
    """
    devices = [d for d in list_devices() if _channels(d, kind) > 0]
    if name_or_index is None:
        for d in devices:
            if d.is_default_input if kind == "input" else d.is_default_output:
                return d
        raise DeviceNotFound(_not_found(f"There is no default {_noun(kind)}", kind, devices))
    if isinstance(name_or_index, int) or str(name_or_index).strip().isdigit():
        index = int(name_or_index)
        for d in devices:
            if d.index == index:
                return d
        raise DeviceNotFound(_not_found(f"No {_noun(kind)} has index {index}", kind, devices))
    wanted = str(name_or_index).strip().lower()
    exact = [d for d in devices if d.name.lower() == wanted]
    if exact:
        return exact[0]
    partial = [d for d in devices if wanted in d.name.lower()]
    if len(partial) == 1:
        return partial[0]
    if partial:
        names = ", ".join(repr(d.name) for d in partial)
        raise DeviceNotFound(
            f"{name_or_index!r} matches several {_noun(kind)}s: {names}. Give more of the name, or the index."
        )
    raise DeviceNotFound(_not_found(f"No {_noun(kind)} is called {name_or_index!r}", kind, devices))


def _defaults(sd: ModuleType) -> tuple[int, int]:
    default = sd.default.device
    try:
        return int(default[0]), int(default[1])
    except (TypeError, ValueError):  # a name was set as default: resolve it
        return (
            sd.query_devices(kind="input")["index"] if default[0] is not None else -1,
            sd.query_devices(kind="output")["index"] if default[1] is not None else -1,
        )


def _channels(device: Device, kind: Kind) -> int:
    return device.inputs if kind == "input" else device.outputs


def _noun(kind: Kind) -> str:
    return "microphone" if kind == "input" else "speaker"


def _not_found(problem: str, kind: Kind, devices: list[Device]) -> str:
    flag = "--input-device" if kind == "input" else "--output-device"
    if devices:
        listing = "; ".join(f"{d.index}: {d.name}" for d in devices)
        return (
            f"{problem}. {_noun(kind).capitalize()}s found: {listing}. "
            f"Choose one with {flag} NAME|INDEX (`{command()} devices` lists them)."
        )
    fallback = "--input FILE.wav" if kind == "input" else "--output FILE.wav or --output text"
    return (
        f"{problem}: no {_noun(kind)} is connected. Plug one in (a USB speakerphone "
        f"works for both), check that the sound server runs (`pactl info`), "
        f"or use {fallback}."
    )
