"""The battery's attacks against a real Python server process (rpcmatrix.battery)."""
import json
import os
import subprocess
import sys
import zlib

from helpers import start_server
from rpcmatrix.battery import gzip_bomb, table, wire
from rpcmatrix.battery.__main__ import _IDL, main


def test_every_family_of_the_battery_has_attacks_and_gzip_bombs_only_where_bodies_may_be_compressed():
    assert "gzip-bomb" in table.attacks_for("xmlrpc-gzip", "xmlrpc")
    assert "gzip-bomb" not in table.attacks_for("xmlrpc", "xmlrpc")
    for family in table.BY_FAMILY:
        assert all(a in table.ATTACKS for a in table.attacks_for(family, family))


def test_every_protocol_the_battery_takes_has_attacks_for_its_registered_family():
    from rpcmatrix.contract.catalog import load_protocol
    for protocol in table.PROTOCOLS:
        family = load_protocol(_IDL, protocol).family
        assert table.attacks_for(protocol, family), f"{protocol} ({family}) would be started and not attacked"


def test_the_gzip_bomb_inflates_to_256_mib_of_a_valid_call():
    body = gzip_bomb.bomb("jsonrpc")
    assert len(body) < 1024 * 1024
    inflated = zlib.decompressobj(31).decompress(body, 200)
    assert inflated.startswith(b'{"jsonrpc": "2.0", "method": "echoString"')


def test_judge_tells_refusals_from_answers():
    assert wire.judge(wire.Seen(b"HTTP/1.1 413 Too Large\r\n\r\n", "eof", 0.1)) == "refused"
    assert wire.judge(wire.Seen(b"HTTP/1.1 200 OK\r\n\r\n<methodResponse><fault>", "eof", 0.1)) == "refused"
    assert wire.judge(wire.Seen(b"HTTP/1.1 200 OK\r\n\r\n<methodResponse/>", "eof", 0.1)) == "answered"
    assert wire.judge(wire.Seen(b"", "eof", 0.1)) == "closed"
    assert wire.judge(wire.Seen(b"", "timeout", 3.0)) == "held"


def test_the_python_rawtcp_server_refuses_a_declared_4_gb_frame_and_serves_after(repository, tmp_path):
    server, port = start_server("rpcmatrix.rawtcp", "rawtcp", repository)
    try:
        out = tmp_path / "battery.jsonl"
        status = main(["attack", "--protocol", "rawtcp", "--host", "127.0.0.1", "--port", str(port),
                       "--pid", str(server.pid), "--server", "python", "--out", str(out),
                       "--attacks", "declared-4gb,random-bytes", "--idl", str(repository / "idl")])
        assert status == 0
        lines = [json.loads(x) for x in out.read_text().splitlines()]
        assert [x["attack"] for x in lines] == ["random-bytes", "declared-4gb"]
        for x in lines:
            assert x["outcome"] in ("refused", "closed") and x["served_after"] is True, x
            assert x["rss_before_kb"] > 0
    finally:
        server.terminate()
        server.wait(10)


def test_the_command_line_lists_the_attacks_of_a_protocol(repository):
    env = dict(os.environ)
    listed = subprocess.run([sys.executable, "-m", "rpcmatrix.battery", "attacks", "--protocol", "jsonrpc-gzip",
                             "--idl", str(repository / "idl")], capture_output=True, text=True, check=True, env=env)
    assert listed.stdout.split() == table.attacks_for("jsonrpc-gzip", "jsonrpc")


def test_an_empty_200_is_no_answer_and_a_chunked_answer_ends_at_its_last_chunk():
    assert wire.judge(wire.Seen(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", "answered", 0.1)) == "refused"
    assert wire._complete_http(bytearray(b"HTTP/1.1 500 X\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"))
