"""Every Python server listens with a backlog a burst of connections fits in: socketserver's default of 5 made 64
connections opened at once (the load command's, runner/PROTOCOL.md#load) take 9.2 s, their SYNs dropped and sent
again."""
import subprocess

import pytest

from helpers import options
from rpcmatrix.hessian import server as hessian
from rpcmatrix.jsonrpc import server as jsonrpc
from rpcmatrix.rawtcp import server as rawtcp
from rpcmatrix.soap import server as soap
from rpcmatrix.thrift import server as thrift
from rpcmatrix.xmlrpc import server as xmlrpc


def backlog(port: int) -> int:
    """The listening socket's backlog: ss's Send-Q for a socket in LISTEN."""
    line = subprocess.run(["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True, check=True).stdout
    return int(line.split()[2])


@pytest.mark.parametrize("module, protocol", [(rawtcp, "rawtcp"), (xmlrpc, "xmlrpc"), (jsonrpc, "jsonrpc"),
                                              (hessian, "hessian1"), (soap, "soap11"), (thrift, "thrift-binary")])
def test_the_listen_backlog_takes_a_burst_of_connections(idl, module, protocol):
    running = module.start(options(idl, protocol))
    try:
        assert backlog(running.port) >= 128
    finally:
        running.stop()
