"""python -m rpcmatrix.corba server|client [options]"""
import sys

from rpcmatrix.corba import client, server
from rpcmatrix.harness.main import main_for_protocol

if __name__ == "__main__":
    sys.exit(main_for_protocol("corba", sys.argv[1:], start=server.start, connect=client.connect))
