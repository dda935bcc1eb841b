"""python -m rpcmatrix.grpc.aio server|client --protocol grpc|grpc-tls [options]"""
import sys

from rpcmatrix.grpc.aio import client, server
from rpcmatrix.harness.main import main_for_protocol

if __name__ == "__main__":
    sys.exit(main_for_protocol("grpc", sys.argv[1:], start=server.start, connect=client.connect))
