"""python -m rpcmatrix.thrift server|client --wire binary|compact [options]"""
import sys

from rpcmatrix.harness import client, server
from rpcmatrix.thrift import client as thrift_client
from rpcmatrix.thrift import server as thrift_server
from rpcmatrix.thrift.wire import PROTOCOL_NAMES, add_wire_flag, wire_in


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("server", "client"):
        print("usage: python -m rpcmatrix.thrift server|client --wire binary|compact [options]", file=sys.stderr)
        return 2
    if argv[0] == "server":
        return server.run(argv[1:], thrift_server.start, add_wire_flag)
    # The client's default protocol (for a vectors command that names none) follows --wire.
    protocol = PROTOCOL_NAMES.get(wire_in(argv[1:]), "thrift-binary")
    return client.run(argv[1:], thrift_client.connect, protocol, add_wire_flag)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
