"""In-process search latency and index build time (run: python bench/search_latency.py).

The app is created as it is served (the index built in memory from the content). Then, inside
an app context:

- every query of bench/queries.py is run through webapp.search.search(text, game, limit,
  fuzzy=...) with typo correction on and off, several passes each, timed one by one with
  time.perf_counter. The search index keeps a cache of recent results; it is emptied before
  every timed call, so these figures are for a query the worker has not just answered. The
  table gives p50, p90, p99 and the slowest query per mode, and p50/p99 per kind of query;
- 200 questions of exactly 1,000 characters (the most search reads: sentences of one game's
  rules told at length, then what is asked), timed the same way; the goal is p99 under 10 ms;
- the same query asked again at once (an answer from the result cache), for comparison;
- the same queries through an index without the fast path (plain Whoosh searches, the
  reference the fast path must rank exactly like): what the fast path buys;
- the index is built from the loaded content several times, with and without the fast path's
  table (what create_app pays at start).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from load import OtherCpu, machine_line, wait_for_quiet  # noqa: E402
from queries import KIND_WEIGHTS, QueryMaker, build_queries  # noqa: E402

LIMIT = 10  # what /api/search uses unless told otherwise
REPETITIONS = 3
BUILD_REPETITIONS = 5
TARGET_P99_MS = 50  # the /api/search p99 target under load; in process it should be well inside it
LONGEST = 1000  # characters of the longest question search reads
LONGEST_COUNT = 200
TARGET_LONGEST_P99_MS = 10  # in process, for a question of LONGEST characters


def percentile(sorted_values, p):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]


def forget_results(index):
    """Empty the index's cache of recent results."""
    index.forget_answers()


def time_queries(search, index, queries, fuzzy, repetitions):
    """Per query, the median of its uncached timings over the passes (ms), and the last results."""
    timings = [[] for _ in queries]
    results = [None] * len(queries)
    for _ in range(repetitions):
        for i, q in enumerate(queries):
            forget_results(index)
            start = time.perf_counter()
            results[i] = search(q.text, game=q.game, limit=LIMIT, fuzzy=fuzzy)
            timings[i].append((time.perf_counter() - start) * 1000)
    return [statistics.median(t) for t in timings], results


def time_repeats(search, queries):
    """Per query, the time of asking it a second time right after the first (ms)."""
    timings = []
    for q in queries:
        search(q.text, game=q.game, limit=LIMIT)
        start = time.perf_counter()
        search(q.text, game=q.game, limit=LIMIT)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def time_builds(search_module, state, repetitions, held_scores):
    runs = []
    for _ in range(repetitions):
        start = time.perf_counter()
        search_module.SearchIndex(state.library, state.calculators, held_scores=held_scores)
        runs.append(time.perf_counter() - start)
    return runs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=REPETITIONS, help="passes over the query set per mode")
    parser.add_argument("--builds", type=int, default=BUILD_REPETITIONS, help="index builds to time, each kind")
    parser.add_argument("--count", type=int, default=None, help="number of queries (default: all of bench/queries.py)")
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS",
                        help="wait up to this long for other processes to leave the CPU idle (0: do not wait)")
    args = parser.parse_args(argv)
    quiet = wait_for_quiet(args.wait_quiet) if args.wait_quiet else None

    from webapp import create_app
    from webapp import search as search_module
    from webapp.state import state_of

    started = time.perf_counter()
    app = create_app()
    create_seconds = time.perf_counter() - started
    state = state_of(app)
    library = state.library
    queries = build_queries(library) if args.count is None else build_queries(library, count=args.count)

    with app.app_context():
        search = search_module.search
        index = search_module.get_search_index()
        for q in queries[:200]:  # warm up: load the code paths
            search(q.text, game=q.game, limit=LIMIT)
        modes = {}
        with OtherCpu([]) as other:
            for fuzzy in (True, False):
                modes[fuzzy] = time_queries(search, index, queries, fuzzy, args.repetitions)
        repeats = sorted(time_repeats(search, queries))
        maker = QueryMaker(library, seed=LONGEST)
        longest = [maker.long_question(maker.rng.choice(maker.sources), LONGEST) for _ in range(LONGEST_COUNT)]
        longest_times = sorted(time_queries(search, index, longest, True, args.repetitions)[0])
        plain = search_module.SearchIndex(library, state.calculators, held_scores=False)
        plain_times, _ = time_queries(plain.search, plain, queries, True, 1)
        builds = time_builds(search_module, state, args.builds, True)
        plain_builds = time_builds(search_module, state, args.builds, False)

    print(f"Search latency in process: {len(queries)} distinct queries, limit {LIMIT}, result cache emptied before "
          f"each call, {args.repetitions} passes per mode (each query's median over the passes), milliseconds")
    print(f"  {machine_line()}; other processes used {other.cores:.2f} cores during the timing"
          + (f" ({quiet:.2f} at start)" if quiet is not None else ""))
    header = (f"{'typo correction':22} {'p50':>7} {'p90':>7} {'p99':>7} {'max':>7} {'mean':>7} {'queries/s':>10} "
              f"{'no hits':>8} {'suggested':>9}")
    print(header)
    print("-" * len(header))
    for fuzzy in (True, False):
        medians, results = modes[fuzzy]
        ordered = sorted(medians)
        empty = sum(1 for r in results if not r.hits)
        suggested = sum(1 for r in results if r.suggestion)
        mean = statistics.fmean(medians)
        print(f"{'on' if fuzzy else 'off':22} {percentile(ordered, 50):7.2f} {percentile(ordered, 90):7.2f} "
              f"{percentile(ordered, 99):7.2f} {ordered[-1]:7.2f} {mean:7.2f} {1000 / mean:10.0f} "
              f"{empty:8} {suggested:9}")
    mean = statistics.fmean(repeats)
    print(f"{'on, same query again':22} {percentile(repeats, 50):7.2f} {percentile(repeats, 90):7.2f} "
          f"{percentile(repeats, 99):7.2f} {repeats[-1]:7.2f} {mean:7.2f} {1000 / mean:10.0f}")
    print(f"{'on, 1,000 characters':22} {percentile(longest_times, 50):7.2f} {percentile(longest_times, 90):7.2f} "
          f"{percentile(longest_times, 99):7.2f} {longest_times[-1]:7.2f} {statistics.fmean(longest_times):7.2f} "
          f"{1000 / statistics.fmean(longest_times):10.0f}")
    print()
    print("By kind of query (ms)")
    header = f"{'kind':14} {'queries':>7} {'p50 on':>7} {'p99 on':>7} {'max on':>7}   {'p50 off':>7} {'p99 off':>7}"
    print(header)
    print("-" * len(header))
    on, off = modes[True][0], modes[False][0]
    for kind in KIND_WEIGHTS:
        picked = [i for i, q in enumerate(queries) if q.kind == kind]
        if not picked:
            continue
        times_on = sorted(on[i] for i in picked)
        times_off = sorted(off[i] for i in picked)
        print(f"{kind:14} {len(picked):7} {percentile(times_on, 50):7.2f} {percentile(times_on, 99):7.2f} "
              f"{times_on[-1]:7.2f}   {percentile(times_off, 50):7.2f} {percentile(times_off, 99):7.2f}")
    print()
    slowest = sorted(range(len(queries)), key=lambda i: on[i], reverse=True)[:5]
    print("Slowest queries, typo correction on:")
    for i in slowest:
        q = queries[i]
        print(f"  {on[i]:7.2f} ms  {q.kind:12} {q.game or '-':11} {q.text}")
    print()
    plain_sorted = sorted(plain_times)
    print(f"Without the fast path (plain Whoosh searches, 1 pass, fuzzy on): p50 {percentile(plain_sorted, 50):.2f}, "
          f"p99 {percentile(plain_sorted, 99):.2f}, mean {statistics.fmean(plain_times):.2f} ms "
          f"(fast path: mean {statistics.fmean(on):.2f} ms)")
    print()
    print("Index, seconds")
    header = f"{'step':44} {'median':>7} {'best':>7} {'worst':>7}"
    print(header)
    print("-" * len(header))
    print(f"{'build in memory, with the fast path table':44} {statistics.median(builds):7.3f} {min(builds):7.3f} {max(builds):7.3f}")
    print(f"{'build in memory, plain Whoosh':44} {statistics.median(plain_builds):7.3f} {min(plain_builds):7.3f} "
          f"{max(plain_builds):7.3f}")
    print(f"{'create_app (load and check content, build)':44} {create_seconds:7.3f} {'':7} {'':7}")
    p99_long = percentile(longest_times, 99)
    print()
    print(f"{LONGEST_COUNT} questions of {LONGEST:,} characters, p99 {p99_long:.2f} ms: "
          f"{'inside' if p99_long < TARGET_LONGEST_P99_MS else 'OUTSIDE'} the {TARGET_LONGEST_P99_MS} ms target")
    p99_on = percentile(sorted(on), 99)
    verdict = "inside" if p99_on < TARGET_P99_MS else "OUTSIDE"
    print()
    print(f"in-process p99 with typo correction {p99_on:.1f} ms: {verdict} the {TARGET_P99_MS} ms /api/search p99 target "
          f"(before any HTTP, queueing or second worker)")


if __name__ == "__main__":
    main()
