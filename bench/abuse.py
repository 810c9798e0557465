"""Abusive clients against the production setup (run: python bench/abuse.py).

Starts gunicorn with deploy/gunicorn.conf.py (2 sync workers) and Debian's nginx in front of it,
rendered from deploy/nginx-site.conf.j2, both on loopback ports. Loopback has many addresses
(127.0.0.2, 127.0.0.3, ...), so each client below has an address of its own, as nginx's limits
per address see them. Then:

- **At the calculators' limit.** 8 addresses each ask for the API's slowest battle at exactly the
  calculators' rate (deploy/render.py's LIMITS), every request a different one so no cache answers
  (10 Elites a side, modifiers for rounds 1-99, standing and withdrawing after 3 rounds compared,
  5 siege battles, the attacker downgrading Elites: varied only by Regulars at hand that never run
  out), for --seconds; /healthz is asked meanwhile from another address every 20 ms. Its p50, p99
  and max, how the battles were answered, and /healthz alone before.
- **Slow connections.** One address opens 300 connections that never finish their headers (a
  byte more every second) and 300 that never finish a body; another address meanwhile asks for
  /healthz, a rule page and a calculator every half second. How many of the slow ones nginx
  took, refused (429) and closed, when, and how the other address was answered.

The tests in tests/test_deploy.py run the same clients (these functions) and assert on them.
"""
from __future__ import annotations

import argparse
import http.client
import itertools
import os
import socket
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "deploy"))
sys.path.insert(0, BENCH)

ABUSERS = [f"127.0.0.{number}" for number in range(2, 10)]  # 8 addresses
PROBE_EVERY = 0.02  # seconds between two /healthz probes
ARMY = ("{side}_regulars=0&{side}_elites=10&{side}_leadership=0&{side}_policy=elites&{side}_modifier=-5"
        "&{side}_reroll_modifier=-5&{side}_modifier_rounds=1-99&{side}_replacement_regulars={at_hand}")
SLOWEST = "terrain=field&defender_choice=compare&withdraw_after=3&siege_battles=5&siege_continue=true"
SLOW_HEADER = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
SLOW_BODY = (b"POST /wotr/combat-round HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 60000\r\n\r\n{")


def slowest_battles():
    """Distinct requests for the API's slowest battle: 10 or more Regulars at hand never run out for 10
    Elites, so each asks for the same work under another address (8,281 of them)."""
    for attacker, defender in itertools.product(["", *range(10, 100)], repeat=2):
        yield ("/api/wotr/battle?" + ARMY.format(side="attacker", at_hand=attacker) + "&"
               + ARMY.format(side="defender", at_hand=defender) + "&" + SLOWEST)


def per_second(rate):
    """nginx's rate ("1r/s", "30r/m") in requests a second."""
    number, unit = rate.removesuffix("r/s").removesuffix("r/m"), rate[-1]
    return float(number) / (60 if unit == "m" else 1)


def timed_get(port, path, source="127.0.0.1", timeout=10.0):
    """(status, ms) of a GET on a new connection from `source`; status is the error's name when none came."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, (time.perf_counter() - start) * 1000
    except OSError as error:
        return type(error).__name__, (time.perf_counter() - start) * 1000
    finally:
        connection.close()


def probe_healthz(port, seconds, source="127.0.0.1"):
    """/healthz latencies (ms) over `seconds`, one probe every PROBE_EVERY; a failed probe counts as infinite."""
    latencies = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        status, ms = timed_get(port, "/healthz", source, timeout=30)
        latencies.append(ms if status == 200 else float("inf"))
        time.sleep(PROBE_EVERY)
    return latencies


def at_the_limit(port, rate, seconds, paths, sources=ABUSERS):
    """Each source asks for the next of `paths` `rate` times a second (its phase spread from the
    others'), each request on its own connection, for `seconds`, while /healthz is probed.

    Returns (healthz latencies, {status: count} of the sources' answers, their latencies).
    """
    paths = iter(paths)
    lock = threading.Lock()
    answers, latencies = {}, []
    stop = time.monotonic() + seconds

    def client(index, source, pool):
        tick = time.monotonic() + index / (len(sources) * rate)
        asked = []
        while tick < stop:
            time.sleep(max(0.0, tick - time.monotonic()))
            with lock:
                path = next(paths)
            asked.append(pool.submit(timed_get, port, path, source, 60))
            tick += 1 / rate
        for future in asked:
            status, ms = future.result()
            with lock:
                answers[status] = answers.get(status, 0) + 1
                latencies.append(ms)

    with ThreadPoolExecutor(max_workers=len(sources) * 8) as pool:
        clients = [threading.Thread(target=client, args=(index, source, pool)) for index, source in enumerate(sources)]
        for thread in clients:
            thread.start()
        healthz = probe_healthz(port, seconds)
        for thread in clients:
            thread.join()
    return healthz, answers, latencies


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# --------------------------------------------------------------------------- slow connections

def open_slow(port, source, start, count):
    """`count` connections from `source` that each send `start` and no more for now."""
    opened = []
    for _ in range(count):
        connection = socket.socket()
        connection.bind((source, 0))
        try:
            connection.connect(("127.0.0.1", port))
            connection.sendall(start)
        except OSError:
            connection.close()
            continue
        connection.setblocking(False)
        opened.append(connection)
    return opened


def what_nginx_did(connection):
    """"open" while nginx waits for more, "closed" once it closed the connection, or the status it
    answered (the answer read, so ask once: SlowClients keeps it)."""
    try:
        data = connection.recv(4096)
    except BlockingIOError:
        return "open"
    except OSError:
        return "closed"
    if not data:
        return "closed"
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else "answered"


class SlowClients:
    """300 slow-header and 300 slow-body connections from one address, a byte more on each every second."""

    def __init__(self, port, source, count=300):
        self.started = time.monotonic()
        self.connections = {"headers": open_slow(port, source, SLOW_HEADER, count),
                            "bodies": open_slow(port, source, SLOW_BODY, count)}
        self.done = {"headers": {}, "bodies": {}}  # connection -> (what nginx did, after how many seconds)

    def tick(self):
        """Note what nginx did with each connection still waiting, and send each a byte more."""
        now = time.monotonic() - self.started
        for kind, connections in self.connections.items():
            for connection in connections:
                if connection in self.done[kind]:
                    continue
                state = what_nginx_did(connection)
                if state != "open":
                    self.done[kind][connection] = (state, now)
                    continue
                try:
                    connection.send(b"a" if kind == "headers" else b" ")
                except OSError:
                    self.done[kind][connection] = ("closed", now)

    def held(self, kind):
        return len(self.connections[kind]) - len(self.done[kind])

    def refused(self, kind):
        return sum(1 for state, _ in self.done[kind].values() if state == 429)

    def closed_at(self, kind):
        """When nginx closed each connection it had not answered, in seconds from the start."""
        return sorted(when for state, when in self.done[kind].values() if state == "closed")

    def close(self):
        for connections in self.connections.values():
            for connection in connections:
                connection.close()


def served_beside_slow_clients(port, seconds, slow_source="127.0.0.2", source="127.0.0.3", paths=None):
    """Another address's answers [(second, path, status, ms)] while SlowClients hold `slow_source`'s, and the
    SlowClients (closed) with what nginx did to each connection."""
    paths = paths or ["/healthz", "/wotr/combat-round", "/api/wotr/roll?strength=3&hit=5"]
    slow = SlowClients(port, slow_source)
    answers = []
    try:
        for step in range(int(seconds * 2)):
            slow.tick()
            path = paths[step % len(paths)]
            status, ms = timed_get(port, path, source, timeout=5)
            answers.append((round(time.monotonic() - slow.started, 1), path, status, ms))
            time.sleep(max(0.0, slow.started + (step + 1) / 2 - time.monotonic()))
        slow.tick()
    finally:
        slow.close()
    return answers, slow


# --------------------------------------------------------------------------- the benchmark

def report_limit(port, rate, seconds):
    alone = probe_healthz(port, 3)
    healthz, answers, latencies = at_the_limit(port, rate, seconds, slowest_battles())
    print(f"8 addresses at the calculators' limit ({rate:g} a second each) on the API's slowest battle, {seconds} s:")
    print(f"  /healthz alone:        p50 {percentile(alone, 0.5):6.1f}  p99 {percentile(alone, 0.99):6.1f}  "
          f"max {max(alone):6.1f} ms ({len(alone)} probes)")
    print(f"  /healthz meanwhile:    p50 {percentile(healthz, 0.5):6.1f}  p99 {percentile(healthz, 0.99):6.1f}  "
          f"max {max(healthz):6.1f} ms ({len(healthz)} probes)")
    print(f"  the battles:           p50 {percentile(latencies, 0.5):6.1f}  p99 {percentile(latencies, 0.99):6.1f}  "
          f"ms; answers {dict(sorted(answers.items(), key=str))}")


def report_slow(port, seconds):
    answers, slow = served_beside_slow_clients(port, seconds)
    print(f"\n300 slow-header and 300 slow-body connections from 127.0.0.2 (a byte more each second), {seconds} s:")
    for kind in ("headers", "bodies"):
        closed = slow.closed_at(kind)
        print(f"  slow {kind:8} opened {len(slow.connections[kind]):3}, refused at once (429) {slow.refused(kind):3}, "
              f"closed by nginx {len(closed):3}" + (f" (from {closed[0]:.1f} to {closed[-1]:.1f} s)" if closed else "")
              + f", still held {slow.held(kind):3}")
    good = [ms for _, _, status, ms in answers if status == 200]
    print(f"  127.0.0.3 meanwhile:   {len(good)} of {len(answers)} answered 200"
          + (f", median {percentile(good, 0.5):.1f} ms, max {max(good):.1f} ms" if good else ""))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="seconds of each run (default %(default)s)")
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS")
    args = parser.parse_args(argv)
    import render  # noqa: E402  (deploy/render.py)
    from load import machine_line, stop_on_sigterm, wait_for_quiet
    from proxy import behind_nginx

    stop_on_sigterm()
    quiet = wait_for_quiet(args.wait_quiet) if args.wait_quiet else None
    with tempfile.TemporaryDirectory(prefix="redbook-bench-abuse-") as folder, behind_nginx(folder, 2) as (_, port):
        print(f"{machine_line()}" + (f"; other processes at start {quiet:.2f} cores" if quiet is not None else ""))
        report_limit(port, per_second(render.LIMITS["calculator_rate"]), args.seconds)
        report_slow(port, args.seconds + 2)


if __name__ == "__main__":
    main()
