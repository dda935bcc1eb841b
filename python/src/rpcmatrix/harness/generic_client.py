"""A base for client adapters that make every call through one `call(operation, args)`: it defines one
snake_case method per contract operation, so the command loop can call `client.echo_int32(7)`."""
from __future__ import annotations

from rpcmatrix.contract.operations import OPERATIONS, Operation


class GenericClient:
    def call(self, operation: Operation, args: tuple) -> object:
        raise NotImplementedError

    def close(self) -> None:
        pass


def _method(operation: Operation):
    def method(self, *args):
        return self.call(operation, args)

    method.__name__ = operation.method
    method.__doc__ = f"Calls {operation.name} on the server."
    return method


# The stream operation exists only in the clients of protocols with server streaming (gRPC's).
for _operation in OPERATIONS:
    if not _operation.is_stream:
        setattr(GenericClient, _operation.method, _method(_operation))
