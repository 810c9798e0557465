"""The production setup of deploy/, run here: Debian's nginx from the rendered template in front of
gunicorn with deploy/gunicorn.conf.py, both on loopback ports (each client below has a loopback
address of its own, 127.0.0.2, 127.0.0.3, ..., as nginx's limits per address see them).

Slow clients must not hold a worker, and no address can take the connections or the workers from the
others: 8 addresses at the calculators' limit leave /healthz fast, one address's 300 slow connections
leave another's answered. Compression and 304s work through nginx as from gunicorn alone; what nginx
answers itself says what it is (JSON on the API, Retry-After, HSTS over HTTPS, no version); a reload
serves the new build whole or not at all. The figures behind these are printed by bench/abuse.py.
"""
import gzip
import http.client
import json
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from webapp import PROJECT_ROOT
from webapp.api.calculators import UNREADABLE_BODY

DEPLOY = PROJECT_ROOT / "deploy"
sys.path.insert(0, str(DEPLOY))
sys.path.insert(0, str(PROJECT_ROOT / "bench"))
import render  # noqa: E402  (deploy/render.py)
import abuse  # noqa: E402  (bench/abuse.py: the abusive clients, shared with the benchmark)
import load  # noqa: E402  (bench/load.py: the CPU other processes use)

pytestmark = pytest.mark.deploy

RULE_PAGE = "/wotr/combat-round"
CALCULATOR = "/api/wotr/roll?strength=1&hit=5"
HEALTHZ_P99_MS = 50
GUNICORN = Path(sys.executable).with_name("gunicorn")  # the console script, as the unit's ExecStart runs it


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path, headers=None, source="127.0.0.1", method="GET", body=None, timeout=5):
    """(status, headers, body) of one request on a new connection from the `source` address."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def gunicorn_instance(tmp_path_factory):
    return tmp_path_factory.mktemp("deploy-instance")


@pytest.fixture(scope="module")
def gunicorn(gunicorn_instance):
    """gunicorn as deploy/redbook.service runs it (its config file, trusted hosts), on a free port."""
    instance = gunicorn_instance
    port = free_port()
    app = f"webapp:create_app({{'INSTANCE_PATH': {str(instance)!r}}})"
    env = {**os.environ, "FLASK_TRUSTED_HOSTS": '["127.0.0.1"]'}
    log = open(instance / "gunicorn.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}",
         "--workers", "2", app],
        cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if get(port, "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, (instance / "gunicorn.log").read_text()
            time.sleep(0.05)
        yield SimpleNamespace(port=port, pid=process.pid)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
        log.close()


def self_signed_certificate(folder):
    """(certificate, key) for 127.0.0.1, made with openssl for the HTTPS listener."""
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(key), "-out", str(certificate), "-days", "1", "-subj", "/CN=127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return certificate, key


def with_https(site, port, certificate, key):
    """The site with an HTTPS listener added to its server block, as certbot's nginx plugin adds one."""
    lines = (f"    listen 127.0.0.1:{port} ssl;\n    ssl_certificate {certificate};\n"
             f"    ssl_certificate_key {key};\n")
    return re.sub(r"(^    server_name .*;\n)", lambda found: found.group(1) + lines, site, count=1, flags=re.M)


@pytest.fixture(scope="module")
def gunicorn_port(gunicorn):
    return gunicorn.port


@pytest.fixture(scope="module")
def nginx(gunicorn_port, tmp_path_factory):
    """nginx on free ports, its configuration rendered from deploy/nginx-site.conf.j2, with an HTTPS
    listener beside the plain one."""
    if not shutil.which("nginx") and not Path("/usr/sbin/nginx").exists():
        pytest.fail("Debian's nginx is missing: bash tests/run.sh installs it")
    prefix = tmp_path_factory.mktemp("nginx")
    port, tls_port = free_port(), free_port()
    site = render.site_config(server_name="127.0.0.1", listen=f"127.0.0.1:{port}", upstream=f"127.0.0.1:{gunicorn_port}")
    site = with_https(site, tls_port, *self_signed_certificate(prefix))
    process = render.start_nginx(render.standalone_config(site, prefix), prefix, port)
    yield SimpleNamespace(port=port, tls_port=tls_port, pid=process.pid)
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def nginx_port(nginx):
    return nginx.port


def slow_header_connection(port):
    """A connection that starts a request and never finishes its headers."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return connection


def test_slow_header_connections_do_not_hold_the_workers(nginx_port, gunicorn_port):
    slow = [slow_header_connection(nginx_port) for _ in range(2)]
    try:
        time.sleep(0.2)
        for _ in range(5):
            status, _, body = get(nginx_port, "/healthz", timeout=5)
            assert status == 200 and json.loads(body) == {"status": "ok"}
    finally:
        for connection in slow:
            connection.close()
    # the same two connections straight to gunicorn's two sync workers hold both of them
    slow = [slow_header_connection(gunicorn_port) for _ in range(2)]
    try:
        time.sleep(0.2)
        with pytest.raises(socket.timeout):
            get(gunicorn_port, "/healthz", timeout=1)
    finally:
        for connection in slow:
            connection.close()
    assert get(gunicorn_port, "/healthz")[0] == 200


@pytest.mark.parametrize("through", ["nginx", "gunicorn"])
def test_a_rule_page_comes_gzipped_with_an_etag_and_revalidates_to_304(nginx_port, gunicorn_port, through):
    port = nginx_port if through == "nginx" else gunicorn_port
    status, plain_headers, plain = get(port, RULE_PAGE)
    assert status == 200 and plain_headers["Content-Encoding"] is None
    status, headers, packed = get(port, RULE_PAGE, {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed) == plain and len(packed) < len(plain) / 3
    etag = headers["ETag"]
    assert etag and etag == plain_headers["ETag"]
    status, headers, body = get(port, RULE_PAGE, {"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert status == 304 and body == b"" and headers["ETag"] == etag


def test_nginx_serves_static_files_gzipped_and_immutable_only_at_their_hash(nginx_port, gunicorn_port):
    html = get(gunicorn_port, "/")[2].decode()
    url = re.search(r'href="(/static/style\.css\?v=[0-9a-f]+)"', html).group(1)
    status, headers, body = get(nginx_port, url, {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == (PROJECT_ROOT / "static" / "style.css").read_bytes()
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    for other in ("/static/style.css?v=0000000000", "/static/style.css"):
        assert get(nginx_port, other)[1]["Cache-Control"] == "no-cache"


def at_once(port, paths, source, wait=2.0):
    """Send every request at once from `source`, each on its own connection; [(status, headers, body)] of
    those answered within `wait` seconds (the rest, delayed by nginx, are dropped unread)."""
    connections = []
    for path in paths:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=wait, source_address=(source, 0))
        connection.request("GET", path)
        connections.append(connection)
    answers = []
    deadline = time.monotonic() + wait
    for connection in connections:
        try:
            connection.sock.settimeout(max(0.01, deadline - time.monotonic()))
            response = connection.getresponse()
            answers.append((response.status, response.headers, response.read()))
        except OSError:
            pass  # still waiting its turn
        finally:
            connection.close()
    return answers


def distinct_roll(number):
    """The number-th of 20 different combat roll requests (the API, like the page, refuses a parameter it does
    not have)."""
    return f"/api/wotr/roll?strength={1 + number % 10}&hit={5 + number // 10 % 2}"


@pytest.mark.parametrize("path, source, over", [
    (distinct_roll, "127.0.0.20", render.LIMITS["calculator_burst"] + 5),  # the calculators' zone
    (lambda number: f"/api/search?q=combat+{number}", "127.0.0.21", render.LIMITS["search_burst"] + 10),  # search's
])
def test_a_client_over_the_rate_limit_gets_a_json_429_while_others_are_served(nginx_port, path, source, over):
    answers = at_once(nginx_port, [path(number) for number in range(over)], source)
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    assert refused and {status for status, _, _ in answers} <= {200, 429}
    for headers, body in refused:  # nginx's own answer, in the API's words (the OpenAPI document lists it)
        assert headers["Content-Type"] == "application/json"
        assert headers["Retry-After"] == str(render.LIMITS["retry_after"])
        assert list(json.loads(body)) == ["error"] and json.loads(body)["error"].startswith("too many requests")
    # another address is served at once, and the busy one still reads rules
    assert get(nginx_port, CALCULATOR, source="127.0.0.22")[0] == 200
    assert get(nginx_port, RULE_PAGE, source=source)[0] == 200


def test_a_page_over_the_rate_limit_says_so_with_retry_after(nginx_port):
    pages = [distinct_roll(number).replace("/api/wotr/roll", "/wotr/calc/roll") for number in range(16)]
    answers = at_once(nginx_port, pages, "127.0.0.23")
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    assert refused and {status for status, _, _ in answers} <= {200, 429}  # the others are answered
    for headers, body in refused:
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert headers["Retry-After"] == str(render.LIMITS["retry_after"])
        assert b"<h1>Too many requests</h1>" in body and b"nginx" not in body


def test_nginx_limits_request_sizes_and_the_app_refuses_the_64_kb_post(nginx_port):
    path = "/api/wotr-cards/path-combat"
    big = json.dumps({"shadow_attack_icons": 99, "path_defence": 0, "defenders": [0] * 32_700},
                     separators=(",", ":")).encode()
    assert len(big) <= 64 * 1024
    status, _, body = get(nginx_port, path, {"Content-Type": "application/json"}, method="POST", body=big,
                          source="127.0.0.4")
    assert status == 400 and json.loads(body)["error"].startswith(("defenders:", "body:"))
    status, headers, body = get(nginx_port, path, {"Content-Type": "application/json"}, method="POST",
                                body=b" " * (64 * 1024 + 1), source="127.0.0.4")
    # nginx refuses it before the app sees it, in the app's own words (the OpenAPI document lists it)
    assert status == 413 and headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"error": "body: larger than the 65536 bytes allowed"}
    status, _, _ = get(nginx_port, "/wotr/combat-round?" + "q" * 9000)
    assert status == 414


def test_forged_hosts_are_refused_and_redirects_stay_on_the_site(nginx_port):
    assert get(nginx_port, "/wotr/", {"Host": "evil.example"})[0] == 400
    status, headers, _ = get(nginx_port, "/wotr/calc")
    assert status == 308 and headers["Location"] == "/wotr/calc/"


def test_the_service_runs_the_configuration_tested_here():
    unit = (DEPLOY / "redbook.service").read_text()
    command = shlex.split(re.search(r"^ExecStart=(.+)$", unit, re.M).group(1))
    assert command[0].endswith("/gunicorn") and command[1:3] == ["-c", "deploy/gunicorn.conf.py"]
    assert command[-1] == "webapp:create_app()"
    assert re.search(r"^Environment='FLASK_TRUSTED_HOSTS=\[.+\]'$", unit, re.M)
    if shutil.which("systemd-analyze"):  # every directive is known and well formed
        checked = subprocess.run(["systemd-analyze", "verify", str(DEPLOY / "redbook.service")],
                                 capture_output=True, text=True, timeout=60)
        problems = [line for line in checked.stderr.splitlines() if "is not executable" not in line]
        assert not problems, problems


def test_the_docs_describe_the_production_setup():
    docs = (PROJECT_ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    found = re.search(r"^## Running it for a club or on the internet\n(.*?)(?=^## |\Z)", docs, re.S | re.M)
    assert found, "docs/deployment.md has no 'Running it for a club or on the internet' section"
    section = found.group(1)
    for path in sorted(DEPLOY.iterdir()):
        if path.is_file():
            assert f"deploy/{path.name}" in section, path.name
    for setting in ("TRUSTED_HOSTS", "PROXY_FIX", "MAX_CONTENT_LENGTH"):
        assert f"FLASK_{setting}" in section, setting
    limits = {key: str(value).removesuffix("r/s") for key, value in render.LIMITS.items()}
    assert f"{limits['calculator_rate']} request a second, with bursts of {limits['calculator_burst']}" in section
    assert f"{limits['search_rate']} a second with bursts of {limits['search_burst']}" in section
    assert f"{limits['connections']} requests in progress at once" in section
    for directive in ("client_header_timeout", "client_body_timeout", "limit_conn", "server_tokens off",
                      "Strict-Transport-Security", "certbot", "USR2"):
        assert directive in section, directive


# --------------------------------------------------------------------------- what nginx says of itself


def https_get(port, path):
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the test's own self-signed certificate
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=5, context=context)
    try:
        connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("path", [RULE_PAGE, CALCULATOR, "/static/style.css", "/no/such/page"])
def test_hsts_over_https_only(nginx, path):
    status, headers, _ = https_get(nginx.tls_port, path)
    assert status in (200, 404) and headers.get_all("Strict-Transport-Security") == ["max-age=31536000"]
    status, headers, _ = get(nginx.port, path)
    assert status in (200, 404) and "Strict-Transport-Security" not in headers  # never over plain HTTP


def test_nginx_names_no_version(nginx_port):
    for path in (RULE_PAGE, "/static/style.css", "/wotr/combat-round?" + "q" * 9000):
        status, headers, body = get(nginx_port, path)
        assert headers["Server"] == "nginx", (path, status)
        assert b"nginx/" not in body  # nginx's own error pages (the 414 here) name no version either


@pytest.mark.parametrize("path", [RULE_PAGE, CALCULATOR, "/static/style.css", "/no/such/page", "/api/no-such",
                                  "/wotr/calc/roll?strength=x&hit=5", "/healthz"])
def test_one_vary_header(nginx_port, path):
    """The app says Vary: Accept-Encoding on what it answers; nginx only on the static files it compresses."""
    status, headers, _ = get(nginx_port, path, {"Accept-Encoding": "gzip"})
    assert status in (200, 400, 404)
    assert headers.get_all("Vary") == ["Accept-Encoding"], (path, headers.get_all("Vary"))


@pytest.mark.parametrize("chunk", [b"-5", b"zz"])
def test_a_bad_chunk_size_straight_to_gunicorn_is_a_400(gunicorn_port, chunk):
    """gunicorn alone, behind no proxy, hands the app a body it cannot read: the app says so (nginx would
    refuse such a request itself)."""
    with socket.create_connection(("127.0.0.1", gunicorn_port), timeout=10) as connection:
        connection.sendall(b"POST /api/wotr-cards/victory HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                           b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                           + chunk + b"\r\n{}\r\n0\r\n\r\n")
        response = http.client.HTTPResponse(connection)
        response.begin()
        assert response.status == 400 and json.loads(response.read()) == {"error": UNREADABLE_BODY}


def test_the_master_warmed_and_froze_the_app_before_forking(gunicorn_port, gunicorn_instance):
    log = (gunicorn_instance / "gunicorn.log").read_text()
    ready = re.search(r"\[INFO\] ready to serve: (\d+) pages and (\d+) searches warmed, ([\d,]+) objects frozen", log)
    assert ready, log
    assert int(ready.group(1)) >= 13 and int(ready.group(2)) >= 500 and int(ready.group(3).replace(",", "")) > 100_000
    assert log.index("ready to serve") < log.index("Booting worker")


# --------------------------------------------------------------------------- abusive clients


def test_eight_addresses_at_the_calculators_limit_leave_healthz_fast(nginx, gunicorn):
    """Each of 8 addresses asks for the API's slowest battle at exactly the calculators' rate, every request
    a different one (no cache helps), while /healthz is probed every 20 ms from another address.

    Other work on this machine slows /healthz as well, which no limit of ours could help: a run during
    which other processes kept the CPU busy is tried again, and after three such runs the test is skipped.
    A run on a quiet machine that misses the goal fails."""
    rate = abuse.per_second(render.LIMITS["calculator_rate"])
    battles = abuse.slowest_battles()
    busy = []
    for _ in range(3):
        ours = [gunicorn.pid, *children(gunicorn.pid), nginx.pid, *children(nginx.pid)]
        with load.OtherCpu(ours) as other:
            healthz, answers, _ = abuse.at_the_limit(nginx.port, rate, 10, battles)
        assert answers == {200: len(abuse.ABUSERS) * 10 * rate}  # each within its limit: all answered
        p50, p99 = abuse.percentile(healthz, 0.5), abuse.percentile(healthz, 0.99)
        if p99 < HEALTHZ_P99_MS:
            return
        assert other.cores >= load.QUIET_CORES, f"/healthz p50 {p50:.1f} ms, p99 {p99:.1f} ms on a quiet machine"
        busy.append(f"p99 {p99:.0f} ms with other processes on {other.cores:.1f} cores")
    pytest.skip("the machine was too busy to measure: " + "; ".join(busy))


def test_slow_connections_from_one_address_leave_another_answered(nginx_port):
    """300 connections from 127.0.0.2 never finish their headers and 300 never finish a body, each sending a
    byte more every second; 127.0.0.3 is answered all along."""
    answers, slow = abuse.served_beside_slow_clients(nginx_port, 12)
    assert [status for _, _, status, _ in answers] == [200] * len(answers)
    # headers in 10 s in all, however they trickle: every slow header was closed, none before that
    header_timeout = int(render.LIMITS["header_timeout"].removesuffix("s"))
    closed = slow.closed_at("headers")
    assert len(closed) == len(slow.connections["headers"]) == 300
    assert header_timeout - 0.5 <= closed[0] and closed[-1] <= header_timeout + 1.5
    # bodies: at most the limit of requests in progress are held, the rest refused at once
    assert len(slow.connections["bodies"]) == 300 and slow.held("bodies") == render.LIMITS["connections"]
    assert slow.refused("bodies") == 300 - render.LIMITS["connections"]


# --------------------------------------------------------------------------- reload


def copy_of_the_project(target):
    """What the service runs from, copied: the code, templates, static files, content and deploy/."""
    for name in ("webapp", "templates", "static", "content", "deploy"):
        shutil.copytree(PROJECT_ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "share"))
    return target


def notifications(listener, timeout):
    """What gunicorn told systemd ({"MAINPID": ..., "READY": ...}) through NOTIFY_SOCKET, within `timeout`."""
    told = {}
    listener.settimeout(timeout)
    try:
        while "MAINPID" not in told:
            message = listener.recv(4096).decode()
            told.update(line.split("=", 1) for line in message.splitlines() if "=" in line)
    except socket.timeout:
        pass
    return told


def reload_command(pid):
    """The unit's ExecReload, with systemd's $MAINPID filled in."""
    unit = (DEPLOY / "redbook.service").read_text()
    return shlex.split(re.search(r"^ExecReload=(.+)$", unit, re.M).group(1).replace("$MAINPID", str(pid)))


def wait_for(check, timeout, what):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_a_reload_serves_the_new_templates_and_etags_or_none_of_them(tmp_path):
    """The service's reload on a copy of the project: a template changed on disk is served after it with a
    new ETag, the old one no longer revalidates; a reload whose content is broken changes nothing."""
    project = copy_of_the_project(tmp_path / "srv")
    port = free_port()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    env = {**os.environ, "FLASK_TRUSTED_HOSTS": '["127.0.0.1"]', "NOTIFY_SOCKET": str(tmp_path / "notify")}
    log = open(tmp_path / "gunicorn.log", "wb")
    master = subprocess.Popen([str(GUNICORN), "-c", "deploy/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
                               "--workers", "1", "webapp:create_app()"],
                              cwd=project, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    page = "/wotr/calc/roll?strength=3&hit=5"
    try:
        wait_for(lambda: master.poll() is None and ping(port), 90, (tmp_path / "gunicorn.log").read_text())
        status, headers, body = get(port, page)
        old_tag = headers["ETag"]
        assert status == 200 and b"Reloaded" not in body
        # a reload whose new build fails: the old master goes on serving the old build, whole
        game = project / "content" / "wotr" / "game.yaml"
        game.write_text(game.read_text() + "\nno_such_key: 1\n")
        subprocess.run(reload_command(master.pid), check=True, timeout=10)
        wait_for(lambda: "no_such_key" in (tmp_path / "gunicorn.log").read_text(), 90, "the new master did not fail")
        wait_for(lambda: len(children(master.pid)) == 1, 30, "the old master kept the failed one")  # its worker
        assert master.poll() is None
        assert get(port, page, {"If-None-Match": old_tag})[0] == 304
        # the content mended and a template changed: the reload serves them, under new tags
        game.write_text(game.read_text().replace("\nno_such_key: 1\n", "\n"))
        template = project / "templates" / "calculator.html"
        template.write_text(template.read_text().replace("{{ calc.title }} — ", "{{ calc.title }} Reloaded — "))
        subprocess.run(reload_command(master.pid), check=True, timeout=10)
        told = notifications(listener, 90)  # the new master tells systemd it is the main process now
        master.wait(timeout=30)  # and the old one stops
        assert told.get("READY") == "1" and int(told["MAINPID"]) != master.pid
        status, headers, body = get(port, page)
        assert status == 200 and b"Reloaded" in body and headers["ETag"] != old_tag
        status, _, body = get(port, page, {"If-None-Match": old_tag})
        assert status == 200 and b"Reloaded" in body
    finally:
        os.killpg(master.pid, signal.SIGTERM)  # the new master and its workers kept the old one's group
        master.wait(timeout=30)
        wait_for(lambda: not group_alive(master.pid), 30, "gunicorn did not stop")
        log.close()
        listener.close()


def children(pid):
    """The pids of a process's children (gunicorn's master: its workers, and a new master while one starts)."""
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


def ping(port):
    try:
        return get(port, "/healthz", timeout=2)[0] == 200
    except OSError:
        return False


def group_alive(group):
    try:
        os.killpg(group, 0)
        return True
    except ProcessLookupError:
        return False
