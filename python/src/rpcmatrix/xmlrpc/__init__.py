"""XML-RPC over HTTP/1.1 with the standard library's xmlrpc.server and xmlrpc.client, at path /RPC2."""
