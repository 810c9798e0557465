"""The code a newcomer reads: no import loops, one route table, one app state, short simple functions.

bench/code_shape.py prints the same figures in full.
"""
import ast

import pytest

from bench.code_shape import LIMITS, ROOT, functions, import_loops, imports


def test_no_module_of_webapp_imports_another_that_imports_it_back():
    graph = imports()
    assert {"webapp.content", "webapp.search", "webapp.calculators", "webapp.state"} <= graph.keys()
    assert import_loops(graph) == []


def test_the_loop_finder_finds_a_loop():
    assert import_loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_content_imports_neither_search_nor_calculators():
    graph = imports()
    content = {module for module in graph if module.startswith("webapp.content")}
    for module in content:
        assert not {m for m in graph[module] if not m.startswith(("webapp.content", "webapp.engines"))}, module


def attribute_uses(name):
    """(file, line) of every `<something>.<name>` in the project's Python files."""
    for folder in ("webapp", "tests", "bench", "deploy"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == name:
                    yield path.relative_to(ROOT).as_posix(), node.lineno


def test_app_extensions_is_reached_from_the_state_module_alone():
    assert {path for path, _ in attribute_uses("extensions")} == {"webapp/state.py"}


def test_every_route_is_registered_by_a_blueprint_that_create_app_registers(app):
    for rule in app.url_map.iter_rules():
        blueprint, _, _ = rule.endpoint.rpartition(".")
        assert rule.endpoint == "static" or blueprint in app.blueprints, rule
    registering = {path for name in ("register_blueprint", "route", "add_url_rule") for path, _ in attribute_uses(name)
                   if path.startswith("webapp/")}
    blueprints = {"webapp/main/views.py", "webapp/checklist/views.py", "webapp/calculators/views.py",
                  "webapp/api/views.py", "webapp/offline/__init__.py"}
    assert registering == {"webapp/__init__.py"} | blueprints


@pytest.mark.parametrize("folder, most_lines, most_complex", LIMITS)
def test_functions_are_short_and_simple(folder, most_lines, most_complex):
    found = list(functions(ROOT / folder))
    longest = max(found, key=lambda f: f.lines, default=None)
    hardest = max(found, key=lambda f: f.complexity, default=None)
    print(f"{folder}: longest {longest}; most complex {hardest}")
    assert [str(f) for f in found if f.lines > most_lines] == []
    assert [str(f) for f in found if f.complexity > most_complex] == []
