"""The grpc.aio server and client: a round trip in process, and as the runner starts them."""
import signal

import pytest

from conftest import REPOSITORY
from helpers import assert_all_pass_or_lacked, options, run_client, start_server
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import BY_NAME
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.grpc.aio import client as aio_client
from rpcmatrix.grpc.aio import server as aio_server
from rpcmatrix.harness.calls import driver_for

IDL = REPOSITORY / "idl"


def test_round_trip_on_the_clients_own_loop():
    running = aio_server.start(options(IDL, "grpc"))
    client = aio_client.connect(options(IDL, "grpc", running.port))
    try:
        driver = driver_for(client)
        assert driver.once(BY_NAME["echoString"], ["über"]) == "über"
        assert driver.once(BY_NAME["randomDoublesStream"], [10, 3, 4]) == \
            ReferenceBench().random_doubles(10, 3).tolist()
        assert len(driver.once(BY_NAME["randomDoubles"], [5, 7])) == 5
        with pytest.raises(BenchError) as raised:
            driver.once(BY_NAME["fail"], [7, "seven"])
        assert (raised.value.code, raised.value.message) == (7, "seven")
        with pytest.raises(BenchError):
            driver.once(BY_NAME["randomDoublesStream"], [10, 3, 0])
        assert len(driver.timed(BY_NAME["ping"], [], 3, 0, 3)) == 3
    finally:
        client.close()
        running.stop()


@pytest.mark.parametrize("protocol", ["grpc", "grpc-tls"])
def test_server_and_client_processes(protocol, repository, idl):
    extra = ["--secrets", str(repository / "secrets")] if protocol == "grpc-tls" else []
    if protocol == "grpc-tls" and not (repository / "secrets" / "ca.crt").exists():
        pytest.skip("no secrets/: runner/setup.sh makes them")
    server, port = start_server("rpcmatrix.grpc.aio", protocol, repository, extra=extra)
    try:
        for module in ("rpcmatrix.grpc", "rpcmatrix.grpc.aio"):  # the sync client against the aio server too
            answers = run_client(module, protocol, repository, port, [
                {"cmd": "connect"}, {"cmd": "vectors"},
                {"cmd": "warmup", "workload": "randomDoublesStream50k", "calls": 1},
                {"cmd": "prepare", "workload": "getItems10"},
                {"cmd": "measure", "workload": "getItems10", "calls": 3},
                {"cmd": "samples", "workload": "getItems10"},
                {"cmd": "quit"}], extra=extra)
            assert [a["ok"] for a in answers] == [True] * 7, answers
            assert_all_pass_or_lacked(idl, protocol, answers[1]["results"])
            assert [len(r) for r in answers[5]["samples_ns"]] == [3]
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=5) == 0
