"""The shape of the code: import loops, the longest functions and the most complex (run: python bench/code_shape.py).

Cyclomatic complexity is counted as McCabe does (and radon): 1, plus one for each if, for,
while, except, assert, conditional expression, comprehension loop and condition, match case,
and each extra operand of and/or. A nested function is counted on its own, not in its parent.
Imports are followed wherever they are written, inside functions too, except under
``if TYPE_CHECKING:`` (never run).
"""
from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "webapp"
# (folder, most lines, highest complexity): the whole package, and the search package within it
LIMITS = (("webapp", 80, 25), ("webapp/search", 60, 15))
BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.IfExp, ast.ExceptHandler, ast.Assert, ast.match_case)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass(frozen=True)
class Function:
    path: Path
    name: str
    line: int
    lines: int
    complexity: int

    def __str__(self):
        return f"{self.path.relative_to(ROOT)}:{self.line} {self.name} ({self.lines} lines, complexity {self.complexity})"


def complexity(function) -> int:
    count, todo = 1, list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        if isinstance(node, SCOPES):
            continue  # counted on its own
        if isinstance(node, BRANCHES):
            count += 1
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        todo.extend(ast.iter_child_nodes(node))
    return count


def functions(folder=PACKAGE):
    """Every function and method under folder, nested ones included."""
    for path in sorted(Path(folder).rglob("*.py")):
        found = []

        def visit(node, prefix):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.append(Function(path, prefix + child.name, child.lineno,
                                          child.end_lineno - child.lineno + 1, complexity(child)))
                    visit(child, f"{prefix}{child.name}.")
                elif isinstance(child, ast.ClassDef):
                    visit(child, f"{prefix}{child.name}.")
                else:
                    visit(child, prefix)

        visit(ast.parse(path.read_text(encoding="utf-8")), "")
        yield from found


def module_name(path, root=ROOT):
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(folder=PACKAGE) -> dict:
    """{module: the project's modules it imports}, from every import statement it holds."""
    modules = {module_name(path): path for path in Path(folder).rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        never_run = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                     and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                     for statement in block.body for node in ast.walk(statement)}
        graph[name] = set()
        for node in ast.walk(tree):
            if id(node) in never_run:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                # "from . import views" imports the module views; "from .state import get_state" the module state
                targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module
                           for alias in node.names]
            else:
                continue
            graph[name].update(target for target in targets if target in modules and target != name)
    return graph


def import_loops(graph) -> list:
    """Every set of modules that import each other, round and round (strongly connected, more than one)."""
    index, low, stack, on_stack, loops = {}, {}, [], set(), []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            loop = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                loop.append(other)
                if other == module:
                    break
            if len(loop) > 1:
                loops.append(sorted(loop))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return loops


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=5, help="how many functions to list by length and by complexity")
    args = parser.parse_args(argv)
    loops = import_loops(imports())
    print(f"Import loops in webapp/: {len(loops)}")
    for loop in loops:
        print("  " + " <-> ".join(loop))
    for folder, most_lines, most_complex in LIMITS:
        found = list(functions(ROOT / folder))
        print(f"\n{folder}/: {len(found)} functions; limits {most_lines} lines, complexity {most_complex}")
        print("  longest:")
        for function in sorted(found, key=lambda f: -f.lines)[:args.top]:
            print(f"    {function}")
        print("  most complex:")
        for function in sorted(found, key=lambda f: -f.complexity)[:args.top]:
            print(f"    {function}")


if __name__ == "__main__":
    sys.exit(main())
