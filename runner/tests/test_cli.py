"""The command lines of the conductor (python -m conductor: the run-time steps the shell asks for) and of the
analysis (python -m analysis: finished runs): the steps called per cell stay cheap, and every command imports the
modules it uses."""
import ast
import subprocess
import sys
from pathlib import Path

from conductor import facts, plan

RUNNER = Path(__file__).resolve().parents[1]


def _modules_after(package: str, *argv: str) -> set[str]:
    """The runner's modules a fresh interpreter has loaded after running one command of PACKAGE."""
    code = (f"import sys\nfrom {package}.__main__ import main\nmain(sys.argv[1:])\n"
            "print(' '.join(m for m in sys.modules if m.split('.')[0] in ('analysis', 'conductor')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], cwd=RUNNER, capture_output=True, text=True, check=True)
    return set(done.stderr.split())


def test_the_steps_called_per_cell_leave_the_report_and_the_environment_unloaded(tmp_path):
    # a cell that cannot run: its one fact is enough for cell-end to fold it and journal it
    (tmp_path / "plan").mkdir()
    (tmp_path / "plan" / "profile.json").write_text('{"steady": {"max_ms": 0}, "implementation_warmup": true}')
    (tmp_path / "plan" / "run.json").write_text("{}")
    (tmp_path / "plan" / "echo.tsv").write_text("ping small 1 2 2 0 2\n")
    cell_dir = tmp_path / "cells" / "echo__alpha-to-beta" / "pass1"
    cell_dir.mkdir(parents=True)
    (cell_dir.parent / "cell.json").write_text(
        '{"name": "echo/alpha→beta", "protocol": "echo", "server": "beta", "client": "alpha", "unsupported": "no"}')
    facts.write(cell_dir, "status", **{"pass": 1, "status": "unsupported", "reason": "no", "from": "vectors"})
    heavy = {"analysis.report", "conductor.environment", "analysis.agreement", "analysis.exports"}
    loaded = _modules_after("conductor", "cell-end", "--run", str(tmp_path), "--pass", "1", "--slug",
                            "echo__alpha-to-beta", "--index", "1", "--total", "1", "--since", "0")
    assert "conductor.fold" in loaded and not loaded & heavy
    assert '"cell": "echo/alpha→beta"' in (tmp_path / "progress.jsonl").read_text()
    assert plan.read_plan(tmp_path, "echo")[0]["name"] == "ping"


def test_every_command_imports_the_modules_it_uses_and_they_exist():
    # the imports sit inside the commands, so a missing or wrong one would only fail when that command runs
    for package in ("analysis", "conductor"):
        # a module is a file or a package (the report)
        modules = {p.stem for p in (RUNNER / package).glob("*.py")} | \
            {p.parent.name for p in (RUNNER / package).glob("*/__init__.py")}
        for function in ast.parse((RUNNER / package / "__main__.py").read_text()).body:
            if not isinstance(function, ast.FunctionDef):
                continue
            relative = [node for node in ast.walk(function) if isinstance(node, ast.ImportFrom) and node.level == 1]
            # `from . import module` names modules; `from .module import name` names a module too
            imported = {alias.name for node in relative if node.module is None for alias in node.names}
            imported |= {node.module.split(".")[0] for node in relative if node.module}
            used = {node.value.id for node in ast.walk(function) if isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name) and node.value.id in modules}
            assert imported <= modules, (package, function.name)
            assert used <= imported, (package, function.name)
