"""An ONNX model rebuilt from onnxruntime's own ORT format (a flatbuffer), with its
int8 weights expanded once.

Moonshine's weights reach us only as ORT-format files (in the moonshine-cpp wheel).
onnxruntime runs them, but a model loaded in that format is not optimised again:
every call expands each int8 weight to floats (Cast, Mul, Add), the decoder's
token table alone taking about 90 ms, four times the rest of the decoder. Rebuilt
as ONNX (`onnx_from_ort`) the graph gets onnxruntime's constant folding at load,
but that folding keeps working copies and folds the token table's transpose
once in each branch of the decoder: 860 MB of memory. `expand_weights` does the
same arithmetic once, in numpy, for the whole model (about 470 MB, same speed,
same scores). The reader is the flatbuffer schema that onnxruntime ships
(onnxruntime.tools.ort_format_model); only what a model graph holds is carried
over (nodes, attributes, initialisers, value types).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnxruntime.tools.ort_format_model.ort_flatbuffers_py.fbs import (
    InferenceSession as OrtFile,
)
from onnxruntime.tools.ort_format_model.ort_flatbuffers_py.fbs.AttributeType import (
    AttributeType,
)
from onnxruntime.tools.ort_format_model.ort_flatbuffers_py.fbs.TensorTypeAndShape import (
    TensorTypeAndShape,
)

_TENSOR_TYPE = 1  # fbs.TypeInfoValue.tensor_type
_DIM_VALUE, _DIM_PARAM = 1, 2


class OrtFormatError(ValueError):
    """The file is not an ORT-format model this reader understands."""


def onnx_from_ort(path: Path | str) -> onnx.ModelProto:
    data = Path(path).read_bytes()
    if data[4:8] != b"ORTM":
        raise OrtFormatError(f"{path} is not an ORT-format model")
    model = OrtFile.InferenceSession.GetRootAsInferenceSession(data, 0).Model()
    opsets = [
        helper.make_opsetid(_text(model.OpsetImport(i).Domain()), model.OpsetImport(i).Version())
        for i in range(model.OpsetImportLength())
    ]
    return helper.make_model(_graph(model.Graph()), opset_imports=opsets, ir_version=model.IrVersion())


def _text(value: bytes | None) -> str:
    return value.decode() if value else ""


def _graph(graph: Any) -> onnx.GraphProto:
    values = {_text(graph.NodeArgs(i).Name()): graph.NodeArgs(i) for i in range(graph.NodeArgsLength())}
    nodes = sorted((graph.Nodes(i) for i in range(graph.NodesLength())), key=lambda n: n.Index())
    if graph.SparseInitializersLength() or any(n.Type() != 0 for n in nodes):
        raise OrtFormatError("sparse initialisers or fused nodes are not supported")
    initialisers = [_tensor(graph.Initializers(i)) for i in range(graph.InitializersLength())]
    inputs = [_text(graph.Inputs(i)) for i in range(graph.InputsLength())]
    outputs = [_text(graph.Outputs(i)) for i in range(graph.OutputsLength())]
    constant = {t.name for t in initialisers}
    made = {name for node in nodes for name in (_text(node.Outputs(j)) for j in range(node.OutputsLength()))}
    inner = [name for name in values if name in made and name not in constant and name not in outputs]
    return helper.make_graph(
        [_node(node) for node in nodes],
        "graph",
        [_value(values[name]) for name in inputs],
        [_value(values[name]) for name in outputs],
        initialisers,
        value_info=[_value(values[name]) for name in inner],
    )


def _node(node: Any) -> onnx.NodeProto:
    made = helper.make_node(
        _text(node.OpType()),
        [_text(node.Inputs(j)) for j in range(node.InputsLength())],
        [_text(node.Outputs(j)) for j in range(node.OutputsLength())],
        name=_text(node.Name()),
        domain=_text(node.Domain()) or None,
    )
    made.attribute.extend(_attribute(node.Attributes(j)) for j in range(node.AttributesLength()))
    return made


def _tensor(tensor: Any) -> onnx.TensorProto:
    made = onnx.TensorProto(
        name=_text(tensor.Name()),
        data_type=tensor.DataType(),
        dims=[tensor.Dims(i) for i in range(tensor.DimsLength())],
    )
    if tensor.StringDataLength():
        made.string_data.extend(tensor.StringData(i) for i in range(tensor.StringDataLength()))
    elif tensor.RawDataLength():
        made.raw_data = tensor.RawDataAsNumpy().tobytes()
    return made


def _value(value: Any) -> onnx.ValueInfoProto:
    name, kind = _text(value.Name()), value.Type()
    if kind is None or kind.ValueType() != _TENSOR_TYPE:
        return helper.make_value_info(name, onnx.TypeProto())
    tensor = TensorTypeAndShape()
    table = kind.Value()
    tensor.Init(table.Bytes, table.Pos)
    shape = tensor.Shape()
    dims = None if shape is None else [_dim(shape.Dim(i).Value()) for i in range(shape.DimLength())]
    return helper.make_tensor_value_info(name, tensor.ElemType(), dims)


def _dim(dim: Any) -> int | str | None:
    if dim is None:
        return None
    if dim.DimType() == _DIM_VALUE:
        return dim.DimValue()
    return _text(dim.DimParam()) if dim.DimType() == _DIM_PARAM else None


def _attribute(attr: Any) -> onnx.AttributeProto:
    name, kind = _text(attr.Name()), attr.Type()
    listed = {
        AttributeType.FLOATS: (attr.FloatsLength, attr.Floats, onnx.AttributeProto.FLOATS),
        AttributeType.INTS: (attr.IntsLength, attr.Ints, onnx.AttributeProto.INTS),
        AttributeType.STRINGS: (attr.StringsLength, attr.Strings, onnx.AttributeProto.STRINGS),
    }
    if kind in listed:
        length, item, proto_type = listed[kind]
        return helper.make_attribute(name, [item(i) for i in range(length())], attr_type=proto_type)
    single = {
        AttributeType.FLOAT: attr.F,
        AttributeType.INT: attr.I,
        AttributeType.STRING: attr.S,
        AttributeType.TENSOR: lambda: _tensor(attr.T()),
        AttributeType.GRAPH: lambda: _graph(attr.G()),
    }
    if kind in single:
        return helper.make_attribute(name, single[kind]())
    if kind == AttributeType.TENSORS:
        return helper.make_attribute(name, [_tensor(attr.Tensors(i)) for i in range(attr.TensorsLength())])
    if kind == AttributeType.GRAPHS:
        return helper.make_attribute(name, [_graph(attr.Graphs(i)) for i in range(attr.GraphsLength())])
    raise OrtFormatError(f"attribute {name!r} has a type this reader does not know ({kind})")


def expand_weights(model: onnx.ModelProto) -> onnx.ModelProto:
    """Each int8 weight (Cast, Mul by its scale, Add its offset) stored as floats, and
    each transpose of a weight inside a branch stored once beside it, all in the
    top-level graph, which the branches read."""
    graph = model.graph
    constant = {t.name: t for t in graph.initializer}
    users: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            users.setdefault(name, []).append(node)
    done: set[int] = set()
    for cast in graph.node:
        chain = _weight_chain(cast, constant, users)
        if chain is None:
            continue
        _, mul, add = chain
        weights, scale, offset = (
            numpy_helper.to_array(constant[n])
            for n in (cast.input[0], _other(mul, cast.output[0]), _other(add, mul.output[0]))
        )
        expanded = weights.astype(np.float32) * scale + offset
        graph.initializer.append(numpy_helper.from_array(expanded.astype(np.float32), add.output[0]))
        done |= {id(node) for node in chain}
    _keep_nodes(graph, [node for node in graph.node if id(node) not in done])
    constant = {t.name: t for t in graph.initializer}
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                _transpose_once(attr.g, graph, constant)
    used = {name for node in graph.node for name in node.input} | _outer_inputs(graph)
    kept = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    return model


def _weight_chain(cast: onnx.NodeProto, constant: dict, users: dict) -> tuple | None:
    """(Cast, Mul, Add) turning a constant int8 tensor into float weights, or None."""
    if cast.op_type != "Cast" or cast.input[0] not in constant:
        return None
    after = users.get(cast.output[0], [])
    if len(after) != 1 or after[0].op_type != "Mul" or _other(after[0], cast.output[0]) not in constant:
        return None
    mul = after[0]
    after = users.get(mul.output[0], [])
    if len(after) != 1 or after[0].op_type != "Add" or _other(after[0], mul.output[0]) not in constant:
        return None
    return cast, mul, after[0]


def _other(node: onnx.NodeProto, name: str) -> str | None:
    others = [i for i in node.input if i != name]
    return others[0] if len(others) == 1 else None


def _transpose_once(branch: onnx.GraphProto, top: onnx.GraphProto, constant: dict) -> None:
    """Transposes of top-level weights inside `branch` become top-level weights."""
    renamed: dict[str, str] = {}
    kept = []
    for node in branch.node:
        if node.op_type != "Transpose" or node.input[0] not in constant:
            kept.append(node)
            continue
        perm = next((list(a.ints) for a in node.attribute if a.name == "perm"), [])
        name = f"{node.input[0]}_transposed_{'_'.join(map(str, perm))}"
        if name not in constant:
            array = np.transpose(numpy_helper.to_array(constant[node.input[0]]), perm or None)
            constant[name] = numpy_helper.from_array(np.ascontiguousarray(array), name)
            top.initializer.append(constant[name])
        renamed[node.output[0]] = name
    for node in kept:
        node.input[:] = [renamed.get(name, name) for name in node.input]
    _keep_nodes(branch, kept)
    values = [v for v in branch.value_info if v.name not in renamed]
    del branch.value_info[:]
    branch.value_info.extend(values)


def _keep_nodes(graph: onnx.GraphProto, nodes: list[onnx.NodeProto]) -> None:
    del graph.node[:]
    graph.node.extend(nodes)


def _outer_inputs(graph: onnx.GraphProto) -> set[str]:
    """Names the branches of `graph`'s nodes read (from the top level, among others)."""
    names: set[str] = set()
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                names |= {name for inner in attr.g.node for name in inner.input} | _outer_inputs(attr.g)
    return names
