"""The contract's operations (idl/contract.json) as a Python table, so servers need no files at run time.

`tests/test_operations.py` checks this table against idl/contract.json, the source of truth.
Types are the contract's type names: "int64", "string[]", "Item[]", "stream float64[]", "void".
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rpcmatrix.contract.model import Book, Item, Record


@dataclass(frozen=True)
class Param:
    name: str
    type: str


@dataclass(frozen=True)
class Operation:
    id: int
    name: str
    method: str
    params: tuple[Param, ...]
    returns: str
    raises: str | None = None
    needs: tuple[str, ...] = ()  # capabilities of idl/protocols.json the operation needs

    @property
    def is_stream(self) -> bool:
        return self.returns.startswith("stream ")


def snake_case(name: str) -> str:
    """A contract name in Python style: "echoInt32" -> "echo_int32", "listPrice" -> "list_price"."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _op(id_: int, name: str, params: str, returns: str, raises: str | None = None,
        needs: tuple[str, ...] = ()) -> Operation:
    parsed = tuple(Param(*p.split(":")) for p in params.split()) if params else ()
    return Operation(id_, name, snake_case(name), parsed, returns, raises, needs)


OPERATIONS: tuple[Operation, ...] = (
    _op(0, "ping", "", "void"),
    _op(1, "echoBool", "value:bool", "bool"),
    _op(2, "echoInt8", "value:int8", "int8"),
    _op(3, "echoInt16", "value:int16", "int16"),
    _op(4, "echoInt32", "value:int32", "int32"),
    _op(5, "echoInt64", "value:int64", "int64"),
    _op(6, "echoFloat32", "value:float32", "float32"),
    _op(7, "echoFloat64", "value:float64", "float64"),
    _op(8, "echoString", "value:string", "string"),
    _op(9, "echoBytes", "value:bytes", "bytes"),
    _op(10, "isPrime", "n:int32", "bool"),
    _op(11, "average", "values:float64[]", "float64"),
    _op(12, "randomDoubles", "count:int32 seed:int64", "float64[]", raises="BenchError"),
    _op(13, "logTransform", "values:float64[]", "float64[]"),
    _op(14, "getRecord", "key:string", "Record"),
    _op(15, "searchBooks", "query:string count:int32", "Book[]", raises="BenchError"),
    _op(16, "getItems", "count:int32", "Item[]", raises="BenchError"),
    _op(17, "fail", "code:int32 message:string", "void", raises="BenchError"),
    _op(18, "randomDoublesStream", "count:int32 seed:int64 chunk:int32", "stream float64[]",
        raises="BenchError", needs=("server-streaming",)),
)

BY_NAME: dict[str, Operation] = {op.name: op for op in OPERATIONS}
BY_ID: dict[int, Operation] = {op.id: op for op in OPERATIONS}

# Contract operation name -> Python method name ("echoInt32" -> "echo_int32").
METHODS: dict[str, str] = {op.name: op.method for op in OPERATIONS}


def method_name(operation: str) -> str:
    return METHODS[operation]


# The structs' fields in contract order, with contract names and types. A field's Python attribute is
# snake_case(name); the dataclasses in model.py declare the fields in the same order.
STRUCTS: dict[str, tuple[Param, ...]] = {
    "Record": (Param("id", "int64"), Param("tags", "string[]"), Param("values", "float64[]")),
    "Book": (
        Param("title", "string"), Param("authors", "string[]"), Param("price", "float64"),
        Param("listPrice", "float64"), Param("publisher", "string"), Param("year", "int32"),
        Param("month", "int32"), Param("keywords", "string[]"), Param("isbn", "string"),
        Param("starRating", "int32"), Param("url", "string"),
    ),
    "Item": (
        Param("id", "int64"), Param("title", "string"), Param("description", "string"),
        Param("category", "string"), Param("owner", "string"), Param("created", "timestamp"),
        Param("updated", "timestamp"), Param("quantity", "int32"), Param("price", "float64"),
        Param("weight", "float32"),
    ),
}

STRUCT_CLASSES: dict[str, type] = {"Record": Record, "Book": Book, "Item": Item}

ERROR_FIELDS: tuple[Param, ...] = (Param("code", "int32"), Param("message", "string"))
