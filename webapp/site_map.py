"""Every page the site has, by path: what the trailing-slash redirect looks a twin address up in.

Pages without a variable in their address come from the route table itself; those with one (a
game, a section, a calculator, a kind of offline page) from the content and the calculators.
"""
from .content import GAME_IDS


def variable_pages(library, calculators):
    """(endpoint, values) of every page whose address holds a variable."""
    for game in library.games.values():
        yield "main.game_page", {"game_id": game.id}
        yield "checklist.turn", {"game_id": game.id}
        yield "checklist.print_sheet", {"game_id": game.id}
        for section in game.sections.values():
            yield "main.section_page", {"game_id": game.id, "section_id": section.id}
    for game_id in sorted({calc.game for calc in calculators.values()} & set(GAME_IDS)):
        yield "calculators.calculator_index", {"game_id": game_id}
    for calc in calculators.values():
        yield "calculators.page", {"game_id": calc.game, "slug": calc.slug}
    for need in ("search", "calculator"):
        yield "offline.offline_page", {"need": need}


def is_page_rule(rule):
    """A rule that serves pages: a GET outside the static files and the JSON API."""
    return "GET" in rule.methods and rule.endpoint != "static" and not rule.rule.startswith("/api")


def page_paths(url_map, library, calculators) -> frozenset:
    """The path of every page: each fixed page of the route table and every page of variable_pages."""
    adapter = url_map.bind("localhost")
    fixed = {rule.rule for rule in url_map.iter_rules() if is_page_rule(rule) and "<" not in rule.rule}
    return frozenset(fixed | {adapter.build(endpoint, values) for endpoint, values in variable_pages(library, calculators)})
