"""The gRPC type mapping of every operation, driven by the contract's operation table: which message
carries the arguments and the answer, and how each side builds and reads them. The sync and the asyncio
servers and clients share it; they add only their transport.

Rules of idl/bench.proto: no parameter -> Empty; an echo -> the {Type}Value wrapper; a float64[] argument
-> Doubles; otherwise the {Operation}Request message with the parameters' names. Answers: void -> Empty,
scalars -> their wrapper, float64[] -> Doubles, Record, Book[] -> Books, Item[] -> Items.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.grpc import mapping
from rpcmatrix.grpc._generated import bench_pb2 as pb

EMPTY = pb.Empty()

_WRAPPERS = {
    "bool": pb.BoolValue, "int8": pb.Int8Value, "int16": pb.Int16Value, "int32": pb.Int32Value,
    "int64": pb.Int64Value, "float32": pb.Float32Value, "float64": pb.Float64Value, "string": pb.StringValue,
    "bytes": pb.BytesValue,
}
# int8 and int16 travel as sint32: the receiver checks the range.
_RECEIVED = {"int8": mapping.int8_from_wire, "int16": mapping.int16_from_wire}


def _float_list(values):
    """protobuf fills a repeated double fastest from a list of Python floats: convert arrays in one call."""
    return values.tolist() if isinstance(values, np.ndarray) else values


@dataclass(frozen=True)
class Mapping:
    operation: Operation
    request: Callable  # client: contract arguments -> request message
    arguments: Callable  # server: request message -> tuple of contract arguments
    response: Callable  # server: contract answer -> response message (one chunk's, for the stream)
    result: Callable  # client: response message -> contract answer (one chunk's, for the stream)


def _request_side(op: Operation) -> tuple[Callable, Callable]:
    if not op.params:
        return (lambda: EMPTY), (lambda request: ())
    if op.name.startswith("echo"):
        wrapper, received = _WRAPPERS[op.params[0].type], _RECEIVED.get(op.params[0].type)
        if received is None:
            return (lambda value: wrapper(value=value)), (lambda request: (request.value,))
        return (lambda value: wrapper(value=value)), (lambda request: (received(request.value),))
    if [p.type for p in op.params] == ["float64[]"]:
        # The server hands the repeated field on as it is: numpy reads it in bulk (buffer protocol).
        return (lambda values: pb.Doubles(values=_float_list(values))), (lambda request: (request.values,))
    message = getattr(pb, op.name[0].upper() + op.name[1:] + "Request")
    names = [p.name for p in op.params]
    read = attrgetter(*names)
    if len(names) == 1:
        name = names[0]
        return (lambda value: message(**{name: value})), (lambda request: (read(request),))
    return (lambda *args: message(**dict(zip(names, args, strict=True)))), read


def _response_side(op: Operation) -> tuple[Callable, Callable]:
    returns = op.returns.removeprefix("stream ")
    if returns == "void":
        return (lambda result: EMPTY), (lambda message: None)
    if returns in _WRAPPERS:
        wrapper, received = _WRAPPERS[returns], _RECEIVED.get(returns)
        read = (lambda message: message.value) if received is None else (lambda message: received(message.value))
        return (lambda result: wrapper(value=result)), read
    if returns == "float64[]":
        if op.is_stream:  # chunks stay lists: the caller concatenates them
            return (lambda chunk: pb.Doubles(values=_float_list(chunk))), (lambda message: list(message.values))
        return (lambda result: pb.Doubles(values=_float_list(result))), \
            (lambda message: np.array(message.values, dtype=np.float64))
    conversions = {
        "Record": (mapping.record_to_wire, mapping.record_from_wire),
        "Book[]": (mapping.books_to_wire, mapping.books_from_wire),
        "Item[]": (mapping.items_to_wire, mapping.items_from_wire),
    }
    return conversions[returns]


def _mapping(op: Operation) -> Mapping:
    request, arguments = _request_side(op)
    response, result = _response_side(op)
    return Mapping(op, request, arguments, response, result)


MAPPINGS: tuple[Mapping, ...] = tuple(_mapping(op) for op in OPERATIONS)
