"""Generates the protocol buffers and gRPC modules from idl/bench.proto into `_generated/` (gitignored).

Run by python/build.sh: `python -m rpcmatrix.grpc.codegen --idl idl`. It regenerates only when
bench.proto is newer than what is there. protoc is given the virtual include path
`rpcmatrix/grpc/_generated`, so the generated gRPC module imports its messages by their package path
(`from rpcmatrix.grpc._generated import bench_pb2`) instead of as a top-level module.
"""
from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

PACKAGE_DIR = Path(__file__).resolve().parent
GENERATED_DIR = PACKAGE_DIR / "_generated"
SOURCE_ROOT = PACKAGE_DIR.parent.parent  # the folder that holds the rpcmatrix package
VIRTUAL_DIR = "rpcmatrix/grpc/_generated"
OUTPUTS = ("bench_pb2.py", "bench_pb2_grpc.py", "__init__.py")


def is_current(proto: Path) -> bool:
    newest_input = proto.stat().st_mtime
    outputs = [GENERATED_DIR / name for name in OUTPUTS]
    return all(path.exists() and path.stat().st_mtime >= newest_input for path in outputs)


def generate(proto: Path) -> None:
    GENERATED_DIR.mkdir(exist_ok=True)
    well_known_types = resources.files("grpc_tools") / "_proto"
    status = protoc.main([
        "grpc_tools.protoc",
        f"-I{VIRTUAL_DIR}={proto.parent}",
        f"-I{well_known_types}",
        f"--python_out={SOURCE_ROOT}",
        f"--grpc_python_out={SOURCE_ROOT}",
        str(proto),
    ])
    if status != 0:
        raise SystemExit(f"protoc failed on {proto} (status {status})")
    (GENERATED_DIR / "__init__.py").write_text('"""Generated from idl/bench.proto at build time: do not edit."""\n')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idl", type=Path, required=True, help="the contract folder (idl/)")
    args = parser.parse_args(argv)
    proto = (args.idl / "bench.proto").resolve()
    if not is_current(proto):
        generate(proto)
        print(f"generated {GENERATED_DIR.relative_to(SOURCE_ROOT)} from {proto.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
