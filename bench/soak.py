"""A long run of mixed traffic against gunicorn (run: python bench/soak.py).

Sends 100,000 requests (configurable) from 16 client threads to gunicorn with 2 sync workers
on a loopback port: /healthz, every game and section page, the search page and the search API
with the distinct queries of bench/queries.py, the War of the Ring battle API with a few
armies, and a share of requests that must fail cleanly (unknown pages: 404; bad parameters:
400). Every request knows the status it must get; the run counts every other answer, every
5xx and every connection error or timeout, and passes only if there are none.

Worker memory (VmRSS from /proc/<pid>/status) is read after a warm-up of 2,000 requests of the
same mix, every 10,000 requests, and at the end; growth from the warm-up reading to the end must
stay under 10% for every worker. The worker pids must not change (a restarted worker would hide
both a crash and a leak).
"""
from __future__ import annotations

import argparse
import http.client
import itertools
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from load import BATTLE_10_V_10, WORKERS, Gunicorn, machine_line, proc_status_kb, stop_on_sigterm  # noqa: E402
from queries import build_queries  # noqa: E402

REQUESTS = int(os.environ.get("SOAK_REQUESTS", "100000"))
WARMUP_REQUESTS = 2000
CLIENT_THREADS = 16
SAMPLE_EVERY = 10_000
MAX_GROWTH = 0.10
SEED = 1954

# share of each kind of request in the mix (relative weights)
MIX = {
    "healthz": 15,
    "rule page": 30,
    "search page": 15,
    "search API": 25,
    "battle API": 5,
    "404": 5,
    "400": 5,
}

POLICIES = "&attacker_policy=strength&defender_policy=strength"  # the casualty choices a battle must be given
BATTLES = [
    BATTLE_10_V_10,
    "/api/wotr/battle?attacker_regulars=3&attacker_elites=1&attacker_leadership=1&defender_regulars=2&defender_elites=1&defender_leadership=1" + POLICIES + "&terrain=field",
    "/api/wotr/battle?attacker_regulars=5&attacker_elites=2&attacker_leadership=2&defender_regulars=4&defender_elites=2&defender_leadership=1" + POLICIES + "&terrain=city",
    "/api/wotr/battle?attacker_regulars=6&attacker_elites=4&attacker_leadership=3&defender_regulars=7&defender_elites=3&defender_leadership=2" + POLICIES + "&terrain=field&rounds=3",
]
NOT_FOUND = ["/no-such-game/", "/wotr/no-such-section", "/api/no-such-endpoint", "/meq/calc/no-such-calculator",
             "/static/no-such-file.css"]
BAD_REQUEST = ["/api/search?q=", "/api/search?q=%20%20", "/api/search?q=army&limit=0", "/api/search?q=army&limit=many",
               "/api/search?q=army&game=chess", "/api/wotr/battle?attacker_regulars=many",
               "/api/wotr/battle?attacker_regulars=-1", "/api/wotr/battle?terrain=swamp"]


def request_lists(library, queries):
    """For each kind of request, the (path, expected status) pairs it cycles through."""
    pages = []
    for game in library.games.values():
        pages.append(game.url)
        pages += [section.url for section in game.sections.values()]
    return {
        "healthz": [("/healthz", 200)],
        "rule page": [(p, 200) for p in pages],
        "search page": [(q.path("/search"), 200) for q in queries],
        "search API": [(q.path("/api/search"), 200) for q in queries],
        "battle API": [(p, 200) for p in BATTLES],
        "404": [(p, 404) for p in NOT_FOUND],
        "400": [(p, 400) for p in BAD_REQUEST],
    }


def schedule(lists, count, seed=SEED):
    """``count`` (kind, path, expected) in a fixed shuffled order; each kind walks its own list."""
    rng = random.Random(seed)
    kinds = list(MIX)
    weights = [MIX[k] for k in kinds]
    positions = Counter()
    out = []
    for kind in rng.choices(kinds, weights, k=count):
        items = lists[kind]
        path, expected = items[positions[kind] % len(items)]
        positions[kind] += 1
        out.append((kind, path, expected))
    return out


class Tally:
    """What came back, shared by the client threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses = Counter()  # (kind, status)
        self.unexpected = Counter()  # (kind, path, expected, got)
        self.failures = Counter()  # (kind, exception name)
        self.latencies = []

    def record(self, kind, path, expected, status, seconds, failure=None):
        with self.lock:
            self.latencies.append(seconds)
            if failure is not None:
                self.failures[(kind, failure)] += 1
                return
            self.statuses[(kind, status)] += 1
            if status != expected:
                self.unexpected[(kind, path, expected, status)] += 1


def drive(port, jobs, threads, tally, timeout=30):
    """Send every job from ``threads`` client threads; each request on a new connection."""
    cursor = itertools.count()  # next() is atomic in CPython: threads share the work

    def worker():
        while True:
            i = next(cursor)
            if i >= len(jobs):
                return
            kind, path, expected = jobs[i]
            started = time.perf_counter()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                tally.record(kind, path, expected, response.status, time.perf_counter() - started)
            except (OSError, http.client.HTTPException) as exc:
                tally.record(kind, path, expected, None, time.perf_counter() - started, type(exc).__name__)
            finally:
                connection.close()

    pool = [threading.Thread(target=worker, daemon=True) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()


def rss(pids):
    return {pid: proc_status_kb(pid, "VmRSS") for pid in pids}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=REQUESTS, help="requests after the warm-up (default %(default)s)")
    parser.add_argument("--warmup", type=int, default=WARMUP_REQUESTS)
    parser.add_argument("--threads", type=int, default=CLIENT_THREADS, help="client threads (concurrent requests)")
    parser.add_argument("--workers", type=int, default=WORKERS)
    args = parser.parse_args(argv)
    stop_on_sigterm()

    from webapp.library import read_library
    import webapp

    library = read_library(webapp.PROJECT_ROOT / "content")
    queries = build_queries(library)
    lists = request_lists(library, queries)
    jobs = schedule(lists, args.warmup + args.requests)
    warmup_jobs, soak_jobs = jobs[:args.warmup], jobs[args.warmup:]

    samples = []  # (requests done, {pid: kB})
    with tempfile.TemporaryDirectory(prefix="redbook-bench-soak-") as instance:
        server = Gunicorn(instance, workers=args.workers)
        try:
            server.start()
            server.wait_ready()
            workers = server.wait_workers()
            booted = rss(workers)
            drive(server.port, warmup_jobs, args.threads, Tally())
            samples.append((0, rss(workers)))
            tally = Tally()
            started = time.perf_counter()
            for start in range(0, len(soak_jobs), SAMPLE_EVERY):
                drive(server.port, soak_jobs[start:start + SAMPLE_EVERY], args.threads, tally)
                samples.append((min(start + SAMPLE_EVERY, len(soak_jobs)), rss(workers)))
            elapsed = time.perf_counter() - started
            workers_after = server.worker_pids()
            log_tail = server.log_tail(10)
        finally:
            server.stop()

    sent = len(soak_jobs)
    answered = sum(tally.statuses.values())
    server_errors = sum(n for (kind, status), n in tally.statuses.items() if status >= 500)
    unexpected = sum(tally.unexpected.values())
    failures = sum(tally.failures.values())
    latencies = sorted(tally.latencies)

    print(f"Soak: {sent} mixed requests after a {args.warmup}-request warm-up, {args.threads} client threads, "
          f"gunicorn {args.workers} sync workers on 127.0.0.1")
    print(f"  {machine_line()}")
    print(f"  {elapsed:.0f} s, {sent / elapsed:.0f} requests/s, latency p50 {latencies[len(latencies) // 2] * 1000:.1f} ms, "
          f"p99 {latencies[int(len(latencies) * 0.99)] * 1000:.1f} ms")
    print()
    header = f"{'kind':12} {'sent':>7} {'expected':>8} {'got as expected':>15} {'other status':>12} {'5xx':>5} {'conn. errors':>12}"
    print(header)
    print("-" * len(header))
    sent_by_kind = Counter(kind for kind, _, _ in soak_jobs)
    expected_by_kind = {kind: sorted({e for _, e in items}) for kind, items in lists.items()}
    for kind in MIX:
        good = sum(n for (k, status), n in tally.statuses.items() if k == kind) - sum(
            n for (k, _, _, _), n in tally.unexpected.items() if k == kind)
        other = sum(n for (k, _, _, _), n in tally.unexpected.items() if k == kind)
        fivexx = sum(n for (k, status), n in tally.statuses.items() if k == kind and status >= 500)
        errors = sum(n for (k, _), n in tally.failures.items() if k == kind)
        print(f"{kind:12} {sent_by_kind[kind]:7} {'/'.join(map(str, expected_by_kind[kind])):>8} {good:15} {other:12} "
              f"{fivexx:5} {errors:12}")
    print(f"{'total':12} {sent:7} {'':8} {answered - unexpected:15} {unexpected:12} {server_errors:5} {failures:12}")
    for (kind, path, expected, got), n in tally.unexpected.most_common(10):
        print(f"  unexpected: {n} x {kind} {path} -> {got} (expected {expected})")
    for (kind, name), n in tally.failures.most_common(10):
        print(f"  failed: {n} x {kind}: {name}")

    print()
    print("Worker memory, VmRSS MiB (booted = before any request; 0 = after the warm-up)")
    pids = workers
    header = f"{'after requests':>14} " + " ".join(f"{'worker ' + str(n + 1):>10}" for n in range(len(pids)))
    print(header)
    print("-" * len(header))
    print(f"{'booted':>14} " + " ".join(f"{booted[pid] / 1024:10.1f}" for pid in pids))
    for done, reading in samples:
        print(f"{done:14} " + " ".join(f"{(reading[pid] or 0) / 1024:10.1f}" for pid in pids))
    first, last = samples[0][1], samples[-1][1]
    growth = {pid: (last[pid] - first[pid]) / first[pid] for pid in pids if first[pid] and last[pid]}
    print(f"{'growth':>14} " + " ".join(f"{growth.get(pid, float('nan')):10.1%}" for pid in pids))

    same_workers = sorted(workers_after) == sorted(workers)
    errors_ok = server_errors == 0 and unexpected == 0 and failures == 0 and answered == sent
    memory_ok = len(growth) == len(pids) and all(g < MAX_GROWTH for g in growth.values())
    print()
    print(f"errors: {server_errors} 5xx, {unexpected} unexpected statuses, {failures} connection errors/timeouts: "
          f"{'meets' if errors_ok else 'MISSES'} the zero-error goal")
    print(f"memory: worst growth {max(growth.values(), default=float('nan')):.1%} from the warm-up to the end: "
          f"{'meets' if memory_ok else 'MISSES'} the < {MAX_GROWTH:.0%} goal")
    print(f"workers: {'same pids throughout' if same_workers else f'RESTARTED {workers} -> {workers_after}'}")
    if not (errors_ok and same_workers):
        print("gunicorn log tail:\n" + log_tail)
    return 0 if errors_ok and memory_ok and same_workers else 1


if __name__ == "__main__":
    sys.exit(main())
