"""python -m rpcmatrix.jsonrpc server|client [options]"""
import sys

from rpcmatrix.harness.main import main_for_protocol
from rpcmatrix.jsonrpc import client, server

if __name__ == "__main__":
    sys.exit(main_for_protocol("jsonrpc", sys.argv[1:], start=server.start, connect=client.connect))
