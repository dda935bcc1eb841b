"""gRPC with grpcio's asyncio API (grpc.aio), as grpc_bench's Python entry runs it: one event loop per
process, handlers are coroutines on it. Same type mapping (rpcmatrix.grpc.table) as the sync API."""
