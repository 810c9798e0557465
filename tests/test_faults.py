"""Faults: a read-only checkout, broken content, oversized bodies, unknown addresses, debug mode."""
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import webapp
from webapp import PROJECT_ROOT, create_app
from webapp.calculators import CALCULATORS
from webapp.cli import main as redbook
from webapp.content import ContentError

POST_PATHS = [api.path for calc in CALCULATORS.values() for api in calc.apis if api.method == "POST"]


def make_app(instance, **config):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(instance), **config})


def snapshot(folder):
    """Every file and folder under a folder, files with a hash of their bytes and their modification time."""
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            if p.is_file() else "folder" for p in sorted(Path(folder).rglob("*"))}


# --------------------------------------------------------------------------- read-only checkout

READ_ONLY_RUN = """
import json
from webapp import create_app
client = create_app().test_client()
api = client.get("/api/search", query_string={"q": "can the defender run away", "game": "wotr"})
page = client.get("/search", query_string={"q": "corupption check"})
print(json.dumps({"api": api.status_code, "ids": [hit["id"] for hit in api.get_json()["results"]],
                  "page": page.status_code, "text": page.get_data(as_text=True)}))
"""
# As root, file modes do not stop writes: where mounts are allowed, the checkout and the temp
# folders are also mounted read-only, so nothing at all can be written (not even temp files).
READ_ONLY_MOUNT = """
for folder in "$0" /tmp /var/tmp; do
  if [ -d "$folder" ]; then mount --bind "$folder" "$folder" && mount -o remount,bind,ro "$folder" || exit 97; fi
done
cd "$0" && exec "$@"
"""


def read_only_copy(target):
    """A copy of what the app needs from the checkout, every file and folder made read-only."""
    for name in ("webapp", "content", "templates", "static", "pyproject.toml"):
        source = PROJECT_ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / name)
    for path in sorted(target.rglob("*"), reverse=True) + [target]:
        path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH | (
            stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH if path.is_dir() else 0))


def run_read_only(checkout):
    command = [sys.executable, "-c", READ_ONLY_RUN]
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONDONTWRITEBYTECODE": "1"}
    if os.geteuid() == 0 and shutil.which("unshare"):
        mounted = subprocess.run(["unshare", "-m", "sh", "-c", READ_ONLY_MOUNT, str(checkout), *command],
                                 cwd=checkout, env=env, capture_output=True, text=True, timeout=120)
        if mounted.returncode != 97 and not mounted.stderr.startswith("unshare:"):  # else: no mounts here
            return mounted
    return subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, timeout=120)


def test_a_read_only_checkout_starts_searches_and_writes_nothing(tmp_path):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    read_only_copy(checkout)
    before = snapshot(checkout)
    try:
        done = run_read_only(checkout)
        assert done.returncode == 0, done.stderr
        answer = json.loads(done.stdout)
        assert answer["api"] == 200 and answer["ids"][0] in ("wotr:defender-may-retreat", "wotr:retreat")
        assert answer["page"] == 200 and "corruption" in answer["text"].lower()
        assert snapshot(checkout) == before, "the app wrote into the checkout"
        assert not (checkout / "instance").exists()
    finally:
        for path in [checkout, *checkout.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


# --------------------------------------------------------------------------- broken content


def break_content(root):
    """Give the first wotr sequence entry an unknown key; return the file's name."""
    game = yaml.safe_load((root / "wotr" / "game.yaml").read_text())
    path = root / "wotr" / f"{game['turn'][0]['section']}.yaml"
    data = yaml.safe_load(path.read_text())
    data["entries"][0]["colour"] = "red"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return path.name


def test_broken_content_stops_the_check_and_the_app(content_copy, tmp_path):
    name = break_content(content_copy)
    problem = f"{name}: entries[0].colour: unknown key"

    checked = CliRunner().invoke(redbook, ["check-content", "--content", str(content_copy)])
    assert checked.exit_code == 1
    assert problem in checked.output and "Traceback" not in checked.output

    with pytest.raises(ContentError) as caught:
        make_app(tmp_path / "instance", CONTENT_DIR=str(content_copy))
    assert any(problem in line for line in caught.value.problems)


# --------------------------------------------------------------------------- requests


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("shape", ["json", "padded json", "not json"])
def test_a_body_over_the_limit_is_413_json(client, app, path, shape):
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = {"json": b'{"x": "' + b"a" * limit + b'"}', "padded json": b"{}" + b" " * limit,
            "not json": os.urandom(limit + 1)}[shape]
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json() == {"error": f"body: larger than the {limit} bytes allowed"}


@pytest.mark.parametrize("path", POST_PATHS)
def test_a_streamed_body_over_the_limit_is_413_json_not_cut_short(client, app, path):
    import io

    limit = app.config["MAX_CONTENT_LENGTH"]
    # valid JSON for its first bytes, so a body cut at the limit would still parse
    body = b"{}" + b" " * limit
    response = client.post(path, input_stream=io.BytesIO(body), content_type="application/json",
                           headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})
    assert response.status_code == 413
    assert "error" in response.get_json()


@pytest.mark.parametrize("url", ["/api/nothing", "/api/wotr/nothing", "/api/search/more", "/api/", "/api",
                                 "/api/<script>x</script>", "/api/meccg/council/1"])
def test_unknown_api_routes_are_a_bare_json_404(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert response.get_json() == {"error": "Not Found"}


@pytest.mark.parametrize("url", [
    "/nothing", "/<script>x</script>", "/wotr/calc/nothing", "/wotr/no-such-section", "/wotr/calc/roll/more",
    # a game that does not exist, under every kind of page a game has
    "/mordor", "/mordor/", "/mordor/calc/", "/mordor/calc/roll", "/mordor/turn", "/mordor/print", "/mordor/glossary",
    "/WOTR/", "/wotr-card/", "/api/mordor/roll",
])
def test_unknown_pages_404_without_detail(client, url):
    response = client.get(url)
    assert response.status_code == 404
    text = response.get_data(as_text=True)
    for leak in ("Traceback", "werkzeug", "<script>x", "NotFound", "File \""):
        assert leak not in text


# --------------------------------------------------------------------------- debug


def boom():
    raise RuntimeError("secret detail 1234")


def test_debug_is_off_by_default_and_errors_show_no_detail(tmp_path, monkeypatch):
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance")})
    assert app.debug is False and app.testing is False
    app.add_url_rule("/api/boom", "api_boom", boom)
    app.add_url_rule("/boom", "page_boom", boom)
    client = app.test_client()
    api = client.get("/api/boom")
    assert api.status_code == 500 and api.get_json() == {"error": "Internal Server Error"}
    page = client.get("/boom")
    assert page.status_code == 500
    for response in (api, page):
        text = response.get_data(as_text=True)
        for leak in ("secret detail", "Traceback", "RuntimeError", "Debugger", "__debugger__"):
            assert leak not in text
    # the interactive debugger's resources are not served
    resource = client.get("/?__debugger__=yes&cmd=resource&f=debugger.js")
    assert "Debugger" not in resource.get_data(as_text=True) and "debugger.js" not in resource.get_data(as_text=True)


def test_serve_runs_without_debug(tmp_path, monkeypatch):
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    calls = []
    real_create_app = webapp.create_app
    monkeypatch.setattr(webapp, "create_app", lambda config=None: real_create_app(
        {**(config or {}), "INSTANCE_PATH": str(tmp_path / "instance")}))
    monkeypatch.setattr("flask.Flask.run", lambda self, **kwargs: calls.append((self.debug, kwargs)))
    result = CliRunner().invoke(redbook, ["serve", "--port", "5999"])
    assert result.exit_code == 0, result.output
    (debug, kwargs), = calls
    assert debug is False and kwargs.get("debug") is False
