"""Start-up time and worker memory under gunicorn (run: python bench/startup.py).

Start-up: the time from starting `gunicorn 'webapp:create_app(...)'` (2 sync workers, loopback)
to the first 200 answer from /api/search (a search: the index is built and answering), polled
every 10 ms. Measured with --preload, the documented way to serve (the master loads the
content and builds the index in memory once, then forks the workers), and without it (each
worker builds its own). Several starts each; median, best, worst.

Memory: after the last start the server is put under load with wrk (the search API cycling
through the distinct queries of bench/queries.py, then the search page, a rule page and the
10 v 10 battle); then VmHWM (peak resident set) and VmRSS of the master and of each worker are
read from /proc/<pid>/status.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from load import (BATTLE_10_V_10, RULE_PAGE, WORKERS, Gunicorn, machine_line, proc_status_kb,  # noqa: E402
                  run_wrk, split_queries, stop_on_sigterm, wait_for_quiet, wrk_path)

STARTS = 5
LOAD_SECONDS = 5  # per endpoint, for the memory reading


FIRST_ANSWER = "/api/search?q=combat+roll&game=wotr"


def start_once(instance, workers, preload):
    """Seconds from starting gunicorn to the first search answer; the server is stopped again."""
    server = Gunicorn(instance, workers=workers, preload=preload)
    try:
        server.start()
        return server.wait_ready(path=FIRST_ANSWER)
    finally:
        server.stop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=STARTS, help="starts per case (default %(default)s)")
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--load-seconds", type=int, default=LOAD_SECONDS, help="wrk seconds per endpoint before reading memory")
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS",
                        help="wait up to this long for other processes to leave the CPU idle (0: do not wait)")
    args = parser.parse_args(argv)
    stop_on_sigterm()
    wrk_path()
    queries, _ = split_queries()
    quiet = wait_for_quiet(args.wait_quiet) if args.wait_quiet else None

    preloaded, per_worker = [], []
    with tempfile.TemporaryDirectory(prefix="redbook-bench-startup-") as folder:
        for i in range(args.starts):
            preloaded.append(start_once(os.path.join(folder, f"preload-{i}"), args.workers, True))
            per_worker.append(start_once(os.path.join(folder, f"workers-{i}"), args.workers, False))

        # memory after a load, served the documented way
        server = Gunicorn(os.path.join(folder, "memory"), workers=args.workers)
        try:
            server.start()
            server.wait_ready()
            workers = server.wait_workers()
            run_wrk(server.base_url, ["/healthz"], 1)  # every worker has booted and answered
            fresh = {pid: proc_status_kb(pid, "VmRSS") for pid in [server.process.pid] + workers}
            for paths in ([q.path("/api/search") for q in queries], [q.path("/search") for q in queries],
                          [RULE_PAGE], [BATTLE_10_V_10]):
                run_wrk(server.base_url, paths, args.load_seconds)
            memory = [(label, pid, fresh[pid], proc_status_kb(pid, "VmRSS"), proc_status_kb(pid, "VmHWM"))
                      for label, pid in [("master", server.process.pid)] + [(f"worker {n + 1}", p) for n, p in enumerate(workers)]]
            same_workers = server.worker_pids() == workers
        finally:
            server.stop()

    print(f"Start-up: gunicorn {args.workers} sync workers, from exec to the first answer from {FIRST_ANSWER}, "
          f"{args.starts} starts each, seconds (target: under 2 s with --preload)")
    print(f"  {machine_line()}" + (f"; other processes at start {quiet:.2f} cores" if quiet is not None else ""))
    header = f"{'case':44} {'median':>7} {'best':>7} {'worst':>7}"
    print(header)
    print("-" * len(header))
    for name, runs in (("--preload (index built once, in the master)", preloaded),
                       ("without --preload (each worker builds it)", per_worker)):
        print(f"{name:44} {statistics.median(runs):7.2f} {min(runs):7.2f} {max(runs):7.2f}")
    print()
    print(f"Memory after {args.load_seconds} s of wrk on each of /api/search, /search, a rule page and the 10 v 10 battle, MiB")
    header = f"{'process':10} {'pid':>8} {'RSS booted':>10} {'RSS now':>8} {'peak (VmHWM)':>13}"
    print(header)
    print("-" * len(header))
    for label, pid, idle, now, peak in memory:
        print(f"{label:10} {pid:8} {idle / 1024:10.1f} {now / 1024:8.1f} {peak / 1024:13.1f}")
    if not same_workers:
        print("WARNING: a worker was restarted during the load; its peak is lost")


if __name__ == "__main__":
    main()
