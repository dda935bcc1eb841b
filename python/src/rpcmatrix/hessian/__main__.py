"""python -m rpcmatrix.hessian server|client [options]"""
import sys

from rpcmatrix.harness.main import main_for_protocol
from rpcmatrix.hessian import client, server

if __name__ == "__main__":
    sys.exit(main_for_protocol("hessian", sys.argv[1:], start=server.start, connect=client.connect))
