import json
from dataclasses import fields

from rpcmatrix.contract.model import Book, Item, Record
from rpcmatrix.contract.operations import (
    ERROR_FIELDS,
    METHODS,
    OPERATIONS,
    STRUCT_CLASSES,
    STRUCTS,
    method_name,
    snake_case,
)


def test_operations_table_matches_contract_json(idl):
    contract = json.loads((idl / "contract.json").read_text(encoding="utf-8"))
    assert [
        (op.id, op.name, [(p.name, p.type) for p in op.params], op.returns, op.raises,
         list(op.needs))
        for op in OPERATIONS
    ] == [
        (op["id"], op["name"], [(p["name"], p["type"]) for p in op["params"]], op["returns"], op.get("raises"),
         op.get("needs", []))
        for op in contract["operations"]
    ]


def test_structs_match_contract_json(idl):
    contract = json.loads((idl / "contract.json").read_text(encoding="utf-8"))
    assert {name: [(f.name, f.type) for f in fs] for name, fs in STRUCTS.items()} == {
        name: [(f["name"], f["type"]) for f in fs] for name, fs in contract["structs"].items()
    }
    assert [(f.name, f.type) for f in ERROR_FIELDS] == [(f["name"], f["type"]) for f in contract["error"]["fields"]]


def test_dataclasses_declare_the_contract_fields_in_order():
    for name, cls in STRUCT_CLASSES.items():
        assert [f.name for f in fields(cls)] == [snake_case(f.name) for f in STRUCTS[name]]
    assert STRUCT_CLASSES == {"Record": Record, "Book": Book, "Item": Item}


def test_method_names():
    assert METHODS["echoInt32"] == "echo_int32"
    assert method_name("randomDoublesStream") == "random_doubles_stream"
    assert method_name("ping") == "ping"
    assert snake_case("listPrice") == "list_price"
    assert snake_case("starRating") == "star_rating"
