"""What the runner talks to (runner/PROTOCOL.md): the server start-up and the client command loop.
A protocol plugs in a `start(options)` for its server and a `connect(options)` for its client."""
