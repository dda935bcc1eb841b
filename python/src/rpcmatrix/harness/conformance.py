"""The `vectors` command: every conformance vector of a protocol, in file order, checked by the contract's
rules (CONTRACT.md#vectors)."""
from __future__ import annotations

from rpcmatrix.contract.catalog import Protocol, Vector
from rpcmatrix.contract.compare import difference, result_difference
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import BY_NAME
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.contract.values import decode_args
from rpcmatrix.harness.attacks import attack_outcome
from rpcmatrix.harness.calls import Driver, bind
from rpcmatrix.harness.sessions import calculators_of, run_script


def run_vectors(driver: Driver, vectors: list[Vector], protocol: Protocol) -> list[dict]:
    """One result per vector, in file order: {"id", "status": pass|fail|unsupported|error, "reason"}.
    A vector needing a capability the protocol lacks is not sent: it is unsupported, with the reason."""
    reference = ReferenceBench()
    return [{"id": vector.id, **_outcome(driver, reference, vector, protocol)} for vector in vectors]


def _outcome(driver: Driver, reference: ReferenceBench, vector: Vector, protocol: Protocol) -> dict:
    reason = protocol.unsupported_reason(vector.needs)
    if reason is not None:
        return _status("unsupported", reason)
    if vector.attack is not None:  # a defective call the server must refuse (harness/attacks.py)
        return attack_outcome(driver.target, vector)
    if vector.session is not None:  # a script on remote objects (harness/sessions.py)
        return _session_outcome(driver, vector)
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


def _session_outcome(driver: Driver, vector: Vector) -> dict:
    if vector.session != "calculator":
        return _status("error", f"unknown session {vector.session!r}")
    try:
        calculators = calculators_of(driver.target)
    except RuntimeError as e:
        return _status("error", str(e))
    return run_script(vector.script or "", calculators, lambda: driver.once(BY_NAME["ping"], []))


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
