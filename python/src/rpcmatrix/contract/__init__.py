"""The contract of idl/CONTRACT.md in Python: data model, generator, reference behaviour, value decoding
and comparison rules. Servers answer with `reference.ReferenceBench`; clients check answers with it."""
