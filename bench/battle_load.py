"""Does a slow battle starve the workers? /healthz under two clients looping on battles.

Run: python bench/battle_load.py. Starts gunicorn (2 sync workers, as in load.py) and
measures /healthz with one wrk connection for a fixed time, three ways:

- alone, nothing else running;
- while two clients (wrk, 2 connections) loop on the slowest battle the API accepts: 10
  Elites a side keeping their Elites, no Leadership, every modifier at -5, in a
  Fortification, 100 rounds at most (the slowest of bench/wotr_battle.py's grid that the
  API's fields can ask for). After its first answer each worker serves it from its cache;
- while the two clients cycle through 180 variants of that battle (round limits 81 to 100,
  re-roll modifiers that change the request but not the work), more than a worker's
  battle cache holds, so every request is computed afresh.

Goal: /healthz p50 under 20 ms with the battles looping. The table also gives the battle
requests' own rate and latency, and the CPU other processes used meanwhile.
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from load import (Gunicorn, OtherCpu, machine_line, run_wrk, stop_on_sigterm, wait_for_quiet,  # noqa: E402
                  wrk_path)

DURATION = int(os.environ.get("BENCH_DURATION", "10"))
HEALTHZ_P50_GOAL_MS = 20
SIDE = ("{side}_regulars=0&{side}_elites=10&{side}_leadership=0&{side}_policy=elites&{side}_modifier=-5"
        "&{side}_modifier_rounds=all")


def slowest_battle(rounds=100, attacker_reroll=-5, defender_reroll=-5):
    return ("/api/wotr/battle?" + SIDE.format(side="attacker") + f"&attacker_reroll_modifier={attacker_reroll}&"
            + SIDE.format(side="defender") + f"&defender_reroll_modifier={defender_reroll}"
            + f"&terrain=fortification&rounds={rounds}")


def battle_variants():
    """Distinct requests for the same work: with no Leadership the re-roll modifier is never used."""
    return [slowest_battle(rounds, a, d)
            for rounds, a, d in itertools.product(range(81, 101), (-5, -4, -3), (-5, -4, -3))]


def measure(server, pids, battle_paths, duration):
    """(healthz result, battle result or None) with two clients looping on battle_paths meanwhile."""
    battles = {}
    looping = None
    if battle_paths:
        def loop():
            battles["result"] = run_wrk(server.base_url, battle_paths, duration + 2, connections=2, threads=1)

        looping = threading.Thread(target=loop)
        looping.start()
        threading.Event().wait(1)  # both clients busy before /healthz is measured
    with OtherCpu(pids) as other:
        healthz = run_wrk(server.base_url, ["/healthz"], duration, connections=1, threads=1)
    healthz["other_cores"] = other.cores
    if looping:
        looping.join()
    return healthz, battles.get("result")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=DURATION, help="seconds per measurement (default %(default)s)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS",
                        help="wait up to this long for other processes to leave the CPU idle (0: do not wait)")
    args = parser.parse_args(argv)
    stop_on_sigterm()
    wrk_path()
    quiet = wait_for_quiet(args.wait_quiet) if args.wait_quiet else None
    rows = []
    with tempfile.TemporaryDirectory(prefix="redbook-bench-battle-") as instance:
        server = Gunicorn(instance, workers=args.workers)
        try:
            server.start()
            server.wait_ready()
            pids = [server.process.pid] + server.wait_workers()
            for name, paths in (("alone", None), ("one slowest battle, looped", [slowest_battle()]),
                                ("180 distinct slow battles", battle_variants())):
                rows.append((name, paths) + measure(server, pids, paths, args.duration))
        finally:
            server.stop()

    print(f"/healthz while battles loop: gunicorn {args.workers} sync workers, /healthz by 1 wrk connection, "
          f"battles by 2 wrk connections, {args.duration} s each")
    print(f"  {machine_line()}" + (f"; other processes at start {quiet:.2f} cores" if quiet is not None else ""))
    print(f"  slowest battle: {slowest_battle()}")
    header = (f"{'battles looping':28} {'healthz p50 ms':>14} {'p99 ms':>7} {'req/s':>7} "
              f"{'battle req/s':>12} {'battle p50 ms':>13} {'errors':>6} {'other CPU':>9}")
    print(header)
    print("-" * len(header))
    for name, paths, healthz, battles in rows:
        errors = healthz["errors"] + healthz["status_errors"] + (battles["errors"] + battles["status_errors"]
                                                                  if battles else 0)
        battle_rate = f"{battles['rps']:12.1f}" if battles else f"{'-':>12}"
        battle_p50 = f"{battles['p50_us'] / 1000:13.1f}" if battles else f"{'-':>13}"
        print(f"{name:28} {healthz['p50_us'] / 1000:14.2f} {healthz['p99_us'] / 1000:7.2f} {healthz['rps']:7.1f} "
              f"{battle_rate} {battle_p50} {errors:6} {healthz['other_cores']:8.2f}c")
    worst = max(healthz["p50_us"] / 1000 for _, paths, healthz, _ in rows if paths)
    verdict = "meets" if worst < HEALTHZ_P50_GOAL_MS else "MISSES"
    print(f"\n/healthz p50 with battles looping: at most {worst:.1f} ms, {verdict} the < {HEALTHZ_P50_GOAL_MS} ms goal")


if __name__ == "__main__":
    main()
