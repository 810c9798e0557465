"""Pauses in process: every request's time and every garbage-collector pass (run: python bench/pauses.py).

Builds the app as gunicorn's master does (``create_app``, then ``webapp.serving.ready_to_serve``:
warmed, frozen for the collector, its thresholds set; ``--cold`` skips that step, as before it
existed), then:

1. **A new worker's first requests.** Forks a child, as gunicorn forks a worker, and times the
   child's first calculator page (a battle no request asked before), then its first search and its
   first rule page; 5 children, each timed once.
2. **Distinct requests across every endpoint.** 5,000 requests (``--requests``) through Flask's test
   client, no two alike, in a shuffled but fixed order: every page of the site, the search page and
   API with the distinct queries of bench/queries.py, every calculator's page and JSON endpoint
   with random inputs inside the API's bounds (POST bodies too), the OpenAPI document, the service
   worker and offline pages, static files, /healthz, unknown pages (404) and bad parameters (400).
   Each request is timed by the wall clock and by this process's CPU time; every collector pass
   is timed through ``gc.callbacks`` and charged to the request it fell in.

Prints p50, p99 and max by kind of request and for all, the largest collector pass of each
generation and how many there were, a full pass forced at the end (what the rare full passes cost
once the caches are full), and the slowest requests with the collector time inside them.
Goals: max under 25 ms over all requests, a new worker's first calculator page under 30 ms. Whole
battles are timed too: until every battle costs under 20 ms, the slowest of them can pass 25 ms
on their own, which the table's "collector ms" column tells apart from a pause.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from urllib.parse import urlencode

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from load import machine_line, wait_for_quiet  # noqa: E402
from queries import build_queries  # noqa: E402

SEED = 1954
REQUESTS = 5000
CHILDREN = 5
MAX_GOAL_MS = 25
FIRST_PAGE_GOAL_MS = 30
# a share of the requests for each kind (relative weights); content pages are every page once or more
WEIGHTS = {"calculator API": 26, "calculator page": 14, "calculator POST": 8, "search API": 20,
           "search page": 14, "page": 8, "other": 4, "healthz": 2, "404": 2, "400": 2}
WINDOWS = ["all", "first", "1", "2", "2-4", "1-99", "3-", "50-", "2-100"]


# --------------------------------------------------------------------------- random inputs

def query_value(schema, rng):
    """Text a query parameter with this schema accepts."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if schema.get("type") == "boolean":
        return rng.choice(["true", "false"])
    if schema.get("type") == "integer":
        return str(rng.randint(schema["minimum"], schema["maximum"]))
    pattern = schema.get("pattern", "")
    if "all|first" in pattern:
        return rng.choice(WINDOWS)
    if "nazgul" in pattern:
        return ",".join(rng.sample(["nazgul", "overrun", "exchange"], rng.randint(1, 3)))
    if "{2}" in pattern:  # three numbers, one per marker
        return ",".join(str(rng.randint(0, 50)) for _ in range(3))
    return "x"


def body_value(schema, rng):
    """A JSON value this schema accepts (the calculator may still refuse the combination: a 400)."""
    if "oneOf" in schema:
        return body_value(rng.choice(schema["oneOf"]), rng)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        required = set(schema.get("required", ()))
        return {name: body_value(member, rng) for name, member in schema["properties"].items()
                if name in required or rng.random() < 0.7}
    if kind == "array":
        return [body_value(schema["items"], rng) for _ in range(rng.randint(0, min(schema.get("maxItems", 3), 6)))]
    if kind == "integer":
        return rng.randint(max(schema["minimum"], -20), min(schema["maximum"], 30))
    if kind == "boolean":
        return rng.random() < 0.5
    return "f" * rng.randint(1, 12)


def requests_to_send(app, count, rng):
    """[(kind, method, path, json body or None)], every one different, in a shuffled order."""
    from webapp.state import state_of

    document = app.test_client().get("/api/openapi.json").get_json()
    state = state_of(app)
    gets = {path: ops["get"]["parameters"] for path, ops in document["paths"].items()
            if "get" in ops and path != "/api/search"}
    posts = {path: ops["post"]["requestBody"]["content"]["application/json"]["schema"]
             for path, ops in document["paths"].items() if "post" in ops}
    page_of = {api.path: f"/{calc.game}/calc/{calc.slug}" for calc in state.calculators.values() for api in calc.apis}
    queries = iter(build_queries(state.library, count=max(2400, count)))
    shares = {kind: round(count * weight / sum(WEIGHTS.values())) for kind, weight in WEIGHTS.items()}
    sent, seen = [], set()

    def add(kind, method, path, body=None):
        key = (method, path, json.dumps(body, sort_keys=True))
        if key not in seen:
            seen.add(key)
            sent.append((kind, method, path, body))

    pages = sorted(state.site_paths)
    for number in range(max(shares["page"], len(pages))):  # every page, then again with a query nobody reads
        add("page", "GET", pages[number % len(pages)] + (f"?from={number}" if number >= len(pages) else ""))
    while sum(1 for item in sent if item[0] in ("calculator API", "calculator page")) < (
            shares["calculator API"] + shares["calculator page"]):
        path = rng.choice(sorted(gets))
        pairs = [(p["name"], query_value(p["schema"], rng)) for p in gets[path] if rng.random() < 0.8]
        if rng.random() < shares["calculator page"] / (shares["calculator API"] + shares["calculator page"]):
            add("calculator page", "GET", page_of[path] + "?" + urlencode(pairs))
        else:
            add("calculator API", "GET", path + "?" + urlencode(pairs))
    while sum(1 for item in sent if item[0] == "calculator POST") < shares["calculator POST"]:
        path = rng.choice(sorted(posts))
        add("calculator POST", "POST", path, body_value(posts[path], rng))
    for kind in ("search API", "search page"):
        for _ in range(shares[kind]):
            query = next(queries)
            pairs = [("q", query.text)] + ([("game", query.game)] if query.game else [])
            add(kind, "GET", ("/api/search?" if kind == "search API" else "/search?") + urlencode(pairs))
    others = ["/api/openapi.json", "/sw.js", "/manifest.webmanifest", "/offline", "/offline/search",
              "/offline/calculator", "/print?games=wotr,meq", "/print?games=meccg,fotf,wotr-cards"]
    others += [f"/static/{name}?v={digest}" for name, digest in sorted(state.static.items())]
    for number in range(shares["other"]):
        add("other", "GET", others[number % len(others)] + ("" if number < len(others) else f"&n={number}"
                                                            if "?" in others[number % len(others)] else f"?n={number}"))
    for number in range(shares["healthz"]):
        add("healthz", "GET", f"/healthz?probe={number}")
    for number in range(shares["404"]):
        add("404", "GET", rng.choice(["/no-such-game/", "/wotr/no-such-section-", "/api/no-such-"]) + str(number))
    for number in range(shares["400"]):
        add("400", "GET", f"/api/wotr/roll?strength={number + 100}&hit=5")
    rng.shuffle(sent)
    return sent


# --------------------------------------------------------------------------- timing

class CollectorClock:
    """Every collector pass, timed by the wall clock and this process's CPU time: (generation, wall ms,
    CPU ms); and the wall time of the passes since the last reset."""

    def __init__(self):
        self.passes = []
        self.since_reset = 0.0
        self._start = None

    def __call__(self, phase, info):
        if phase == "start":
            self._start = (time.perf_counter(), time.process_time())
        elif self._start is not None:
            wall, cpu = ((now - then) * 1000 for now, then in zip((time.perf_counter(), time.process_time()),
                                                                  self._start))
            self.passes.append((info["generation"], wall, cpu))
            self.since_reset += wall
            self._start = None


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed_requests(app, sent):
    """[(kind, path, wall ms, CPU ms, collector ms)] and the collector's passes."""
    client = app.test_client()
    clock = CollectorClock()
    gc.callbacks.append(clock)
    rows = []
    try:
        for kind, method, path, body in sent:
            clock.since_reset = 0.0
            wall, cpu = time.perf_counter(), time.process_time()
            response = client.open(path, method=method, json=body, headers={"Accept-Encoding": "gzip"})
            response.get_data()
            rows.append((kind, path, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000,
                         clock.since_reset, response.status_code))
    finally:
        gc.callbacks.remove(clock)
    return rows, clock.passes


def first_requests_of_a_worker(app, children):
    """[{what: ms}] of each forked child's first battle page, first search and first rule page."""
    from webapp.state import state_of

    calc = state_of(app).calculators["wotr-battle"]
    section = list(state_of(app).library.sections())[-1]
    results = []
    for child in range(children):
        values = {**calc.prefill(), "attacker_regulars": 2 + child, "defender_regulars": 1 + child}
        firsts = [("calculator page", f"/{calc.game}/calc/{calc.slug}?{urlencode(calc.form_query(values))}"),
                  ("search", f"/search?q=leader+re-roll+{child}"), ("rule page", section.url)]
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: its first requests, then gone without running the parent's cleanup
            os.close(read)
            client = app.test_client()
            times = {}
            for what, path in firsts:
                start, cpu = time.perf_counter(), time.process_time()
                status = client.get(path, headers={"Accept-Encoding": "gzip"}).status_code
                if status != 200:
                    raise SystemExit(f"{path}: {status}")
                times[what] = (time.perf_counter() - start) * 1000
                times[what + " CPU"] = (time.process_time() - cpu) * 1000
            os.write(write, json.dumps(times).encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as pipe:
            results.append(json.loads(pipe.read()))
        os.waitpid(pid, 0)
    return results


# --------------------------------------------------------------------------- report

def report(rows, passes, firsts, full_pass, args):
    print(f"{len(rows)} distinct requests in process ({'cold: not warmed, not frozen' if args.cold else 'ready_to_serve: warmed, frozen'}; "
          f"gc thresholds {gc.get_threshold()}, {gc.get_freeze_count():,} objects frozen)")
    header = f"{'kind':16} {'count':>5} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'max CPU ms':>10} {'collector ms':>12}"
    print(header)
    print("-" * len(header))
    by_kind = defaultdict(list)
    for row in rows:
        by_kind[row[0]].append(row)
    for kind, group in sorted(by_kind.items()) + [("all", rows)]:
        walls = [row[2] for row in group]
        print(f"{kind:16} {len(group):5} {percentile(walls, 0.5):7.2f} {percentile(walls, 0.99):7.2f} "
              f"{max(walls):7.1f} {max(row[3] for row in group):10.1f} {sum(row[4] for row in group):12.1f}")
    print("\ncollector passes (wall ms; CPU ms, which other processes do not inflate):")
    for generation in (0, 1, 2):
        walls = [wall for gen, wall, _ in passes if gen == generation]
        cpus = [cpu for gen, _, cpu in passes if gen == generation]
        if walls:
            print(f"  generation {generation}: {len(walls):5} passes, largest {max(walls):6.2f} ms (CPU {max(cpus):6.2f}), "
                  f"median {percentile(walls, 0.5):5.2f} ms")
        else:
            print(f"  generation {generation}: none")
    print(f"  a full pass at the end, over the {full_pass[0]:,} objects the collector still walks "
          f"(what the requests left): {full_pass[1]:.1f} ms (CPU {full_pass[2]:.1f})")
    print("\nslowest requests (wall ms, CPU ms, collector ms inside, status):")
    for kind, path, wall, cpu, collector, status in sorted(rows, key=lambda row: -row[2])[:8]:
        print(f"  {wall:6.1f} {cpu:6.1f} {collector:6.1f}  {status}  {kind}: {path[:110]}")
    print(f"\na new worker's first requests (forked after the app was built; {len(firsts)} workers, ms):")
    for what in firsts[0]:
        if not what.endswith(" CPU"):
            times, cpus = [first[what] for first in firsts], [first[what + " CPU"] for first in firsts]
            print(f"  {what:16} median {percentile(times, 0.5):6.1f}  max {max(times):6.1f}   "
                  f"CPU median {percentile(cpus, 0.5):6.1f}  max {max(cpus):6.1f}")
    largest = max((wall for _, wall, _ in passes), default=0.0)
    largest_cpu = max((cpu for _, _, cpu in passes), default=0.0)
    worst = max(row[2] for row in rows)
    first_page = max(first["calculator page"] for first in firsts)
    print(f"\nmax {worst:.1f} ms over {len(rows)} requests ({'meets' if worst < MAX_GOAL_MS else 'MISSES'} < {MAX_GOAL_MS} ms); "
          f"largest collector pass {largest:.1f} ms (CPU {largest_cpu:.1f}); a new worker's first calculator page at most {first_page:.1f} ms "
          f"({'meets' if first_page < FIRST_PAGE_GOAL_MS else 'MISSES'} < {FIRST_PAGE_GOAL_MS} ms)")
    print(f"{machine_line()}" + (f"; other processes at start {args.quiet:.2f} cores" if args.quiet is not None else ""))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--children", type=int, default=CHILDREN, help="new workers to time (default %(default)s)")
    parser.add_argument("--cold", action="store_true", help="skip ready_to_serve: no warming, no freezing")
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS",
                        help="wait up to this long for other processes to leave the CPU idle (0: do not wait)")
    args = parser.parse_args(argv)
    args.quiet = wait_for_quiet(args.wait_quiet) if args.wait_quiet else None
    from webapp import create_app

    with tempfile.TemporaryDirectory(prefix="redbook-bench-pauses-") as instance:
        app = create_app({"INSTANCE_PATH": instance})
        sent = requests_to_send(app, args.requests, random.Random(SEED))
        # the list is built before the app is made ready, as a server's app never sees it
        if not args.cold:
            from webapp.serving import ready_to_serve

            ready_to_serve(app)
        firsts = first_requests_of_a_worker(app, args.children)
        rows, passes = timed_requests(app, sent)
        kept = len(gc.get_objects())
        start, cpu = time.perf_counter(), time.process_time()
        gc.collect()
        full_pass = (kept, (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)
    report(rows, passes, firsts, full_pass, args)


if __name__ == "__main__":
    main()
