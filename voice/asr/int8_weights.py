"""An ONNX model rebuilt from ORT format with its int8 weights kept int8, computed in floats.

Moonshine's ORT-format weights are int8 with one scale and one whole-number offset
per tensor (weight = q * scale + offset). Expanded to floats once (ort_format.py,
`expand_weights`) they take 300 MB, and onnxruntime's packed copies of them more: the
second listener alone cost about 460 MB of Keep Cool's 1126 (issue 43). Here they
stay int8 and the arithmetic stays the floats' (no quantised activations, unlike
onnxruntime's dynamic quantisation, whose scores moved by up to 2.9 nats):

- a matrix product with a weight becomes MatMulNBits (8 bits, float accumulation,
  accuracy_level 0) over the same integers, its offset as the zero point;
- the token table's lookup gathers int8 rows, then dequantises only those;
- the token table's transpose for the logits is no copy: MatMulNBits takes the
  table as it is stored ([tokens, width]);
- anything else (the encoder's three convolutions) is expanded as before.

Scores match the expanded model's to float rounding (tests/test_asr_moonshine.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import onnx
from onnx import helper, numpy_helper

from voice.asr.ort_format import _keep_nodes, _other, _weight_chain

BITS = 8
BLOCK = 32
"""MatMulNBits' block along the inner dimension (every block carries the tensor's one scale)."""
MS_DOMAIN = "com.microsoft"


def compact_weights(model: onnx.ModelProto) -> onnx.ModelProto:
    """Each int8 weight (Cast, Mul by its scale, Add its offset) consumed as int8 where
    its consumers allow it (see the module docstring), expanded to floats elsewhere."""
    graph = model.graph
    constant = {t.name: t for t in graph.initializer}
    top_users: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            top_users.setdefault(name, []).append(node)
    done: set[str] = set()  # the outputs of the chains turned into initialisers or int8 reads
    for cast in list(graph.node):
        chain = _weight_chain(cast, constant, top_users)
        if chain is None:
            continue
        _, mul, add = chain
        quantised = numpy_helper.to_array(constant[cast.input[0]])
        scale = numpy_helper.to_array(constant[_other(mul, cast.output[0])]).astype(np.float32)
        offset = numpy_helper.to_array(constant[_other(add, mul.output[0])]).astype(np.float32)
        steps = _offset_steps(scale, offset)
        users = list(_users(graph, add.output[0]))
        if steps is None or not users or not all(_compactable(graph_, node, add.output[0]) for graph_, node in users):
            expanded = quantised.astype(np.float32) * scale + offset
            graph.initializer.append(numpy_helper.from_array(expanded.astype(np.float32), add.output[0]))
        else:
            _compact(graph, users, cast.input[0], quantised, float(scale.ravel()[0]), steps, add.output[0])
        done |= {node.output[0] for node in chain}
    _keep_nodes(graph, [node for node in graph.node if node.output[0] not in done])
    used = {name for node in graph.node for name in node.input} | _inner_inputs(graph)
    kept = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    if not any(o.domain == MS_DOMAIN for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))
    return model


def _offset_steps(scale: np.ndarray, offset: np.ndarray) -> int | None:
    """The offset in whole steps of the scale (weight = (q + steps) * scale), if it is one
    per tensor and a whole number that an int8 zero point holds; else None."""
    if scale.size != 1 or offset.size != 1 or float(scale.ravel()[0]) == 0.0:
        return None
    steps = float(offset.ravel()[0]) / float(scale.ravel()[0])
    whole = round(steps)
    return whole if abs(steps - whole) < 1e-3 and -127 <= whole <= 128 else None


def _users(graph: onnx.GraphProto, name: str) -> Iterator[tuple[onnx.GraphProto, onnx.NodeProto]]:
    """(graph, node) for every node reading `name`, in `graph` and in its branches."""
    for node in graph.node:
        if name in node.input:
            yield graph, node
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                yield from _users(attr.g, name)


def _compactable(graph: onnx.GraphProto, node: onnx.NodeProto, weight: str) -> bool:
    if node.op_type == "MatMul":
        return list(node.input).index(weight) == 1
    if node.op_type == "Gather":
        axis = next((a.i for a in node.attribute if a.name == "axis"), 0)
        return node.input[0] == weight and axis == 0
    if node.op_type == "Transpose":  # the token table, transposed for the logits
        perm = next((list(a.ints) for a in node.attribute if a.name == "perm"), [1, 0])
        after = [n for n in graph.node if node.output[0] in n.input]
        return (
            perm == [1, 0]
            and bool(after)
            and all(n.op_type == "MatMul" and n.input[1] == node.output[0] for n in after)
        )
    return False


def _compact(
    graph: onnx.GraphProto,
    users: list[tuple[onnx.GraphProto, onnx.NodeProto]],
    quantised_name: str,
    quantised: np.ndarray,
    scale: float,
    steps: int,
    weight: str,
) -> None:
    """Rewrites every consumer of `weight` (a float [K, N] matrix, or the [tokens, width]
    token table) to read the int8 tensor `quantised_name` instead."""
    stored: dict[str, list[str]] = {}  # "as is" / "transposed": MatMulNBits' inputs for that layout

    def nbits(rows_are_outputs: bool) -> list[str]:
        """MatMulNBits' weight, scales and zero points: B as [N, K] (the outputs' rows)."""
        key = "as_is" if rows_are_outputs else "transposed"
        if key not in stored:
            matrix = quantised if rows_are_outputs else quantised.T
            stored[key] = _add_nbits_weight(graph, matrix, f"{weight}_nbits_{key}", scale, steps)
        return stored[key]

    def product(node: onnx.NodeProto, rows_are_outputs: bool) -> onnx.NodeProto:
        outputs, inner = quantised.shape if rows_are_outputs else quantised.shape[::-1]
        return helper.make_node(
            "MatMulNBits",
            [node.input[0], *nbits(rows_are_outputs)],
            list(node.output),
            name=node.name,
            domain=MS_DOMAIN,
            K=inner,
            N=outputs,
            bits=BITS,
            block_size=BLOCK,
            accuracy_level=0,
        )

    for where, node in users:
        if node.op_type == "MatMul":
            _replace(where, node, [product(node, rows_are_outputs=False)])
        elif node.op_type == "Gather":
            _replace(where, node, _dequantised_gather(graph, node, quantised_name, scale, steps, weight))
        else:  # the transpose of the token table, read by the logits' MatMul
            for after in [n for n in where.node if node.output[0] in n.input]:
                _replace(where, after, [product(after, rows_are_outputs=True)])
            _drop(where, node)


def _add_nbits_weight(graph: onnx.GraphProto, matrix: np.ndarray, name: str, scale: float, steps: int) -> list[str]:
    """Adds MatMulNBits' weight, scales and zero points for `matrix` ([N, K]: the outputs'
    rows) to the graph's initialisers, and returns their names."""
    outputs, inner = matrix.shape
    blocks = inner // BLOCK
    as_uint8 = (matrix.astype(np.int16) + 128).astype(np.uint8).reshape(outputs, blocks, BLOCK)
    names = [name, f"{name}_scales", f"{name}_zero_points"]
    graph.initializer.extend(
        [
            numpy_helper.from_array(np.ascontiguousarray(as_uint8), names[0]),
            numpy_helper.from_array(np.full(outputs * blocks, scale, np.float32), names[1]),
            numpy_helper.from_array(np.full(outputs * blocks, 128 - steps, np.uint8), names[2]),
        ]
    )
    return names


def _dequantised_gather(
    graph: onnx.GraphProto, node: onnx.NodeProto, quantised_name: str, scale: float, steps: int, weight: str
) -> list[onnx.NodeProto]:
    """A token table's Gather that reads the int8 rows and dequantises only those."""
    rows = f"{node.output[0]}_int8"
    zero_point = f"{weight}_zero_point"
    if zero_point not in {t.name for t in graph.initializer}:
        graph.initializer.extend(
            [
                numpy_helper.from_array(np.array(-steps, np.int8), zero_point),
                numpy_helper.from_array(np.array(scale, np.float32), f"{weight}_scale"),
            ]
        )
    gather = helper.make_node("Gather", [quantised_name, node.input[1]], [rows], name=node.name)
    dequantise = helper.make_node(
        "DequantizeLinear", [rows, f"{weight}_scale", zero_point], list(node.output), name=f"{node.name}_dq"
    )
    return [gather, dequantise]


def _drop(graph: onnx.GraphProto, node: onnx.NodeProto) -> None:
    """Removes a node and what the graph says of its output's shape."""
    _replace(graph, node, [])
    values = [v for v in graph.value_info if v.name != node.output[0]]
    del graph.value_info[:]
    graph.value_info.extend(values)


def _replace(graph: onnx.GraphProto, old: onnx.NodeProto, new: list[onnx.NodeProto]) -> None:
    nodes = list(graph.node)
    at = next(i for i, node in enumerate(nodes) if list(node.output) == list(old.output))
    _keep_nodes(graph, nodes[:at] + new + nodes[at + 1 :])


def _inner_inputs(graph: onnx.GraphProto) -> set[str]:
    names: set[str] = set()
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                names |= {name for inner in attr.g.node for name in inner.input} | _inner_inputs(attr.g)
    return names
