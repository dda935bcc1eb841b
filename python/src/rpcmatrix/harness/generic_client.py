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


# Operations marked `only` (gRPC's stream) exist only in their protocols' own clients.
for _operation in OPERATIONS:
    if _operation.only is None:
        setattr(GenericClient, _operation.method, _method(_operation))
