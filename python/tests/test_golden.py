"""The generator and the reference behaviour against idl/golden.json: FNV-1a 64 of each answer (or generated
argument) in the rawtcp encoding, its length, and average's exact bits."""
import json
import struct

import pytest

from conftest import REPOSITORY
from rpcmatrix.contract.generator import fnv1a64
from rpcmatrix.contract.operations import BY_NAME
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.contract.values import decode, decode_args
from rpcmatrix.harness.calls import Driver
from rpcmatrix.rawtcp.codec import encoder

GOLDEN = json.loads((REPOSITORY / "idl" / "golden.json").read_text(encoding="utf-8"))


def encoded(type_name, value):
    out = bytearray()
    encoder(type_name)(out, value)
    return bytes(out)


@pytest.mark.parametrize("case", GOLDEN["answers"], ids=lambda c: f"{c['op']}{json.dumps(c['args'])[:40]}")
def test_reference_answers(case):
    operation = BY_NAME[case["op"]]
    answer = Driver(ReferenceBench()).once(operation, decode_args(operation, case["args"]))
    wire = encoded(case["type"], answer)
    assert (len(wire), f"{fnv1a64(wire):016x}") == (case["bytes"], case["fnv1a64"])
    if "value_bits" in case:
        assert struct.pack(">d", answer).hex() == case["value_bits"]


@pytest.mark.parametrize("case", GOLDEN["generated"], ids=lambda c: json.dumps(c["form"])[:50])
def test_generated_arguments(case):
    wire = encoded(case["type"], decode(case["type"], case["form"]))
    assert (len(wire), f"{fnv1a64(wire):016x}") == (case["bytes"], case["fnv1a64"])
