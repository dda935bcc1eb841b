"""Generated encoders and decoders for the contract's structs and lists of structs in the rawtcp format.

A struct is encoded by one function written for it (once, at import) rather than a call per field:
consecutive fixed-size fields are packed by one precompiled struct.Struct, strings and string lists are
inlined, and a list of structs is one loop in that function. This keeps the Python baseline the floor
among Python stacks, next to codecs written in C (Thrift's fastbinary, protobuf's upb).
"""
from __future__ import annotations

import struct
from collections.abc import Callable

from rpcmatrix.contract.operations import STRUCT_CLASSES, STRUCTS, snake_case

FIXED = {"int8": "b", "int16": "h", "int32": "i", "int64": "q", "timestamp": "q", "float32": "f", "float64": "d"}
U32 = struct.Struct(">I")


class Truncated(ValueError):
    def __init__(self):
        super().__init__("the frame ends inside a value")


def _runs(type_name: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The struct's fields as runs: ("fixed", fields) for consecutive fixed-size fields, else (type, [field])."""
    runs: list[tuple[str, list[tuple[str, str]]]] = []
    for field in STRUCTS[type_name]:
        attribute = snake_case(field.name)
        if field.type in FIXED and runs and runs[-1][0] == "fixed":
            runs[-1][1].append((attribute, field.type))
        elif field.type in FIXED:
            runs.append(("fixed", [(attribute, field.type)]))
        else:
            runs.append((field.type, [(attribute, field.type)]))
    return runs


def _encode_lines(type_name: str, value: str, names: dict, fallback: Callable) -> list[str]:
    lines = []
    for index, (kind, fields) in enumerate(_runs(type_name)):
        if kind == "fixed":
            layout = f"S{index}"
            names[layout] = struct.Struct(">" + "".join(FIXED[t] for _, t in fields)).pack
            lines.append(f"out += {layout}({', '.join(f'{value}.{a}' for a, _ in fields)})")
            continue
        attribute = fields[0][0]
        if kind == "string":
            lines += [f"s = {value}.{attribute}.encode()", "out += U32_pack(len(s))", "out += s"]
        elif kind == "string[]":
            lines += [f"x = {value}.{attribute}", "out += U32_pack(len(x))", "for s in x:",
                      "    s = s.encode()", "    out += U32_pack(len(s))", "    out += s"]
        else:
            names[f"E{index}"] = fallback(kind)
            lines.append(f"E{index}(out, {value}.{attribute})")
    return lines


def _decode_lines(type_name: str, target: str, names: dict, fallback: Callable) -> list[str]:
    lines, arguments = [], []
    for index, (kind, fields) in enumerate(_runs(type_name)):
        if kind == "fixed":
            layout = struct.Struct(">" + "".join(FIXED[t] for _, t in fields))
            names[f"S{index}"] = layout.unpack_from
            locals_ = [f"a{index}_{n}" for n in range(len(fields))]
            lines += [f"{', '.join(locals_)}, = S{index}(data, p)", f"p += {layout.size}"]
            arguments += locals_
            continue
        local = f"a{index}"
        arguments.append(local)
        if kind in ("string", "bytes"):
            convert = ".decode()" if kind == "string" else ""
            lines += ["k, = U32_unpack(data, p)", "p += 4", f"{local} = data[p:p + k]{convert}", "p += k",
                      "if p > end: raise Truncated()"]
        elif kind == "string[]":
            lines += ["n, = U32_unpack(data, p)", "p += 4", "if 4 * n > end - p: raise Truncated()",
                      f"{local} = []", "for _ in range(n):", "    k, = U32_unpack(data, p)", "    p += 4",
                      f"    {local}.append(data[p:p + k].decode())", "    p += k", "if p > end: raise Truncated()"]
        else:
            names[f"D{index}"] = fallback(kind)
            # A struct's float64[] is a list, as in the model (a bare float64[] answer is a numpy array).
            convert = ".tolist()" if kind == "float64[]" else ""
            lines += ["reader.position = p", f"{local} = D{index}(reader){convert}", "p = reader.position"]
    lines.append(f"{target}(Make({', '.join(arguments)}))")
    return lines


def _compile(source: str, names: dict, function: str) -> Callable:
    scope = {"U32_pack": U32.pack, "U32_unpack": U32.unpack_from, "Truncated": Truncated, **names}
    exec(compile(source, f"<rawtcp {function}>", "exec"), scope)
    return scope[function]


def _indent(lines: list[str], depth: int) -> str:
    return "".join("    " * depth + line + "\n" for line in lines)


def struct_encoder(type_name: str, as_list: bool, fallback: Callable) -> Callable:
    """encode(out: bytearray, value) for a struct, or for a list of them when `as_list`."""
    names: dict = {}
    body = _encode_lines(type_name, "v", names, fallback)
    if as_list:
        source = ("def encode(out, values):\n    out += U32_pack(len(values))\n    for v in values:\n"
                  + _indent(body, 2))
    else:
        source = "def encode(out, v):\n" + _indent(body, 1)
    return _compile(source, names, "encode")


def struct_decoder(type_name: str, as_list: bool, fallback: Callable) -> Callable:
    """decode(reader) for a struct, or for a list of them when `as_list`; reader is codec.Reader."""
    names: dict = {"Make": STRUCT_CLASSES[type_name]}
    prologue = ["data = reader.data", "p = reader.position", "end = len(data)"]
    if as_list:
        body = _decode_lines(type_name, "append", names, fallback)
        source = ("def decode(reader):\n" + _indent(prologue, 1)
                  + "    n, = U32_unpack(data, p)\n    p += 4\n    if n > end - p: raise Truncated()\n"
                  + "    result = []\n    append = result.append\n    for _ in range(n):\n" + _indent(body, 2)
                  + "    reader.position = p\n    return result\n")
    else:
        body = _decode_lines(type_name, "result = ", names, fallback)
        source = ("def decode(reader):\n" + _indent(prologue, 1) + _indent(body, 1)
                  + "    reader.position = p\n    return result\n")
    return _compile(source, names, "decode")
