"""Timing of the War of the Ring battle engine (run: python bench/wotr_battle.py).

Two tables, both in process (no HTTP), with time.perf_counter:

- typical battles (armies of up to 7 units) and the largest (10 against 10): each timed
  cold (every cache cleared before the run) and cached (the battle answered from the
  engine's cache), several runs; median and best. Goal: every typical battle under 5 ms
  cold; the largest are shown beside them.
- a grid of extremes inside the API's bounds: all-Elite, all-Regular and mixed armies of
  10 (5 in a besieged Stronghold), either casualty policy, Leadership 0 or 10, modifiers at
  -5, 0 or +5 on both sides, every terrain, 100 rounds and fought to the end; then the new
  options at their most costly (withdrawal with 5 siege battles, a modifier window that
  ends at round 100, no Regulars to replace Elites). Each battle cold, best of a few runs
  (other work on the machine only ever adds time). Goal: the worst under 50 ms.

`--quick` times fewer runs; `--slowest N` lists the N slowest battles of the grid.
"""

import argparse
import itertools
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.engines.wotr_battle import Army, battle, clear_caches  # noqa: E402

TYPICAL_MS = 5
WORST_MS = 50

TYPICAL = [
    ("1 v 1, to the end", Army(1, 0), Army(1, 0), {}),
    ("5 v 3, to the end", Army(4, 1, 1), Army(2, 1, 1), {}),
    ("5 v 5, to the end", Army(3, 2, 1), Army(4, 1, 1), {}),
    ("7 v 4, City", Army(5, 2, 2), Army(3, 1, 1), {"terrain": "city"}),
    ("6 v 3, siege", Army(3, 3, 2, "elites"), Army(2, 1, 1), {"terrain": "siege"}),
    ("6 v 5, 3 rounds", Army(4, 2, 2), Army(3, 2, 1), {"rounds": 3}),
    ("5 v 4, card in round 1", Army(4, 1, 1, modifier=1, modifier_rounds="first"), Army(3, 1, 1), {}),
    ("6 v 4, stand or withdraw", Army(4, 2, 2), Army(3, 1, 1), {"withdraw_after": 1, "siege_battles": 2}),
    ("7 v 6, to the end", Army(4, 3, 2), Army(4, 2, 2), {}),
]
LARGEST = [
    ("10 v 10, to the end", Army(6, 4, 3), Army(7, 3, 2), {}),
    ("10 v 10, 100 rounds at most", Army(6, 4, 3), Army(7, 3, 2), {"rounds": 100}),
    ("10 v 10 all Elite, to the end", Army(0, 10, 5), Army(0, 10, 5), {}),
]

ARMIES = {"all Elite": (0, 10), "all Regular": (10, 0), "mixed": (5, 5)}
GARRISONS = {"all Elite": (0, 5), "all Regular": (5, 0), "mixed": (2, 3)}
TERRAINS = ("field", "city", "fortification", "siege")


def grid():
    """(name, attacker, defender, options) for every battle of the grid of extremes."""
    cases = []
    for (kind, units), policy, leadership, (att_mod, def_mod), terrain, rounds in itertools.product(
            ARMIES.items(), ("strength", "elites"), (0, 10), ((-5, -5), (0, 0), (5, 5), (-5, 5), (5, -5)),
            TERRAINS, (100, None)):
        defending = GARRISONS[kind] if terrain == "siege" else units
        attacker = Army(*units, leadership, policy, att_mod, att_mod)
        defender = Army(*defending, leadership, policy, def_mod, def_mod)
        name = (f"{kind} {policy} L{leadership} mod {att_mod:+d}/{def_mod:+d} {terrain} "
                f"{'to the end' if rounds is None else f'{rounds} rounds'}")
        cases.append((name, attacker, defender, {"terrain": terrain, "rounds": rounds}))
    # the new options at their most costly
    for (kind, units), policy, (att_mod, def_mod), rounds in itertools.product(
            ARMIES.items(), ("strength", "elites"), ((-5, -5), (0, 0)), (100, None)):
        for label, extra, army_extra in (
                ("withdraw after 50, 5 sieges", {"withdraw_after": 50, "siege_battles": 5}, {}),
                ("withdraw at once, 5 sieges", {"withdraw_after": 0, "siege_battles": 5}, {}),
                ("modifier in rounds 2-100", {}, {"modifier_rounds": "2-100"}),
                ("no Regulars to replace Elites", {}, {"replacement_regulars": 0})):
            attacker = Army(*units, 10, policy, att_mod, att_mod, **army_extra)
            defender = Army(*units, 10, policy, def_mod, def_mod, **army_extra)
            name = (f"{kind} {policy} L10 mod {att_mod:+d}/{def_mod:+d} field {label} "
                    f"{'to the end' if rounds is None else f'{rounds} rounds'}")
            cases.append((name, attacker, defender, {"rounds": rounds, **extra}))
    for (kind, units), policy in itertools.product(ARMIES.items(), ("strength", "elites")):
        attacker = Army(*units, 10, policy)
        defender = Army(*GARRISONS[kind], 10, policy)
        cases.append((f"{kind} {policy} L10 siege, 5 siege battles to the end", attacker, defender,
                      {"terrain": "siege", "siege_battles": 5}))
    return cases


def cold_runs(attacker, defender, options, repetitions, clock=time.perf_counter):
    runs = []
    for _ in range(repetitions):
        clear_caches()
        start = clock()
        battle(attacker, defender, **options)
        runs.append((clock() - start) * 1000)
    return runs


def warm_runs(attacker, defender, options, repetitions):
    battle(attacker, defender, **options)
    runs = []
    for _ in range(repetitions):
        start = time.perf_counter()
        battle(attacker, defender, **options)
        runs.append((time.perf_counter() - start) * 1000)
    return runs


def typical_table(repetitions):
    print(f"Typical and largest battles, {repetitions} runs each, milliseconds")
    header = f"{'battle':30} {'cold median':>11} {'cold best':>10} {'cached median':>13}"
    print(header)
    print("-" * len(header))
    medians = []
    for name, attacker, defender, options in TYPICAL + LARGEST:
        if name == LARGEST[0][0]:
            print(f"{'largest armies:':30}")
        cold = cold_runs(attacker, defender, options, repetitions)
        warm = warm_runs(attacker, defender, options, repetitions)
        if (name, attacker, defender, options) in TYPICAL:
            medians.append((statistics.median(cold), name))
        print(f"{name:30} {statistics.median(cold):11.2f} {min(cold):10.2f} {statistics.median(warm):13.3f}")
    slowest, which = max(medians)
    verdict = "meets" if slowest < TYPICAL_MS else "MISSES"
    print(f"typical: slowest cold median {slowest:.1f} ms ({which}) {verdict} the {TYPICAL_MS} ms goal")


def grid_table(repetitions, slowest):
    cases = grid()
    print(f"Grid of extremes: {len(cases)} battles, each cold, best of {repetitions} runs, milliseconds "
          f"(wall clock; and the process's own CPU time, which other work on the machine inflates less)")
    timed = []
    for name, attacker, defender, options in cases:
        wall = min(cold_runs(attacker, defender, options, repetitions))
        cpu = min(cold_runs(attacker, defender, options, repetitions, time.process_time))
        timed.append((wall, cpu, name))
    timed.sort(reverse=True)
    for label, column in (("wall", 0), ("CPU ", 1)):
        times = sorted(row[column] for row in timed)
        print(f"{label}: median {statistics.median(times):.1f}   p90 {times[int(0.9 * (len(times) - 1))]:.1f}   "
              f"worst {times[-1]:.1f}")
    print(f"slowest {slowest} (wall, CPU):")
    for wall, cpu, name in timed[:slowest]:
        print(f"  {wall:7.1f} {cpu:7.1f}  {name}")
    worst_wall, _, which = timed[0]
    verdict = "meets" if worst_wall < WORST_MS else "MISSES"
    print(f"worst: {worst_wall:.1f} ms wall ({which}) {verdict} the {WORST_MS} ms goal; "
          f"most CPU: {max(row[1] for row in timed):.1f} ms")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs per battle")
    parser.add_argument("--slowest", type=int, default=8, help="how many of the grid's slowest battles to list")
    args = parser.parse_args(argv)
    typical_table(3 if args.quick else 7)
    print()
    grid_table(1 if args.quick else 3, args.slowest)


if __name__ == "__main__":
    main()
