"""Content pages from the page cache, on a fresh worker and after junk query strings (run: python bench/page_cache.py).

Content pages (home, games, sections, checklists, print sheets) are rendered once per worker and
cached by view and arguments. A URL with junk appended (/?junk=1) is the same page, so junk cannot
fill the cache and keep the real pages out of it. This script shows it in process, with Flask's
test client (no HTTP, no other work), on two apps:

- a fresh app: /print (all five games' sheets) is asked for --requests times;
- another fresh app is first sent 2,500 requests for / with a different junk query string each,
  then /print is asked for --requests times. The two figures should match.

The figures are milliseconds per request (median and 90th percentile), and the cache's size.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

JUNK = 2500
REQUESTS = 300


def time_requests(client, path, count):
    """Milliseconds for each of count GETs of path (each must answer 200)."""
    timings = []
    for _ in range(count):
        start = time.perf_counter()
        response = client.get(path)
        timings.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return sorted(timings)


def line(name, timings):
    p90 = timings[int(len(timings) * 0.9) - 1]
    return f"{name:44} {statistics.median(timings):9.3f} {p90:9.3f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--junk", type=int, default=JUNK, help=f"junk query strings asked for (default {JUNK})")
    parser.add_argument("--requests", type=int, default=REQUESTS, help=f"timed requests per figure (default {REQUESTS})")
    args = parser.parse_args(argv)

    from webapp import create_app
    from webapp.state import state_of

    with tempfile.TemporaryDirectory(prefix="redbook-bench-instance-") as instance:
        app = create_app({"INSTANCE_PATH": instance})
        fresh = time_requests(app.test_client(), "/print", args.requests)
    with tempfile.TemporaryDirectory(prefix="redbook-bench-instance-") as instance:
        app = create_app({"INSTANCE_PATH": instance})
        client = app.test_client()
        start = time.perf_counter()
        for number in range(args.junk):
            response = client.get(f"/?junk={number}")
            assert response.status_code == 200
        junk_seconds = time.perf_counter() - start
        after = time_requests(client, "/print", args.requests)
        info = state_of(app).render_page.cache_info()

    print(f"Page cache: /print on a fresh app, and on one sent {args.junk:,} junk query strings on / first; "
          f"{args.requests} requests each, milliseconds (in process, Flask test client)")
    header = f"{'':44} {'median':>9} {'p90':>9}"
    print(header)
    print("-" * len(header))
    print(line("/print, fresh app", fresh))
    print(line(f"/print after {args.junk:,} junk query strings", after))
    print()
    print(f"after / fresh: {statistics.median(after) / statistics.median(fresh):.2f}x (medians)")
    print(f"the {args.junk:,} junk requests took {junk_seconds:.2f} s; cached pages at the end: {info.currsize} "
          f"(at most {info.maxsize}), {info.hits} hits, {info.misses} misses")

if __name__ == "__main__":
    main()
