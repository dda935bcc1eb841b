"""python -m rpcmatrix.grpc server|client --protocol grpc|grpc-tls [options]: the sync API."""
import sys

from rpcmatrix.grpc import client, server
from rpcmatrix.harness.main import main_for_protocol

if __name__ == "__main__":
    sys.exit(main_for_protocol("grpc", sys.argv[1:], start=server.start, connect=client.connect))
