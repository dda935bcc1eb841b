"""Hessian over HTTP POST at /hessian, on python-hessian's encoder and parser (Hessian 1.0 only: see
wire.py), with a keep-alive HTTP transport of this package on both sides."""
