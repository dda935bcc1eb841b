"""The calculator sessions in the harness (CONTRACT.md#objects), with fake CalculatorClients: the three
scripts, the calculatorSession workload's timed loop and its handler."""

from rpcmatrix.contract.calculator import NoSuchObject, ReferenceCalculatorFactory, wrap_int64
from rpcmatrix.contract.catalog import load_protocol, load_vectors, load_workloads
from rpcmatrix.harness import workloads
from rpcmatrix.harness.calls import Driver
from rpcmatrix.harness.conformance import run_vectors
from rpcmatrix.harness.sessions import run_script, session_call

INT64_MAX = (1 << 63) - 1


class FakeClient:
    """A protocol adapter whose calculators are the in-process reference, counting round trips."""

    def __init__(self, calculators):
        self.calculators = calculators
        self.pings = 0

    def ping(self):
        self.pings += 1


class SharedTotal(ReferenceCalculatorFactory):
    """A broken server: every create() answers the same calculator."""

    def __init__(self):
        self.shared = super().create()

    def create(self):
        return self.shared


class Wrapped:
    """A calculator whose methods a test may replace (the reference's use __slots__)."""

    def __init__(self, calculator):
        self.add, self.clear, self.total, self.release = (
            calculator.add, calculator.clear, calculator.total, calculator.release)


class NeverReleased(ReferenceCalculatorFactory):
    """A broken server: release() does nothing."""

    def create(self):
        calculator = Wrapped(super().create())
        calculator.release = lambda: None
        return calculator


def test_int64_total_wraps():
    assert wrap_int64(INT64_MAX + 1) == -(1 << 63)
    calculator = ReferenceCalculatorFactory().create()
    calculator.add(INT64_MAX)
    assert calculator.add(1) == -(1 << 63)


def test_scripts_pass_on_a_correct_calculator():
    client = FakeClient(ReferenceCalculatorFactory())
    for script in ("session", "isolation", "released"):
        assert run_script(script, client.calculators, client.ping) == {"status": "pass", "reason": ""}
    assert client.pings == 1  # released: the server must still answer afterwards


def test_isolation_fails_when_calculators_share_state():
    result = run_script("isolation", SharedTotal(), lambda: None)
    assert result["status"] == "fail" and "a.total()" in result["reason"]


def test_released_fails_when_a_released_calculator_still_answers():
    result = run_script("released", NeverReleased(), lambda: None)
    assert result["status"] == "fail" and "instead of being refused" in result["reason"]


def test_released_fails_on_an_error_other_than_no_such_object():
    factory = ReferenceCalculatorFactory()
    factory.is_no_such_object = lambda error: False
    result = run_script("released", factory, lambda: None)
    assert result["status"] == "fail" and NoSuchObject.__name__ in result["reason"]


def test_session_vectors_run_where_remote_references_are_had(idl):
    session_vectors = [v for v in load_vectors(idl) if v.session is not None]
    assert {v.script for v in session_vectors} == {"session", "isolation", "released"}
    client = FakeClient(ReferenceCalculatorFactory())
    results = run_vectors(Driver(client), session_vectors, load_protocol(idl, "corba-ior"))
    assert [r["status"] for r in results] == ["pass"] * 3
    lacking = run_vectors(Driver(client), session_vectors, load_protocol(idl, "xmlrpc"))
    assert {r["status"] for r in lacking} == {"unsupported"}


def test_one_sample_is_one_whole_session():
    creates = []

    class Counting(ReferenceCalculatorFactory):
        def create(self):
            creates.append(1)
            return super().create()

    assert session_call(Counting())(10) == 55
    assert creates == [1]


def test_workload_warmup_checks_the_total_and_measure_times_sessions(idl):
    workload = load_workloads(idl)["calculatorSession"]
    driver = Driver(FakeClient(ReferenceCalculatorFactory()))
    assert workloads.warmup(driver, workload, [10], 3) == {"checked": 3}
    assert len(workloads.measure(driver, workload, [10], 4, 0, 4)) == 4
    assert len(workloads.handler(workload, [10], 2, 0, 2, 3)) == 3

    class WrongSum(ReferenceCalculatorFactory):
        def create(self):
            calculator = Wrapped(super().create())
            calculator.total = lambda: 54
            return calculator

    try:
        workloads.warmup(Driver(FakeClient(WrongSum())), workload, [10], 1)
    except workloads.WrongAnswer as e:
        assert "55" in str(e)
    else:
        raise AssertionError("a wrong total passed the warm-up")
