"""python -m rpcmatrix.xmlrpc server|client [options]"""
import sys

from rpcmatrix.harness.main import main_for_protocol
from rpcmatrix.xmlrpc import client, server

if __name__ == "__main__":
    sys.exit(main_for_protocol("xmlrpc", sys.argv[1:], start=server.start, connect=client.connect))
