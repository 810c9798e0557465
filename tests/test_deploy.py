"""The production setup of deploy/, run here: Debian's nginx from the rendered template in front of
gunicorn with deploy/gunicorn.conf.py, both on loopback ports.

Slow clients must not hold a worker, compression and 304s must work through nginx as from
gunicorn alone, and a client over the rate limit gets 429 while others are served.
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
import subprocess
import sys
import time
from pathlib import Path

import pytest

from webapp import PROJECT_ROOT

DEPLOY = PROJECT_ROOT / "deploy"
sys.path.insert(0, str(DEPLOY))
import render  # noqa: E402  (deploy/render.py)

pytestmark = pytest.mark.deploy

RULE_PAGE = "/wotr/combat-round"
CALCULATOR = "/api/wotr/roll?strength=1&hit=5"


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
def gunicorn_port(tmp_path_factory):
    """gunicorn as deploy/redbook.service runs it (its config file, trusted hosts), on a free port."""
    instance = tmp_path_factory.mktemp("deploy-instance")
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
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
        log.close()


@pytest.fixture(scope="module")
def nginx_port(gunicorn_port, tmp_path_factory):
    """nginx on a free port, its configuration rendered from deploy/nginx-site.conf.j2."""
    if not shutil.which("nginx") and not Path("/usr/sbin/nginx").exists():
        pytest.fail("Debian's nginx is missing: bash tests/run.sh installs it")
    prefix = tmp_path_factory.mktemp("nginx")
    port = free_port()
    site = render.site_config(server_name="127.0.0.1", listen=f"127.0.0.1:{port}", upstream=f"127.0.0.1:{gunicorn_port}")
    process = render.start_nginx(render.standalone_config(site, prefix), prefix, port)
    yield port
    process.terminate()
    process.wait(timeout=10)


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


def test_a_client_over_the_rate_limit_gets_429_while_others_are_served(nginx_port):
    statuses = [get(nginx_port, CALCULATOR, source="127.0.0.2")[0] for _ in range(60)]
    assert statuses[0] == 200 and 429 in statuses and set(statuses) == {200, 429}
    # another address is served at once, and the busy one still reads rules
    assert get(nginx_port, CALCULATOR, source="127.0.0.3")[0] == 200
    assert get(nginx_port, RULE_PAGE, source="127.0.0.2")[0] == 200


def test_nginx_limits_request_sizes_and_the_app_refuses_the_64_kb_post(nginx_port):
    path = "/api/wotr-cards/path-combat"
    big = json.dumps({"shadow_attack_icons": 99, "path_defence": 0, "defenders": [0] * 32_700},
                     separators=(",", ":")).encode()
    assert len(big) <= 64 * 1024
    status, _, body = get(nginx_port, path, {"Content-Type": "application/json"}, method="POST", body=big,
                          source="127.0.0.4")
    assert status == 400 and json.loads(body)["error"].startswith(("defenders:", "body:"))
    status, _, _ = get(nginx_port, path, {"Content-Type": "application/json"}, method="POST",
                       body=b" " * (64 * 1024 + 1), source="127.0.0.4")
    assert status == 413
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
    assert f"{limits['calculator_rate']} requests a second with bursts of {limits['calculator_burst']}" in section
    assert f"{limits['search_rate']} a second with bursts of {limits['search_burst']}" in section
