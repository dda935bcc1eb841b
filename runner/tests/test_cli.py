"""The analysis command line (python -m analysis): the commands the runner calls per cell stay cheap."""
import ast
import subprocess
import sys
from pathlib import Path

RUNNER = Path(__file__).resolve().parents[1]
MAIN = RUNNER / "analysis" / "__main__.py"


def _modules_after(*argv: str, stdin: str = "") -> set[str]:
    """The analysis modules a fresh interpreter has loaded after running one command."""
    code = ("import sys\nfrom analysis.__main__ import main\nmain(sys.argv[1:])\n"
            "print(' '.join(m for m in sys.modules if m.startswith('analysis.')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], cwd=RUNNER, input=stdin, capture_output=True,
                          text=True, check=True)
    return set(done.stderr.split())


def test_the_commands_called_per_cell_leave_the_report_and_the_environment_unloaded(tmp_path):
    # a cell that was unsupported: its one fact is enough for cell-end to fold and answer
    (tmp_path / "plan").mkdir()
    (tmp_path / "plan" / "profile.json").write_text('{"steady": {"max_ms": 0}}')
    (tmp_path / "plan" / "echo.tsv").write_text("ping small 1 2 2 0 2\n")
    cell_dir = tmp_path / "cells" / "echo__alpha-to-beta" / "pass1"
    cell_dir.mkdir(parents=True)
    (cell_dir.parent / "cell.json").write_text(
        '{"name": "echo/alpha→beta", "protocol": "echo", "server": "beta", "client": "alpha", "unsupported": "no"}')
    (cell_dir / "facts.jsonl").write_text(
        '{"kind": "status", "pass": 1, "status": "unsupported", "reason": "no", "from": "vectors"}\n')
    heavy = {"analysis.report", "analysis.environment", "analysis.agreement", "analysis.exports"}
    loaded = _modules_after("cell-end", "--run", str(tmp_path), "--dir", str(cell_dir))
    assert "analysis.fold" in loaded and not loaded & heavy
    cell = '{"protocol": "echo", "server": "beta", "client": "alpha"}\n'
    loaded = _modules_after("shuffle", "--seed", "1", "--pass", "1", stdin=cell)
    assert "analysis.plan" in loaded and not loaded & heavy


def test_every_command_imports_the_modules_it_uses_and_they_exist():
    # the imports sit inside the commands, so a missing or wrong one would only fail when that command runs
    # a module is a file or a package (the report)
    modules = {p.stem for p in (RUNNER / "analysis").glob("*.py")} | \
        {p.parent.name for p in (RUNNER / "analysis").glob("*/__init__.py")}
    for function in ast.parse(MAIN.read_text()).body:
        if not isinstance(function, ast.FunctionDef):
            continue
        imported = {alias.name for node in ast.walk(function)
                    if isinstance(node, ast.ImportFrom) and node.level == 1 for alias in node.names}
        used = {node.value.id for node in ast.walk(function)
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules}
        assert imported <= modules, function.name
        assert used <= imported, function.name
