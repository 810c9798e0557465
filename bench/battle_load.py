"""Does a slow battle starve the workers? /healthz under two clients looping on battles.

Run: python bench/battle_load.py. First finds the slowest request the battle API accepts:
the slowest requests of bench/wotr_battle.py's grid (10 Elites a side keeping their Elites,
no Leadership, every modifier at -5; standing and withdrawing compared, with 5 siege battles,
the attacker with or without 5 Regulars at hand, 100 rounds at most or to the end; and the
slowest plain battle), each answered in process by the app (Flask's test client, the
engine's caches cleared first, best of 3 by CPU time). Then starts gunicorn (2 sync
workers, as in load.py) and measures /healthz with one wrk connection for a fixed time,
three ways:

- alone, nothing else running;
- while two clients (wrk, 2 connections) loop on that slowest request. After its first
  answer each worker serves it from its cache;
- while the two clients cycle through 182 variants of it that change the request but not the
  work (the defender's Regulars at hand to replace Elites: blank, or 10 to 99, all of them
  enough for 10 Elites; the attacker's re-roll modifier at -5 or -4, with no Leadership to
  re-roll), more than a worker's 128-battle cache holds, so every request is solved afresh.

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
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from load import (ROOT, Gunicorn, OtherCpu, machine_line, run_wrk, stop_on_sigterm, wait_for_quiet,  # noqa: E402
                  wrk_path)

DURATION = int(os.environ.get("BENCH_DURATION", "10"))
HEALTHZ_P50_GOAL_MS = 20
ARMY = ("{side}_regulars=0&{side}_elites=10&{side}_leadership=0&{side}_policy=elites&{side}_modifier=-5"
        "&{side}_reroll_modifier={reroll}&{side}_modifier_rounds={window}&{side}_replacement_regulars={at_hand}")
# the slowest requests of bench/wotr_battle.py's grid, as the API asks for them; `window` sets both
# Armies' modifier rounds, `attacker_at_hand` the attacker's Regulars at hand
CANDIDATES = {
    "compare: withdraw after 3 rounds, 5 siege battles, 100 rounds, attacker with 5 Regulars at hand":
        "terrain=field&defender_choice=compare&withdraw_after=3&siege_battles=5&siege_continue=true&rounds=100&attacker_at_hand=5",
    "compare: withdraw before round 1, 5 siege battles, 100 rounds, attacker with 5 Regulars at hand":
        "terrain=field&defender_choice=compare&withdraw_after=0&siege_battles=5&siege_continue=true&rounds=100&attacker_at_hand=5",
    "compare: withdraw after 3 rounds, 5 siege battles, 100 rounds":
        "terrain=field&defender_choice=compare&withdraw_after=3&siege_battles=5&siege_continue=true&rounds=100",
    "compare: withdraw before round 1, 5 siege battles, 100 rounds":
        "terrain=field&defender_choice=compare&withdraw_after=0&siege_battles=5&siege_continue=true&rounds=100",
    "compare: withdraw after 50 rounds, 5 siege battles, 100 rounds":
        "terrain=field&defender_choice=compare&withdraw_after=50&siege_battles=5&siege_continue=true&rounds=100",
    "compare: withdraw after 3 rounds, 5 siege battles, 100 rounds, modifiers from round 2":
        "terrain=field&defender_choice=compare&withdraw_after=3&siege_battles=5&siege_continue=true&rounds=100&window=2-",
    "stand: Fortification, 100 rounds": "terrain=fortification&defender_choice=stand&rounds=100",
}


def battle_path(battle, defender_at_hand="", attacker_reroll=-5):
    """The API request for one of CANDIDATES' battles."""
    options = dict(option.split("=") for option in battle.split("&"))
    window = options.pop("window", "all")
    attacker_at_hand = options.pop("attacker_at_hand", "")
    return ("/api/wotr/battle?"
            + ARMY.format(side="attacker", reroll=attacker_reroll, window=window, at_hand=attacker_at_hand) + "&"
            + ARMY.format(side="defender", reroll=-5, window=window, at_hand=defender_at_hand) + "&"
            + "&".join(f"{name}={value}" for name, value in options.items()))


def battle_variants(battle):
    """Distinct requests for the same work: 10 or more Regulars at hand never run out for 10 Elites,
    and with no Leadership the re-roll modifier is never used."""
    return [battle_path(battle, defender_at_hand, attacker_reroll)
            for defender_at_hand, attacker_reroll in itertools.product(["", *range(10, 100)], (-5, -4))]


def slowest_request(repetitions=3):
    """[(CPU ms, name, battle)] for CANDIDATES answered in process, slowest first."""
    sys.path.insert(0, ROOT)
    from webapp import create_app
    from webapp.engines.wotr_battle import clear_caches

    with tempfile.TemporaryDirectory(prefix="redbook-bench-battle-") as instance:
        client = create_app({"INSTANCE_PATH": instance}).test_client()
        timed = []
        for name, battle in CANDIDATES.items():
            runs = []
            for _ in range(repetitions):
                clear_caches()
                start = time.process_time()
                response = client.get(battle_path(battle))
                runs.append((time.process_time() - start) * 1000)
                if response.status_code != 200:
                    raise SystemExit(f"{name}: {response.status_code} {response.get_data(as_text=True)[:300]}")
            timed.append((min(runs), name, battle))
    return sorted(timed, reverse=True)


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
    candidates = slowest_request()
    _, slowest_name, slowest = candidates[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="redbook-bench-battle-") as instance:
        server = Gunicorn(instance, workers=args.workers)
        try:
            server.start()
            server.wait_ready()
            pids = [server.process.pid] + server.wait_workers()
            for name, paths in (("alone", None), ("the slowest request, looped", [battle_path(slowest)]),
                                (f"{len(battle_variants(slowest))} distinct slowest", battle_variants(slowest))):
                rows.append((name, paths) + measure(server, pids, paths, args.duration))
        finally:
            server.stop()

    print("The slowest battle requests, answered in process (engine caches cleared, best of 3, CPU ms):")
    for ms, name, _ in candidates:
        print(f"  {ms:6.1f}  {name}")
    print(f"\n/healthz while battles loop: gunicorn {args.workers} sync workers, /healthz by 1 wrk connection, "
          f"battles by 2 wrk connections, {args.duration} s each")
    print(f"  {machine_line()}" + (f"; other processes at start {quiet:.2f} cores" if quiet is not None else ""))
    print(f"  slowest request: {slowest_name}: {battle_path(slowest)}")
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
