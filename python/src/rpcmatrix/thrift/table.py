"""The Thrift type mapping of every operation, driven by the contract's operation table (bench.thrift uses
the contract's names and parameter order): the conversions each side applies around the generated code.
A None conversion is the identity, so the server and client bind no call for it.

Scalars, strings, bytes and lists travel as they are (the codec checks the range of i8 and i16); float32
travels as double and the receiver checks it is exactly a float32; float64[] answers go as lists (numpy
arrays converted in one call); structs as the IDL's structs. An operation with `raises` declares
BenchError in the IDL. Thrift has no streams: stream operations are not in the service.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.thrift import mapping

_SERVER_ANSWER = {  # contract answer -> what the generated processor writes
    "float64[]": mapping.float_list,
    "Record": mapping.record_to_thrift,
    "Book[]": mapping.books_to_thrift,
    "Item[]": mapping.items_to_thrift,
}
_CLIENT_RESULT = {  # what the generated client read -> contract answer
    "Record": mapping.record_from_thrift,
    "Book[]": mapping.books_from_thrift,
    "Item[]": mapping.items_from_thrift,
}


@dataclass(frozen=True)
class Mapping:
    operation: Operation
    arguments: Callable | None  # server: received arguments -> tuple of contract arguments
    response: Callable | None  # server: contract answer -> wire answer
    result: Callable | None  # client: wire answer -> contract answer
    declares_error: bool  # the IDL declares BenchError (the generated code raises ttypes.BenchError)


def _float32(what: str) -> Callable:
    return lambda value: mapping.float32(value, what)


def _arguments(op: Operation) -> Callable | None:
    checks = [(_float32(f"{op.name} {p.name}") if p.type == "float32" else None) for p in op.params]
    if not any(checks):
        return None
    if len(checks) == 1:
        check = checks[0]
        return lambda value: (check(value),)
    return lambda *args: tuple(value if c is None else c(value) for c, value in zip(checks, args, strict=True))


def _result(op: Operation) -> Callable | None:
    if op.returns == "float32":
        return _float32(f"{op.name} result")
    return _CLIENT_RESULT.get(op.returns)


def _mapping(op: Operation) -> Mapping:
    return Mapping(op, _arguments(op), _SERVER_ANSWER.get(op.returns), _result(op), op.raises == "BenchError")


MAPPINGS: tuple[Mapping, ...] = tuple(_mapping(op) for op in OPERATIONS if not op.is_stream)
