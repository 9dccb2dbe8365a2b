"""The real Moonshine base-en (voice/asr/moonshine.py) and its ONNX rebuilds
(voice/asr/ort_format.py, voice/asr/int8_weights.py), on speech from the host's Piper voice."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import unavailable

from voice.asr import ModelMissingError
from voice.asr.int8_weights import compact_weights
from voice.asr.moonshine import FETCHED, MODEL_FILES, WEIGHTS, MoonshineScorer, default_model_dir, int8_weights
from voice.asr.ort_format import OrtFormatError, expand_weights, onnx_from_ort

pytestmark = pytest.mark.model


@pytest.fixture(scope="module", autouse=True)
def installed():
    if default_model_dir() is None:
        unavailable("moonshine-cpp is not installed (pyproject installs it on x86-64 Linux and Apple arm64)")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("moonshine-cache")


@pytest.fixture(scope="module")
def moonshine(cache):
    return MoonshineScorer(cache_dir=cache, weights="int8")  # as a small machine holds it


def test_the_weights_stay_int8_unless_floats_are_asked_for():
    """Issue 56: within 600 MB wherever it runs, a machine with plenty of memory too."""
    assert int8_weights("auto") and int8_weights("int8") and not int8_weights("float")
    assert set(WEIGHTS) == {"auto", "int8", "float"}


def test_the_onnx_rebuild_computes_what_the_ort_format_model_computes(say):
    import onnxruntime

    folder = default_model_dir()
    audio = say("cattle")[None]

    def both(name):
        shipped = onnxruntime.InferenceSession(str(folder / f"{name}.ort"))
        rebuilt = expand_weights(onnx_from_ort(folder / f"{name}.ort"))
        return shipped, onnxruntime.InferenceSession(rebuilt.SerializeToString())

    encoder, encoder_rebuilt = both("encoder_model")
    hidden = encoder.run(None, {"input_values": audio})[0]
    assert np.allclose(encoder_rebuilt.run(None, {"input_values": audio})[0], hidden, atol=1e-4)
    decoder, decoder_rebuilt = both("decoder_model_merged")  # its branches share weights now
    feed = {
        "input_ids": np.array([[1, 4000, 500]], np.int64),
        "encoder_hidden_states": hidden,
        "use_cache_branch": np.array([False]),
    }
    feed |= {i.name: np.zeros((1, 8, 0, 52), np.float32) for i in decoder.get_inputs() if i.name.startswith("past")}
    expected = decoder.run(["logits"], feed)[0]
    assert np.allclose(decoder_rebuilt.run(["logits"], feed)[0], expected, atol=1e-3)


def test_the_int8_rebuild_judges_as_the_expanded_one_did(say, moonshine, tmp_path):
    """Issue 43: the weights stay int8 (a third of the memory), the arithmetic stays the
    floats', so Keep Cool's lines (tuned on the expanded model) still hold: every score
    within float rounding, the same first choices, and "cattle" beating "kettle"."""
    import onnx

    folder = default_model_dir()
    for name in ("encoder_model", "decoder_model_merged"):
        model = compact_weights(onnx_from_ort(folder / f"{name}.ort"))
        assert name == "encoder_model" or {n.op_type for n in _nodes(model.graph)} >= {
            "MatMulNBits",
            "DequantizeLinear",
        }
        onnx.save(expand_weights(onnx_from_ort(folder / f"{name}.ort")), str(tmp_path / f"{name}.onnx"))
    expanded = MoonshineScorer(cache_dir=tmp_path / "none")
    expanded._encoder, expanded._decoder = (
        __import__("onnxruntime").InferenceSession(str(tmp_path / f"{n}.onnx"))
        for n in ("encoder_model", "decoder_model_merged")
    )
    audio, texts = say("cattle"), ["Cattle", "A cattle", "Kettle", "Cattle.", "Candle", "Battle"]
    int8, floats = moonshine.judge(audio, texts), expanded.judge(audio, texts)
    assert [j.first_choice for j in int8] == [j.first_choice for j in floats]
    assert np.allclose([j.likelihood for j in int8], [j.likelihood for j in floats], atol=1e-3)
    assert int8[0].likelihood > int8[2].likelihood + 1


def _nodes(graph):
    for node in graph.node:
        yield node
        for attr in node.attribute:
            if attr.HasField("g"):
                yield from _nodes(attr.g)


def test_a_file_that_is_not_an_ort_model_is_refused_with_a_reason(tmp_path):
    bogus = tmp_path / "model.ort"
    bogus.write_bytes(b"not a model at all")
    with pytest.raises(OrtFormatError, match="not an ORT-format model"):
        onnx_from_ort(bogus)


def test_the_rebuild_is_made_once_and_kept(moonshine, cache):
    made = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    assert len(made) == 2  # encoder and decoder
    MoonshineScorer(cache_dir=cache, weights="int8")
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == made


def test_a_damaged_rebuild_in_the_cache_is_made_again(moonshine, cache, tmp_path, say):
    for kept in cache.iterdir():
        (tmp_path / kept.name).hardlink_to(kept)
    encoder = next(tmp_path.glob("encoder_model-*"))
    encoder.unlink()
    encoder.write_bytes(b"half a file")  # a disk that filled up, a copy cut short
    again = MoonshineScorer(cache_dir=tmp_path, weights="int8")
    assert encoder.stat().st_size == next(cache.glob("encoder_model-*")).stat().st_size
    audio = say("cattle")
    assert again.judge(audio, ["Cattle"]) == moonshine.judge(audio, ["Cattle"])


def test_where_pip_has_no_wheel_the_model_fetched_into_the_models_folder_is_used(
    moonshine, cache, tmp_path, monkeypatch, say
):
    import voice.asr.moonshine as module

    fetched = tmp_path / FETCHED
    fetched.mkdir()
    for name in MODEL_FILES:  # what `partyhost models fetch moonshine-base-en` unpacks
        _linked_or_copied(fetched / name, default_model_dir() / name)
    monkeypatch.setattr(module, "packaged_model_dir", lambda: None)
    assert default_model_dir(tmp_path) == fetched
    assert default_model_dir(tmp_path / "empty") is None
    audio = say("pocket")
    assert MoonshineScorer(fetched, cache_dir=cache, weights="int8").judge(audio, ["Pocket"]) == moonshine.judge(
        audio, ["Pocket"]
    )


def test_a_missing_model_says_what_to_install(tmp_path):
    with pytest.raises(ModelMissingError, match="pip install moonshine-cpp.*partyhost models fetch moonshine-base-en"):
        MoonshineScorer(model_dir=tmp_path, cache_dir=tmp_path)


@pytest.mark.parametrize("said, close", [("cattle", "Kettle"), ("pocket", "Rocket"), ("globe", "Glove")])
def test_it_finds_the_word_said_likelier_than_a_word_that_only_sounds_close(moonshine, say, said, close):
    right, wrong = moonshine.judge(say(said), [said.capitalize(), close])
    assert right.likelihood > wrong.likelihood


def test_its_first_choice_is_the_word_it_would_write(moonshine, say):
    # Only right if the tokenizer splits words as the model does: a wrong split is no first choice.
    judged = moonshine.judge(say("pocket"), ["Pocket", "Rocket", "A pocket", "Pocket pocket"])
    assert [j.first_choice for j in judged] == [True, False, False, False]


def test_the_first_choice_is_what_decoding_greedily_writes(moonshine, say):
    """The shortcut (one teacher-forced batch) against the real thing, a token at a time."""
    audio = say("candle")
    written: list[int] = []
    for _ in range(6):
        logits = moonshine._decode([written], moonshine._encode(audio))[0, len(written)]
        if not written:
            logits[2] = -np.inf
        token = int(np.argmax(logits))
        if token == 2 or token in (moonshine._dot, moonshine._comma):
            break
        written.append(token)
    text = "".join(moonshine._pieces[t] for t in written).replace("\u2581", " ").strip()
    assert text and moonshine.judge(audio, [text])[0].first_choice


def _linked_or_copied(path: Path, original: Path) -> None:
    """A hard link saves copying 190 MB; across file systems (tmp_path in RAM) a copy."""
    try:
        path.hardlink_to(original)
    except OSError:
        shutil.copyfile(original, path)
