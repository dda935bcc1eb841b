"""CORBA with omniORBpy: the mapping, and python client against python server for both ways of finding
the objects (IOR files, naming service), vectors and sessions included."""
import shutil

import pytest

from rpcmatrix.corba.mapping import from_wire, to_wire
from rpcmatrix.corba.naming import OMNINAMES
from rpcmatrix.corba.orb import iiop_port
from tests.helpers import assert_all_pass_or_lacked, run_client, start_server


def test_int8_travels_as_octet_bits():
    assert to_wire("int8")(-1) == 0xFF
    assert to_wire("int8")(-128) == 0x80
    assert from_wire("int8")(0xFF) == -1
    assert from_wire("int8")(127) == 127


def test_iiop_port_is_read_from_an_ior():
    # An omniORB IOR for 127.0.0.1:39553 (from omniNames' log), both byte orders handled by the reader.
    ior = ("IOR:010000002b00000049444c3a6f6d672e6f72672f436f734e616d696e672f4e616d696e67436f6e74657874457874"
           "3a312e30000001000000000000006c000000010102000a0000003132372e302e302e3100819a0b0000004e616d65536572"
           "76696365000300000000000000080000000100000000545441010000001c0000000100000001000100010000000100010509"
           "01010001000000090101000354544108000000628e036b01005290")
    assert iiop_port(ior) == 39553


def session(protocol: str, repository, tmp_path, commands: list[dict]) -> list[dict]:
    """The Python client's answers to `commands` against a Python server of `protocol` sharing the cell folder (its
    IORs), every answer ok and the server stopped cleanly."""
    cell = ["--cell", str(tmp_path)]
    server, port = start_server("rpcmatrix.corba", protocol, repository, extra=cell)
    try:
        answers = run_client("rpcmatrix.corba", protocol, repository, port, commands, extra=cell)
    finally:
        server.terminate()
        assert server.wait(10) == 0
    assert all(a["ok"] for a in answers), answers
    return answers


@pytest.mark.parametrize("protocol", ["corba-ior", "corba-naming"])
def test_python_client_against_python_server(idl, repository, tmp_path, protocol):
    if protocol == "corba-naming" and shutil.which(OMNINAMES) is None:
        pytest.skip("omniNames (Debian omniorb-nameserver) is not installed")
    answers = session(protocol, repository, tmp_path, [
        {"cmd": "connect"}, {"cmd": "vectors"},
        {"cmd": "prepare", "workload": "calculatorSession"},
        {"cmd": "warmup", "workload": "calculatorSession", "calls": 3},
        {"cmd": "quit"}])
    results = answers[1]["results"]
    assert_all_pass_or_lacked(idl, protocol, results)
    assert {r["id"] for r in results if r["id"].startswith("calculator_") and r["status"] == "pass"} == {
        "calculator_session", "calculator_isolation", "calculator_released"}


def test_the_command_loops_connection_outlives_a_load(repository, tmp_path):
    # The load command's clients share the process's one ORB with the command loop's: closing them left every later
    # call failing with ORBHasShutdown (runner/PROTOCOL.md#load).
    answers = session("corba-ior", repository, tmp_path, [
        {"cmd": "connect"},
        {"cmd": "load", "workload": "ping", "connections": 8, "in_flight": 8, "duration_ms": 200},
        {"cmd": "prepare", "workload": "ping"},
        {"cmd": "measure", "workload": "ping", "calls": 5},
        {"cmd": "quit"}])
    assert answers[1]["calls"] > 0 and answers[1]["errors"] == 0, answers[1]
    assert answers[3]["calls"] == 5
