"""Ready to serve: the app warmed before the workers fork, then frozen for the garbage collector.

Both servers call :func:`ready_to_serve` once, on the app ``create_app`` built: gunicorn in its
master before it forks a worker (``on_starting`` in deploy/gunicorn.conf.py, with ``--preload``),
``redbook serve`` before it listens.

- **Warm.** Every template is compiled when the app is created (``caching.compile_templates``).
  Here a few requests go through the whole app, compressed: a rule page, a search page and the
  search API, and every calculator's page with its example inputs; then a search for every rule's
  title, so the words of every rule are read for snippets now rather than by the requests. What is
  built on first use (the compressors, the engines' tables, the search's caches of the content's
  words) is built once, in the master, and every worker forked from it starts warm.
- **Freeze.** A full collection, then ``gc.freeze()``: everything alive moves to the collector's
  permanent generation, which it never walks again. A full pass over the loaded app (about 115,000
  objects) takes about 100 ms and lands on whichever request sets it off; and since a pass writes to
  every object it walks, it would also copy the master's pages into each worker.
- **Thresholds.** What requests keep (the bounded caches of battles, search answers and pages,
  about 25,000 objects once full) is all the collector still walks. ``GC_THRESHOLDS`` keep the
  young passes small and make the full pass over those caches rare; bench/pauses.py prints every
  pass.
"""
from __future__ import annotations

import gc
from urllib.parse import urlencode

from .search import search
from .state import state_of

# Python's own are (700, 10, 10). A young pass walks what was allocated since the last one and is still
# alive: 1,000 objects, about a millisecond. A middle pass every 20 of them (a few ms). A full pass, over
# every cache, only after 100 middle passes (some 30,000 requests of bench/pauses.py's mix), and then
# only once the old generation grew by a quarter (Python's own rule).
GC_THRESHOLDS = (1000, 20, 100)
ENCODINGS = ("gzip", "br", "zstd")  # each compressor's first use, once


def warm_paths(app) -> list:
    """The requests that warm the app: a rule page, search, and every calculator with its example inputs."""
    state = state_of(app)
    section = next(state.library.sections())
    paths = ["/", section.url, "/search?q=combat", "/api/search?q=combat"]
    for calc in state.calculators.values():
        paths.append(f"/{calc.game}/calc/{calc.slug}?{urlencode(calc.form_query())}")
    return paths


def warm(app) -> None:
    """Answer each of warm_paths once through the whole app; raise if one is not a 200."""
    hosts = app.config.get("TRUSTED_HOSTS") or ["localhost"]
    client = app.test_client()
    for number, path in enumerate(warm_paths(app)):
        response = client.get(path, base_url=f"http://{hosts[0].lstrip('.')}",
                              headers={"Accept-Encoding": ENCODINGS[number % len(ENCODINGS)]})
        if response.status_code != 200:
            raise RuntimeError(f"warming the app: {path} answered {response.status_code}")


def read_every_rule(app) -> int:
    """Search for every rule's title once: the words of every rule are then read for snippets, and
    what search keeps of them is built now (and frozen), not by the requests. How many searches."""
    titles = {entry.title for _, entry in state_of(app).library.entries()}
    with app.app_context():
        for title in sorted(titles):
            search(title)
    return len(titles)


def ready_to_serve(app) -> str:
    """Warm the app, then freeze everything alive for the collector and set its thresholds; what was
    done, in a line for the server's log."""
    warm(app)
    searches = read_every_rule(app)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return (f"ready to serve: {len(warm_paths(app))} pages and {searches} searches warmed, "
            f"{gc.get_freeze_count():,} objects frozen for the collector, thresholds {GC_THRESHOLDS}")
