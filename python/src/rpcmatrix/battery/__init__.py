"""The battery (issue 23): hostile inputs against one running server, each bounded in count and time and
stopping by itself. One module per kind of attack; table.py maps each protocol family to the attacks that
apply; `python -m rpcmatrix.battery attack ...` runs them and appends one JSON line per attack.

Every attack goes to the address it is given (127.0.0.1 or the run's own namespaces) and sends canaries
only: no payload does anything but test how a parser or a connection handler copes."""
