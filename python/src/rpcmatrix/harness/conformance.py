"""The `vectors` command: every conformance vector of a protocol, in file order, checked by the contract's
rules (CONTRACT.md#vectors)."""
from __future__ import annotations

from rpcmatrix.contract.catalog import Protocol, Vector
from rpcmatrix.contract.compare import difference, result_difference
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.contract.values import decode_args
from rpcmatrix.harness.calls import Driver, bind


def run_vectors(driver: Driver, vectors: list[Vector], protocol: Protocol) -> list[dict]:
    """One result per vector, in file order: {"id", "status": pass|fail|unsupported|error, "reason"}.
    A vector needing a capability the protocol lacks is not sent: it is unsupported, with the reason."""
    reference = ReferenceBench()
    return [{"id": vector.id, **_outcome(driver, reference, vector, protocol)} for vector in vectors]


def _outcome(driver: Driver, reference: ReferenceBench, vector: Vector, protocol: Protocol) -> dict:
    reason = protocol.unsupported_reason(vector.needs)
    if reason is not None:
        return _status("unsupported", reason)
    operation = vector.operation
    try:
        args = decode_args(operation, vector.args)
        expected = _expected(reference, vector, args)
    except Exception as e:  # a vector this client cannot even build is its own error, not the server's
        return _status("error", f"cannot build the vector: {type(e).__name__}: {e}")
    try:
        actual = driver.once(operation, args)
    except BenchError as error:
        if vector.expect_error is None:
            return _status("error", f"unexpected {error}")
        return _error_outcome(vector.expect_error, error)
    except Exception as e:
        return _status("error", f"{type(e).__name__}: {e}")
    if vector.expect_error is not None:
        return _status("fail", f"expected BenchError{{code: {vector.expect_error['code']}, message: "
                               f"{vector.expect_error['message']!r}}}, but the call returned")
    found = result_difference(operation, expected, actual)
    return _status("pass") if found is None else _status("fail", found)


def _expected(reference: ReferenceBench, vector: Vector, args: list) -> object:
    if vector.expect_error is not None:
        return None
    if vector.expect == "contract":
        return bind(reference, vector.operation)(*args)
    if vector.expect is not None:
        raise ValueError(f"unknown expect {vector.expect!r}")
    return args[0] if args else None  # an echo, or a void call with no arguments (ping)


def _error_outcome(expected: dict, error: BenchError) -> dict:
    found = (difference("int32", expected["code"], error.code, "error.code")
             or difference("string", expected["message"], error.message, "error.message"))
    return _status("pass") if found is None else _status("fail", found)


def _status(status: str, reason: str = "") -> dict:
    return {"status": status, "reason": reason}
