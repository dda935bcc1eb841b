"""JSON-RPC 2.0 over HTTP/1.1 POST at /jsonrpc: jsonrpcserver dispatches requests (batches and
notifications included), jsonrpcclient builds requests and reads responses; the HTTP server is the
keep-alive one of rpcmatrix.httphost.http_server, the client one persistent http.client connection."""
