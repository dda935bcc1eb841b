"""Sessions on remote objects (CONTRACT.md#vectors, sessions; CONTRACT.md#objects): the three scripts the
`vectors` command runs and the `calculatorSession` workload's call, for every protocol with the capability
`remote-references`.

A client adapter of such a protocol has an attribute `calculators`: a CalculatorClient. The scripts and
the workload speak only to that interface, so a protocol adds no session logic of its own."""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rpcmatrix.contract.calculator import ReferenceCalculatorFactory, wrap_int64

INT64_MAX = 9223372036854775807


class Calculator(Protocol):
    def add(self, n: int) -> int: ...
    def clear(self) -> None: ...
    def total(self) -> int: ...
    def release(self) -> None: ...


class CalculatorClient(Protocol):
    def create(self) -> Calculator: ...

    def is_no_such_object(self, error: BaseException) -> bool:
        """True when `error` is the protocol's "no such object" error (CORBA OBJECT_NOT_EXIST, ...)."""
        ...


class ScriptFailed(Exception):
    """A session answer that differs from the script's."""


def calculators_of(client: object) -> CalculatorClient:
    if hasattr(client, "create") and hasattr(client, "is_no_such_object"):
        return client  # already a CalculatorClient (the in-process reference of `handler`)
    calculators = getattr(client, "calculators", None)
    if calculators is None:
        raise RuntimeError(f"{type(client).__name__} offers no remote calculators")
    return calculators


def _expect(step: str, expected: int, actual: object) -> None:
    if type(actual) is not int or actual != expected:
        raise ScriptFailed(f"{step}: expected {expected}, got {actual!r}")


def _session(calculators: CalculatorClient, ping: Callable[[], None]) -> None:
    c = calculators.create()
    _expect("add(5)", 5, c.add(5))
    _expect("add(-2)", 3, c.add(-2))
    _expect("total()", 3, c.total())
    c.clear()
    _expect("total() after clear()", 0, c.total())
    _expect(f"add({INT64_MAX})", INT64_MAX, c.add(INT64_MAX))
    c.release()


def _isolation(calculators: CalculatorClient, ping: Callable[[], None]) -> None:
    a = calculators.create()
    b = calculators.create()
    a.add(3)
    b.add(4)
    _expect("a.total()", 3, a.total())
    _expect("b.total()", 4, b.total())
    a.release()
    b.release()


def _released(calculators: CalculatorClient, ping: Callable[[], None]) -> None:
    c = calculators.create()
    c.release()
    try:
        answer = c.total()
    except Exception as error:
        if not calculators.is_no_such_object(error):
            raise ScriptFailed(f"total() on a released calculator: expected the protocol's \"no such "
                               f"object\" error, got {type(error).__name__}: {error}") from None
    else:
        raise ScriptFailed(f"total() on a released calculator answered {answer!r} instead of being refused")
    ping()  # the server must still answer


SCRIPTS: dict[str, Callable[[CalculatorClient, Callable[[], None]], None]] = {
    "session": _session, "isolation": _isolation, "released": _released}


def run_script(script: str, calculators: CalculatorClient, ping: Callable[[], None]) -> dict:
    """{"status": pass|fail|error, "reason"} of one session vector's script."""
    if script not in SCRIPTS:
        return {"status": "error", "reason": f"unknown session script {script!r}"}
    try:
        SCRIPTS[script](calculators, ping)
    except ScriptFailed as e:
        return {"status": "fail", "reason": str(e)}
    except Exception as e:
        return {"status": "error", "reason": f"{type(e).__name__}: {e}"}
    return {"status": "pass", "reason": ""}


def session_call(calculators: CalculatorClient) -> Callable[[int], int]:
    """One `calculatorSession` sample: create(), add(1) ... add(n), total(), release(); answers the total."""
    def session(n: int) -> int:
        c = calculators.create()
        for i in range(1, n + 1):
            c.add(i)
        total = c.total()
        c.release()
        return total
    return session


def expected_total(n: int) -> int:
    return wrap_int64(n * (n + 1) // 2)


def reference_calculators() -> CalculatorClient:
    return ReferenceCalculatorFactory()
