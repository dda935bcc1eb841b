"""python -m rpcmatrix.grpc server|client [options] [--tls --secrets DIR]"""
import sys

from rpcmatrix.grpc import client, server
from rpcmatrix.harness.main import main_for_protocol

if __name__ == "__main__":
    protocol = "grpc-tls" if "--tls" in sys.argv[2:] else "grpc"
    sys.exit(main_for_protocol(protocol, sys.argv[1:], start=server.start, connect=client.connect))
