"""Generates the omniORBpy stubs and skeletons from idl/bench.idl into `_generated/` (gitignored).

Run by python/build.sh: `python -m rpcmatrix.corba.codegen --idl idl`; regenerates only when bench.idl is
newer. omniidl's `-Wbpackage` puts the IDL module `rpcmatrix` under `rpcmatrix.corba._generated`, so it
does not shadow this package; omniidl also writes `__init__.py` files for the parent packages, so it writes
into a scratch folder and only `_generated` is moved into place.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
GENERATED_DIR = PACKAGE_DIR / "_generated"
PACKAGE = "rpcmatrix.corba._generated"
MARK = GENERATED_DIR / ".generated"


def generate(idl: Path) -> None:
    omniidl = Path(sys.executable).parent / "omniidl"  # installed into the venv by the omniORB wheel
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([str(omniidl), "-bpython", f"-Wbpackage={PACKAGE}", "-C", scratch, str(idl)], check=True)
        shutil.rmtree(GENERATED_DIR, ignore_errors=True)
        shutil.move(str(Path(scratch, *PACKAGE.split("."))), GENERATED_DIR)
    MARK.touch()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idl", type=Path, required=True, help="the contract folder (idl/)")
    args = parser.parse_args(argv)
    idl = (args.idl / "bench.idl").resolve()
    if not (MARK.exists() and MARK.stat().st_mtime >= idl.stat().st_mtime):
        generate(idl)
        print(f"generated {GENERATED_DIR.name} from {idl.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
