import time

import pytest

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench


def test_without_the_variable_the_reference_answers():
    assert type(injected_spin.served({})) is ReferenceBench
    assert type(injected_spin.served({injected_spin.VARIABLE: "0"})) is ReferenceBench


def test_each_call_spins_at_least_the_time_asked_and_answers_as_the_reference():
    spun = injected_spin.served({injected_spin.VARIABLE: "2000"})
    start = time.perf_counter_ns()
    for _ in range(5):
        spun.ping()
    assert time.perf_counter_ns() - start >= 5 * 2_000_000
    assert spun.echo_string("abc") == "abc"
    assert spun.get_items(10) == ReferenceBench().get_items(10)
    with pytest.raises(BenchError):
        spun.fail(7, "seven")


@pytest.mark.parametrize("value", ["fast", "-1", "1.5", "1000001"])
def test_a_value_that_is_not_whole_microseconds_is_refused(value):
    with pytest.raises(ValueError, match=injected_spin.VARIABLE):
        injected_spin.served({injected_spin.VARIABLE: value})
