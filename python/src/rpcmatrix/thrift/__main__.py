"""python -m rpcmatrix.thrift server|client --protocol thrift-binary|thrift-compact [options]"""
import sys

from rpcmatrix.harness.main import main_for_protocol
from rpcmatrix.thrift import client, server

if __name__ == "__main__":
    sys.exit(main_for_protocol("thrift", sys.argv[1:], start=server.start, connect=client.connect))
