"""The raw TCP baseline of idl/rawtcp.md: length-prefixed frames encoded by hand with `struct`."""
