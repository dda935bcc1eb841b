"""What servers of several families share: the keep-alive HTTP server of Hessian and JSON-RPC."""
