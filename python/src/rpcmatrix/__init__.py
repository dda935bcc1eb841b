"""rpcmatrix: one RPC contract (idl/) served and called over many protocols.

`rpcmatrix.contract` holds the contract's behaviour and rules, `rpcmatrix.harness` the server and client
command loops the runner talks to, and each protocol is a subpackage with its server and client adapters.
"""
