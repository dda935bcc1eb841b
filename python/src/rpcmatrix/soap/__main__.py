"""python -m rpcmatrix.soap server|client [options], or client --check-wsdl URL (prints {ok, reason})."""
import sys

from rpcmatrix.harness.main import main_for_protocol


def main(argv: list[str]) -> int:
    if argv[:2] == ["client", "--check-wsdl"] and len(argv) == 3:
        from rpcmatrix.soap.wsdl_check import print_check
        return print_check(argv[2])
    # Imported here so that --check-wsdl needs neither spyne nor xmlsec.
    from rpcmatrix.soap import client, server
    return main_for_protocol("soap", argv, start=server.start, connect=client.connect)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
