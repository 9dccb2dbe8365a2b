"""Whisper's decoder one step at a time: the log-probability of every next token.

CTranslate2 runs Whisper fast but only whole decodes: it gives no way to ask "which
tokens may come next?" between steps, which decoding inside a prompt's grammar
needs (voice/understanding/grammar_decode.py). So the decoder of the very weights CTranslate2
loads (its model.bin, float16) is rebuilt once as an ONNX graph with a key/value
cache, its matrices quantised to int8 by onnxruntime's own tool, and kept in the
cache folder; the encoder stays in CTranslate2, whose output it reads. One step for
a beam of eight costs about what CTranslate2's own step does.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from voice.cores import worker_threads

BUILD = 1
"""Bumped when the graph changes, so an old rebuild in the cache is not used."""
LAYERS_PREFIX = "decoder/layer_"
_DTYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}


class WhisperStepsError(ValueError):
    """The model file is not a CTranslate2 Whisper model this reader understands."""


def read_decoder(model_bin: Path) -> dict[str, np.ndarray]:
    """The decoder's variables of a CTranslate2 model.bin (format version 6: a header,
    then per variable its name, shape, type and bytes)."""
    data = Path(model_bin).read_bytes()
    offset = 0

    def take(fmt: str) -> int:
        nonlocal offset
        (value,) = struct.unpack_from(fmt, data, offset)
        offset += struct.calcsize(fmt)
        return value

    def text() -> str:
        nonlocal offset
        size = take("H")
        value = data[offset : offset + size - 1].decode()
        offset += size
        return value

    try:
        if take("I") != 6 or text() != "WhisperSpec":
            raise WhisperStepsError(f"{model_bin}: not a CTranslate2 Whisper model (format 6)")
        take("I")  # the spec's revision
        variables: dict[str, np.ndarray] = {}
        for _ in range(take("I")):
            name = text()
            shape = [take("I") for _ in range(take("B"))]
            dtype, size = _DTYPES[take("B")], take("I")
            if name.startswith("decoder/"):
                count = size // np.dtype(dtype).itemsize
                variables[name] = np.frombuffer(data, dtype, count, offset).reshape(shape)
            offset += size
    except (struct.error, KeyError, ValueError) as error:
        if isinstance(error, WhisperStepsError):
            raise
        raise WhisperStepsError(f"{model_bin}: cannot be read ({error})") from error
    return variables


# ---- the graph -----------------------------------------------------------------


class _Graph:
    """A small helper to write an ONNX graph: a node's outputs are named for it unless given."""

    def __init__(self) -> None:
        self.nodes: list = []
        self.weights: list = []
        self._count = 0

    def node(self, op: str, inputs: list[str], output: str | None = None, **attrs: Any) -> str:
        """A node of one output (named `output`, or after `op`): that output's name."""
        (name,) = self._add(op, inputs, [output or self._name(op)], attrs)
        return name

    def split(self, op: str, inputs: list[str], count: int, **attrs: Any) -> list[str]:
        """A node of `count` outputs (Split): their names."""
        return self._add(op, inputs, [self._name(op) for _ in range(count)], attrs)

    def _add(self, op: str, inputs: list[str], names: list[str], attrs: dict[str, Any]) -> list[str]:
        from onnx import helper

        self.nodes.append(helper.make_node(op, inputs, names, **attrs))
        return names

    def weight(self, name: str, value: np.ndarray) -> str:
        from onnx import numpy_helper

        self.weights.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def const(self, value: Any, dtype: type = np.int64) -> str:
        return self.weight(self._name("const"), np.asarray(value, dtype))

    def _name(self, op: str) -> str:
        self._count += 1
        return f"{op.lower()}_{self._count}"


@dataclass(frozen=True)
class Shape:
    layers: int
    heads: int
    width: int

    @property
    def head_size(self) -> int:
        return self.width // self.heads


def _shape_of(w: dict[str, np.ndarray]) -> Shape:
    layers = len({k.split("/")[1] for k in w if re.match(LAYERS_PREFIX + r"\d+/", k)})
    heads = int(w["decoder/num_heads"]) if "decoder/num_heads" in w else 6
    return Shape(layers, heads, w["decoder/embeddings/weight"].shape[1])


def _linear(g: _Graph, x: str, w: dict[str, np.ndarray], name: str) -> str:
    weight = g.weight(f"{name}/weight", w[f"{name}/weight"].astype(np.float32).T)
    bias = g.weight(f"{name}/bias", w[f"{name}/bias"].astype(np.float32))
    return g.node("Add", [g.node("MatMul", [x, weight]), bias])


def _norm(g: _Graph, x: str, w: dict[str, np.ndarray], name: str) -> str:
    gamma = g.weight(f"{name}/gamma", w[f"{name}/gamma"].astype(np.float32))
    beta = g.weight(f"{name}/beta", w[f"{name}/beta"].astype(np.float32))
    return g.node("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=1e-5)


def _heads(g: _Graph, x: str, shape: Shape) -> str:
    """[B, S, width] -> [B, heads, S, head_size]"""
    split = g.node("Reshape", [x, g.const([0, 0, shape.heads, shape.head_size])])
    return g.node("Transpose", [split], perm=[0, 2, 1, 3])


def _attend(g: _Graph, q: str, k: str, v: str, shape: Shape, mask: str | None) -> str:
    scores = g.node("MatMul", [q, g.node("Transpose", [k], perm=[0, 1, 3, 2])])
    scores = g.node("Mul", [scores, g.const(1 / math.sqrt(shape.head_size), np.float32)])
    if mask is not None:
        scores = g.node("Add", [scores, mask])
    mixed = g.node("MatMul", [g.node("Softmax", [scores], axis=-1), v])
    joined = g.node("Transpose", [mixed], perm=[0, 2, 1, 3])
    return g.node("Reshape", [joined, g.const([0, 0, shape.width])])


def _length(g: _Graph, tokens: str) -> str:
    """S of tokens [B, S], as a scalar."""
    return g.node("Squeeze", [g.node("Shape", [tokens], start=1, end=2), g.const([0])])


def _causal_mask(g: _Graph, tokens: str, offset: str) -> str:
    """[S, P+S]: 0 where position j may be seen from row i (j <= P + i), else -1e9."""
    count = _length(g, tokens)
    rows = g.node("Add", [g.node("Range", [g.const(0), count, g.const(1)]), offset])
    cols = g.node("Range", [g.const(0), g.node("Add", [count, offset]), g.const(1)])
    later = g.node("Greater", [g.node("Unsqueeze", [cols, g.const([0])]), g.node("Unsqueeze", [rows, g.const([1])])])
    return g.node("Where", [later, g.const(-1e9, np.float32), g.const(0.0, np.float32)])


def _decoder_layer(g: _Graph, x: str, w: dict[str, np.ndarray], layer: int, shape: Shape, mask: str) -> str:
    """One decoder layer on x [B, S, width]: self-attention over the cache and the new
    tokens (reading past_*, writing present_*), cross-attention, feed-forward."""
    name = f"{LAYERS_PREFIX}{layer}"
    h = _norm(g, x, w, f"{name}/self_attention/layer_norm")
    q, k, v = g.split(
        "Split", [_linear(g, h, w, f"{name}/self_attention/linear_0"), g.const([shape.width] * 3)], 3, axis=-1
    )
    k = g.node("Concat", [f"past_k_{layer}", _heads(g, k, shape)], f"present_k_{layer}", axis=2)
    v = g.node("Concat", [f"past_v_{layer}", _heads(g, v, shape)], f"present_v_{layer}", axis=2)
    attended = _attend(g, _heads(g, q, shape), k, v, shape, mask)
    x = g.node("Add", [x, _linear(g, attended, w, f"{name}/self_attention/linear_1")])
    h = _norm(g, x, w, f"{name}/attention/layer_norm")
    q = _heads(g, _linear(g, h, w, f"{name}/attention/linear_0"), shape)
    attended = _attend(g, q, f"cross_k_{layer}", f"cross_v_{layer}", shape, None)
    x = g.node("Add", [x, _linear(g, attended, w, f"{name}/attention/linear_2")])
    h = _linear(g, _norm(g, x, w, f"{name}/ffn/layer_norm"), w, f"{name}/ffn/linear_0")
    erf = g.node("Erf", [g.node("Mul", [h, g.const(1 / math.sqrt(2), np.float32)])])
    gelu = g.node("Mul", [g.node("Mul", [h, g.const(0.5, np.float32)]), g.node("Add", [erf, g.const(1.0, np.float32)])])
    return g.node("Add", [x, _linear(g, gelu, w, f"{name}/ffn/linear_1")])


def build_step_graph(w: dict[str, np.ndarray]) -> Any:  # an onnx ModelProto
    """tokens [B, S] after `offset` cached positions -> the log-probabilities of the next
    token after the last of them [B, vocab], and the caches grown by S."""
    from onnx import TensorProto, helper

    shape = _shape_of(w)
    g = _Graph()
    table = w["decoder/embeddings/weight"]
    embed = g.node(
        "Cast", [g.node("Gather", [g.weight("embeddings", table.astype(np.float16)), "tokens"])], to=TensorProto.FLOAT
    )
    table_of_positions = g.weight("positions", w["decoder/position_encodings/encodings"].astype(np.float32))
    end = g.node("Add", ["offset", g.node("Shape", ["tokens"], start=1, end=2)])
    x = g.node("Add", [embed, g.node("Slice", [table_of_positions, "offset", end, g.const([0])])])
    mask = _causal_mask(g, "tokens", g.node("Squeeze", ["offset"]))
    inputs = [
        helper.make_tensor_value_info("tokens", TensorProto.INT64, ["B", "S"]),
        helper.make_tensor_value_info("offset", TensorProto.INT64, [1]),
    ]
    outputs = [helper.make_tensor_value_info("log_probs", TensorProto.FLOAT, ["B", table.shape[0]])]
    cache_shape: list[str | int] = ["B", shape.heads, "P", shape.head_size]
    for layer in range(shape.layers):
        x = _decoder_layer(g, x, w, layer, shape, mask)
        for kind in "kv":
            inputs.append(helper.make_tensor_value_info(f"past_{kind}_{layer}", TensorProto.FLOAT, cache_shape))
            inputs.append(
                helper.make_tensor_value_info(
                    f"cross_{kind}_{layer}", TensorProto.FLOAT, [1, shape.heads, "T", shape.head_size]
                )
            )
            outputs.append(helper.make_tensor_value_info(f"present_{kind}_{layer}", TensorProto.FLOAT, cache_shape))
    last = g.node("Slice", [_norm(g, x, w, "decoder/layer_norm"), g.const([-1]), g.const([2**62]), g.const([1])])
    logits = g.node(
        "MatMul", [g.node("Squeeze", [last, g.const([1])]), g.weight("projection", table.astype(np.float32).T)]
    )
    g.node("LogSoftmax", [logits], "log_probs", axis=-1)
    return helper.make_model(
        helper.make_graph(g.nodes, "whisper_decoder_step", inputs, outputs, g.weights),
        opset_imports=[helper.make_opsetid("", 17)],
        ir_version=8,
    )


def build_cross_graph(w: dict[str, np.ndarray]) -> Any:  # an onnx ModelProto
    """The encoder's output [1, T, width] -> each layer's cross-attention keys and values."""
    from onnx import TensorProto, helper

    shape = _shape_of(w)
    g = _Graph()
    outputs = []
    for layer in range(shape.layers):
        kv = _linear(g, "encoded", w, f"{LAYERS_PREFIX}{layer}/attention/linear_1")
        k, v = g.split("Split", [kv, g.const([shape.width] * 2)], 2, axis=-1)
        for kind, value in (("k", k), ("v", v)):
            g.node("Identity", [_heads(g, value, shape)], f"cross_{kind}_{layer}")
            outputs.append(
                helper.make_tensor_value_info(
                    f"cross_{kind}_{layer}", TensorProto.FLOAT, [1, shape.heads, "T", shape.head_size]
                )
            )
    inputs = [helper.make_tensor_value_info("encoded", TensorProto.FLOAT, [1, "T", shape.width])]
    return helper.make_model(
        helper.make_graph(g.nodes, "whisper_cross", inputs, outputs, g.weights),
        opset_imports=[helper.make_opsetid("", 17)],
        ir_version=8,
    )


def rebuilt(model_bin: Path, cache: Path) -> tuple[Path, Path]:
    """The step and cross graphs of this model.bin, int8, built once into `cache`."""
    digest = hashlib.sha256(Path(model_bin).read_bytes()).hexdigest()[:16]
    step, cross = (cache / f"whisper-{kind}-{digest}-b{BUILD}.onnx" for kind in ("step", "cross"))
    if step.is_file() and cross.is_file():
        return step, cross
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    weights = read_decoder(model_bin)
    cache.mkdir(parents=True, exist_ok=True)
    for target, model in ((step, build_step_graph(weights)), (cross, build_cross_graph(weights))):
        plain = target.with_suffix(f".{os.getpid()}.float.onnx")
        partial = target.with_suffix(f".{os.getpid()}.part")
        onnx.save(model, str(plain))
        try:
            quantize_dynamic(
                str(plain),
                str(partial),
                weight_type=QuantType.QInt8,
                per_channel=True,
                op_types_to_quantize=["MatMul"],
                extra_options={"MatMulConstBOnly": True},
            )
        finally:
            plain.unlink(missing_ok=True)
        partial.replace(target)
    return step, cross


# ---- running it ----------------------------------------------------------------


@dataclass
class Cache:
    """What the decoder remembers of the rows decoded so far: keys and values per layer."""

    keys: list[np.ndarray]
    values: list[np.ndarray]

    @property
    def length(self) -> int:
        return self.keys[0].shape[2]

    def rows(self, chosen: np.ndarray) -> Cache:
        """The cache for these rows, in this order (a row may be taken twice)."""
        return Cache([k[chosen] for k in self.keys], [v[chosen] for v in self.values])


class WhisperSteps:
    """The decoder of one Whisper model, a step at a time, on onnxruntime."""

    def __init__(self, model_bin: Path, cache_dir: Path | None = None, threads: int | None = None):
        import onnxruntime

        step, cross = rebuilt(Path(model_bin), cache_dir or _cache_dir())
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads or worker_threads(), 1
        self._step = onnxruntime.InferenceSession(str(step), options, providers=["CPUExecutionProvider"])
        self._cross = onnxruntime.InferenceSession(str(cross), options, providers=["CPUExecutionProvider"])
        self.layers = sum(1 for o in self._cross.get_outputs() if o.name.startswith("cross_k_"))
        first = self._step.get_inputs()[2].shape
        self._heads, self._head_size = first[1], first[3]
        self.vocab_size = self._step.get_outputs()[0].shape[1]

    def cross(self, encoded: np.ndarray) -> dict[str, np.ndarray]:
        """The cross-attention inputs for one utterance's encoder output [1, T, width]."""
        names = [o.name for o in self._cross.get_outputs()]
        return dict(zip(names, self._cross.run(names, {"encoded": np.asarray(encoded, np.float32)})))

    def empty(self, rows: int = 1) -> Cache:
        blank = np.zeros((rows, self._heads, 0, self._head_size), np.float32)
        return Cache([blank] * self.layers, [blank] * self.layers)

    def step(self, tokens: np.ndarray, cache: Cache, cross: dict[str, np.ndarray]) -> tuple[np.ndarray, Cache]:
        """tokens [B, S] after `cache` -> log-probabilities of each row's next token [B, vocab]
        and the cache with these tokens in it."""
        feed = {"tokens": np.asarray(tokens, np.int64), "offset": np.array([cache.length], np.int64), **cross}
        for layer in range(self.layers):
            feed[f"past_k_{layer}"], feed[f"past_v_{layer}"] = cache.keys[layer], cache.values[layer]
        out = self._step.run(None, feed)
        return out[0], Cache(out[1::2], out[2::2])


def _cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("partyhost")) / "whisper"


class WhisperVocabulary:
    """Whisper's text tokens by what they write (grammar_decode.Vocabulary)."""

    def __init__(self, tokenizer: Any) -> None:
        """`tokenizer`: faster_whisper's Tokenizer (its eot ends the text tokens)."""
        decode = tokenizer.tokenizer.decode
        self._texts = [decode([token]) for token in range(tokenizer.eot)]
        self._tokens: dict[str, int] = {}
        for token, text in enumerate(self._texts):
            if "\ufffd" not in text:  # a piece of a character: never a whole one
                self._tokens.setdefault(text, token)
        self.end = tokenizer.eot
        self.punctuation = tuple(self._tokens[mark] for mark in (",", ".", "?", "!"))

    def token(self, text: str) -> int | None:
        return self._tokens.get(text)

    def text(self, token: int) -> str:
        return self._texts[token]
