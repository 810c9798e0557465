"""The offline bundle in headless Chromium (run: python bench/offline.py, after `redbook offline-build`).

The app is served on loopback; Debian's Chromium, driven by Playwright, is a player's phone.

1. Switching on "Use Red Book offline": every byte the server sends from the click until the
   switch says it is on, by file (budget: 15 MB, compressed as sent).
2. Then the browser goes offline, and each fresh tab starts the bundle's Python anew: the time
   from opening a calculator's answer (or a search's) to seeing it (budget: 6 s), and where it
   went as the worker timed it (Pyodide, unpacking, imports, create_app, the first answer). The
   first tab after switching on is the first start without a connection a player meets;
   --rounds N opens the tabs N times over.
3. In the last tab, each later answer, from the click to the page shown (budget: 1 s): every
   calculator's example inputs, searches, and the battle bench's worst case (bench/wotr_battle.py:
   all Elite, 5 Regulars at hand, Leadership 10, modifiers -5, standing or withdrawing after 0
   compared over 5 siege battles, 100 rounds; budget: 3 s).

Figures are wall-clock times on this machine. Before each fresh tab the script waits (up to
--wait-quiet seconds, 120 by default) until other processes leave the CPU nearly idle, and prints
how much of it they used then: other work on a shared machine only ever adds time.
"""
import argparse
import logging
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import wait_for_quiet  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.state import state_of  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DOWNLOAD_BUDGET = 15e6
FIRST_BUDGET, LATER_BUDGET, BATTLE_BUDGET = 6.0, 1.0, 3.0
FRESH_TABS = (("calculator", "/wotr/calc/roll?strength=5&hit=5&modifier=0&leadership=2&reroll_modifier=0"),
              ("search", "/search?q=can+my+leader+reroll+misses"),
              ("calculator", "/meccg/calc/strike?prowess=5&strike_prowess=8&unused_strikes=0&support=0"
                             "&resource_modifier=0&other_modifiers=0&body=&creature_body="),
              ("search", "/search?q=what+happens+when+the+fellowship+is+exposed"))
SEARCHES = ("retreat into a stronghold", "how many dice in combat", "corruption check", "skies darken",
            "what does exposed do", "dominance", "hero turn steps", "siege battle", "free council", "influence")
# The battle bench's slowest case, as the battle calculator's inputs
WORST_BATTLE = {"regulars": "0", "elites": "10", "replacement_regulars": "5", "leadership": "10", "policy": "elites",
                "modifier": "-5", "reroll_modifier": "-5"}
WORST_BATTLE_OPTIONS = {"terrain": "field", "defender_choice": "compare", "withdraw_after": "0",
                        "siege_battles": "5", "rounds": "100"}


class Counting:
    """The app, counting what it sends: (path, bytes of status line, headers and body) per request."""

    def __init__(self, app):
        self.app, self.sent = app, []

    def __call__(self, environ, start_response):
        head = [0]

        def start(status, headers, exc_info=None):
            head[0] = len(status) + 11 + sum(len(name) + len(value) + 4 for name, value in headers) + 2
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        size = 0
        try:
            for chunk in body:
                size += len(chunk)
                yield chunk
        finally:
            if hasattr(body, "close"):
                body.close()
            self.sent.append((environ.get("PATH_INFO", ""), head[0] + size))


def battle_url(calc):
    query = []
    for name, value in calc.form_query():
        side, _, field = name.partition("_")
        if side in ("attacker", "defender") and field in WORST_BATTLE:
            value = WORST_BATTLE[field]
        elif name in WORST_BATTLE_OPTIONS:
            value = WORST_BATTLE_OPTIONS[name]
        query.append((name, value))
    return f"/{calc.game}/calc/{calc.slug}?{urlencode(query)}"


def open_in_page(page, path):
    """Follow a link to path from the page (offline.js answers it there): seconds until it is shown."""
    began = time.perf_counter()
    page.evaluate("(path) => { const a = document.createElement('a'); a.href = path; document.body.append(a); a.click(); }",
                  path)
    page.wait_for_function("(path) => location.pathname + location.search === path && document.readyState === 'complete'"
                           " && !document.documentElement.hasAttribute('aria-busy') && !!document.querySelector('main')",
                           arg=path, timeout=60000)
    return time.perf_counter() - began


def switch_on(context, base, counting):
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'", timeout=60000)
    page.wait_for_timeout(3000)  # the service worker's precache of the rule pages, before counting
    counting.sent.clear()
    began = time.perf_counter()
    page.click("[data-offline-toggle]")
    page.wait_for_function("() => /^On:/.test(document.querySelector('[data-offline-status]').textContent)",
                           timeout=300000)
    took = time.perf_counter() - began
    page.close()
    return took, list(counting.sent)


def fresh_tab(context, base, path):
    page = context.new_page()
    began = time.perf_counter()
    page.goto(base + path)
    page.wait_for_selector("main .headline, main .search-results, main .result-list, main ol", timeout=120000)
    took = time.perf_counter() - began
    page.wait_for_function("() => window.redbookPython && window.redbookPython.ready", timeout=60000)
    page.evaluate("() => window.redbookPython.ready")
    python = page.evaluate("() => ({started: window.redbookPython.started, finished: window.redbookPython.finished,"
                           " first: window.redbookPython.first})")
    return page, took, python


def verdict(figure, budget):
    return "OK" if figure <= budget else "MISSES"


def print_download(took, sent):
    total = sum(size for _, size in sent)
    print(f"1. Switching on: {total / 1e6:.2f} MB sent in {len(sent)} requests, {took:.1f} s "
          f"(budget {DOWNLOAD_BUDGET / 1e6:.0f} MB: {verdict(total, DOWNLOAD_BUDGET)})")
    for path, size in sorted(sent, key=lambda item: -item[1])[:8]:
        print(f"   {size / 1e6:7.3f} MB  {path.rsplit('/', 1)[-1] or path}")


def first_answers(context, base, rounds, wait_quiet):
    """Print each fresh tab's first answer, and where its time went: the last tab, left open."""
    print("2. First answer of a fresh tab, offline (Python starts anew in each):")
    tabs = [tab for _ in range(rounds) for tab in FRESH_TABS]
    figures = {}
    for number, (kind, path) in enumerate(tabs, 1):
        others = wait_for_quiet(wait_quiet) if wait_quiet else None
        page, took, python = fresh_tab(context, base, path)
        figures.setdefault(kind, []).append(took)
        started = python["started"]
        steps = ", ".join(f"{name} {ms / 1000:.2f}" for name, ms in started.items() if name != "total")
        quiet = "" if others is None else f" [other processes: {others:.2f} cores]"
        print(f"   tab {number}, a {kind:10}: {took:5.2f} s ({verdict(took, FIRST_BUDGET)}); Python started in "
              f"{started['total'] / 1000:.2f} s ({steps}), answered in {python['first'] / 1000:.2f} s, "
              f"its search index {python['finished'] / 1000:.2f} s after{quiet}")
        if number < len(tabs):
            page.close()
    for kind, times in figures.items():
        print(f"   a {kind} first: {min(times):.2f} to {max(times):.2f} s, median {statistics.median(times):.2f} s "
              f"over {len(times)} tabs (budget {FIRST_BUDGET:.0f} s: {verdict(max(times), FIRST_BUDGET)})")
    return page


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS",
                        help="before each fresh tab, wait up to this long for other processes to leave the CPU idle")
    parser.add_argument("--rounds", type=int, default=1, metavar="N",
                        help="open the fresh tabs (two calculators, two searches) N times over")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app()
    state = state_of(app)
    if not state.offline.offered:
        sys.exit(f"no offline bundle for this build ({state.offline.problem}): run 'redbook offline-build' first")
    counting = Counting(app)
    server = make_server("127.0.0.1", 0, counting, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    calculators = state.calculators.values()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 390, "height": 844})
        print_download(*switch_on(context, base, counting))
        context.set_offline(True)
        page = first_answers(context, base, args.rounds, args.wait_quiet)
        print("3. Later answers in that tab:")
        times = {f"calculator {calc.id}": open_in_page(page, f"/{calc.game}/calc/{calc.slug}?{urlencode(calc.form_query())}")
                 for calc in calculators}
        times.update({f"search '{q}'": open_in_page(page, "/search?" + urlencode({"q": q})) for q in SEARCHES})
        worst = max(times, key=times.get)
        print(f"   {len(times)} answers: median {statistics.median(times.values()):.2f} s, slowest {times[worst]:.2f} s "
              f"({worst}) (budget {LATER_BUDGET:.0f} s: {verdict(times[worst], LATER_BUDGET)})")
        battle = open_in_page(page, battle_url(state.calculators["wotr-battle"]))
        print(f"   the battle bench's worst case: {battle:.2f} s (budget {BATTLE_BUDGET:.0f} s: "
              f"{verdict(battle, BATTLE_BUDGET)}): {page.locator('main .headline').first.inner_text()}")
        browser.close()
    server.shutdown()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores at the end")


if __name__ == "__main__":
    main()
