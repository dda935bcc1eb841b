"""rpcmatrix's modules import one another without cycles, counting the imports inside functions too: a cycle
works only as long as one side imports late, and breaks on the first refactoring that moves the import."""
import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    modules = {}
    for path in SOURCE.rglob("*.py"):
        if "_generated" in path.parts:  # generated at build time; imports only itself and its libraries
            continue
        parts = path.relative_to(SOURCE).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:  # `from package import module` imports the module
                name = f"{node.module}.{alias.name}"
                found.add(name if name in known else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _cycle_from(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    """A path of imports from start back to itself, or None."""
    stack, seen = [(start, [start])], set()
    while stack:
        module, path = stack.pop()
        for imported in sorted(graph[module]):
            if imported == start:
                return [*path, start]
            if imported not in seen:
                seen.add(imported)
                stack.append((imported, [*path, imported]))
    return None


def test_no_import_cycles():
    modules = _modules()
    assert "rpcmatrix.soap.client" in modules
    graph = {name: {m for m in _imports(path, modules) if m in modules and m != name} for name, path in modules.items()}
    cycles = [" -> ".join(cycle) for name in sorted(graph) if (cycle := _cycle_from(name, graph)) is not None]
    assert cycles == []


def test_a_cycle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle_from("a", graph) == ["a", "b", "c", "a"]
    assert _cycle_from("d", graph) is None
