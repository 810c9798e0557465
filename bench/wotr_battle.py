"""Timing of the exact War of the Ring battle engine (run: python bench/wotr_battle.py).

Each case is timed cold (every cache cleared before the run) and warm (caches kept),
several times over with time.perf_counter; the table shows the median and the best run.
The target case is 10 against 10 fought to the end: it should answer in under 100 ms.
"""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.engines.wotr_battle import Army, battle, clear_caches  # noqa: E402

REPETITIONS = 7
TARGET_MS = 100

CASES = [
    ("1 v 1, to the end", Army(1, 0), Army(1, 0), {}),
    ("5 v 5, to the end", Army(3, 2, 1), Army(4, 1, 1), {}),
    ("10 v 10, to the end (target)", Army(6, 4, 3), Army(7, 3, 2), {}),
    ("10 v 10, keep elites", Army(6, 4, 3, "elites"), Army(7, 3, 2, "elites"), {}),
    ("10 v 10, City, cease at 3", Army(6, 4, 3), Army(7, 3, 2), {"terrain": "city", "attacker_ceases_at": 3}),
    ("10 v 10, 10 rounds", Army(6, 4, 3), Army(7, 3, 2), {"rounds": 10}),
    ("10 v 5, siege", Army(5, 5, 3, "elites"), Army(3, 2, 2), {"terrain": "siege"}),
    ("10 v 10, 100 rounds at most", Army(6, 4, 3), Army(7, 3, 2), {"rounds": 100}),
    ("10 v 10 elites only, to the end", Army(0, 10, 5), Army(0, 10, 5), {}),
]


def time_case(attacker, defender, options, cold):
    runs = []
    for _ in range(REPETITIONS):
        if cold:
            clear_caches()
        start = time.perf_counter()
        battle(attacker, defender, **options)
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs), min(runs)


def main():
    print(f"War of the Ring battle engine, {REPETITIONS} runs each, milliseconds")
    header = f"{'case':34} {'cold median':>11} {'cold best':>10} {'warm median':>11} {'warm best':>10}"
    print(header)
    print("-" * len(header))
    for name, attacker, defender, options in CASES:
        cold_median, cold_best = time_case(attacker, defender, options, cold=True)
        battle(attacker, defender, **options)  # make sure the caches are filled
        warm_median, warm_best = time_case(attacker, defender, options, cold=False)
        print(f"{name:34} {cold_median:11.1f} {cold_best:10.1f} {warm_median:11.1f} {warm_best:10.1f}")
        if "target" in name:
            verdict = "meets" if cold_median < TARGET_MS else "MISSES"
            target_line = f"target: 10 v 10 to the end cold median {cold_median:.1f} ms {verdict} the {TARGET_MS} ms goal"
    print()
    print(target_line)


if __name__ == "__main__":
    main()
