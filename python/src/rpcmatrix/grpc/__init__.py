"""gRPC (grpcio) server and client of the rpcmatrix contract.

The protocol buffers code is generated from idl/bench.proto at build time (`python -m rpcmatrix.grpc.codegen`,
run by python/build.sh) into the gitignored `_generated` folder beside this file.
"""
