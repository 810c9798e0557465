"""Faults: a missing, stale or damaged search index, broken content, oversized bodies, unknown
addresses, debug mode, and several processes building the index at once."""
import hashlib
import os
import shutil
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
from webapp.search import INDEX_VERSION, KEEP_BUILDS, index_is_current, index_link

POST_PATHS = [api.path for calc in CALCULATORS.values() for api in calc.apis if api.method == "POST"]


def make_app(instance, **config):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(instance), **config})


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """An instance folder with a freshly built index, built once and copied by each test."""
    instance = tmp_path_factory.mktemp("pristine") / "instance"
    make_app(instance)
    return instance


@pytest.fixture
def instance(pristine, tmp_path):
    """A private copy of the pristine instance folder (the index link stays a link)."""
    copy = tmp_path / "instance"
    shutil.copytree(pristine, copy, symlinks=True)
    return copy


def target(instance):
    """The build folder the `index` link points at."""
    return index_link(instance).resolve()


def finds(app, text="combat"):
    """Status and number of results of an API search."""
    response = app.test_client().get("/api/search", query_string={"q": text})
    return response.status_code, len((response.get_json() or {}).get("results", []))


def snapshot(folder):
    """Every file under a folder with a hash of its bytes and its modification time."""
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(Path(folder).rglob("*")) if p.is_file()}


# --------------------------------------------------------------------------- missing, stale, damaged


def garbage(path):
    path.write_bytes(os.urandom(max(16, min(path.stat().st_size, 4096))))


def remove_build(folder):
    shutil.rmtree(folder)


# Each takes the build folder the index link points at.
DAMAGE = {
    "link missing": lambda folder: (folder.parent.parent / "index").unlink(),
    "link dangling": remove_build,
    "every file garbage": lambda folder: [garbage(p) for p in folder.iterdir() if p.name != "stamp"],
    "table of contents garbage": lambda folder: [garbage(p) for p in folder.glob("*.toc")],
    "segment cut short": lambda folder: [p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
                                         for p in folder.glob("*.seg")],
    "segment missing": lambda folder: [p.unlink() for p in folder.glob("*.seg")],
    "json not json": lambda folder: [p.write_text("{not json") for p in folder.glob("*.json")],
    "json missing": lambda folder: [p.unlink() for p in folder.glob("*.json")],
    "stamp not text": lambda folder: (folder / "stamp").write_bytes(b"\xff\xfe\x00garbage"),
    "stamp of an older version": lambda folder: (folder / "stamp").write_text(
        f"{int(INDEX_VERSION) - 1}:" + (folder / "stamp").read_text().partition(":")[2]),
    "stamp of other content": lambda folder: (folder / "stamp").write_text(f"{INDEX_VERSION}:0000"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_missing_stale_or_damaged_index_is_rebuilt_at_start(instance, damage):
    first = target(instance)
    DAMAGE[damage](first)
    app = make_app(instance)  # must not raise
    library = app.extensions["redbook.library"]
    assert target(instance) != first and target(instance).is_dir()
    assert (target(instance) / "stamp").read_text() == f"{INDEX_VERSION}:{library.fingerprint}"
    assert index_is_current(instance, library)
    assert finds(app) == (200, 10)
    assert app.test_client().get("/search", query_string={"q": "combat"}).status_code == 200


def test_an_intact_index_is_kept_at_start(instance):
    first, files = target(instance), snapshot(target(instance))
    make_app(instance)
    assert target(instance) == first and snapshot(first) == files


def test_changed_content_makes_the_index_rebuild(content_copy, tmp_path):
    instance = tmp_path / "instance"
    app = make_app(instance, CONTENT_DIR=str(content_copy))
    assert finds(app, "zzyzzogrith")[1] == 0
    first = target(instance)
    path = content_copy / "meq" / "setup.yaml"
    data = yaml.safe_load(path.read_text())
    data["summary"] += " Zzyzzogrith."
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    app = make_app(instance, CONTENT_DIR=str(content_copy))
    assert target(instance) != first
    assert finds(app, "zzyzzogrith")[1] >= 1


@pytest.mark.parametrize("damage", ["every file garbage", "link missing"])
def test_an_unreadable_index_is_refused_with_what_to_run(instance, damage, caplog):
    DAMAGE[damage](target(instance))
    app = make_app(instance, BUILD_INDEX_ON_START=False)
    client = app.test_client()
    response = client.get("/api/search", query_string={"q": "combat"})
    assert response.status_code == 503
    message = response.get_json()["error"]
    assert "\n" not in message and "run 'redbook build-index'" in message
    documented = client.get("/api/openapi.json").get_json()["paths"]["/api/search"]["get"]["responses"]
    assert "503" in documented
    assert "Traceback" not in caplog.text
    page = client.get("/search", query_string={"q": "combat"})
    assert page.status_code == 503 and "Traceback" not in page.get_data(as_text=True)
    # doing what the message says repairs it, without restarting the app
    result = app.test_cli_runner().invoke(args=["build-index"])
    assert result.exit_code == 0, result.output
    assert finds(app) == (200, 10)


# --------------------------------------------------------------------------- broken content


def break_content(root):
    """Give the first wotr sequence entry an unknown key; return the file's name."""
    game = yaml.safe_load((root / "wotr" / "game.yaml").read_text())
    path = root / "wotr" / f"{game['turn'][0]['section']}.yaml"
    data = yaml.safe_load(path.read_text())
    data["entries"][0]["colour"] = "red"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return path.name


def test_broken_content_stops_both_commands_and_leaves_the_index_alone(content_copy, tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    make_app(instance, CONTENT_DIR=str(content_copy))
    before_target, before_files = target(instance), snapshot(instance)
    name = break_content(content_copy)
    problem = f"{name}: entries[0].colour: unknown key"

    checked = CliRunner().invoke(redbook, ["check-content", "--content", str(content_copy)])
    assert checked.exit_code == 1
    assert problem in checked.output

    real_create_app = webapp.create_app
    monkeypatch.setattr(webapp, "create_app", lambda config=None: real_create_app(
        {**(config or {}), "CONTENT_DIR": str(content_copy), "INSTANCE_PATH": str(instance)}))
    built = CliRunner().invoke(redbook, ["build-index", "--force"])
    assert built.exit_code == 1
    assert problem in built.output and "Traceback" not in built.output

    with pytest.raises(ContentError):
        make_app(instance, CONTENT_DIR=str(content_copy))
    assert target(instance) == before_target
    assert snapshot(instance) == before_files


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


# --------------------------------------------------------------------------- concurrent builds

BUILD = """
import sys
from webapp import create_app
from webapp.search import build_index
app = create_app({"INSTANCE_PATH": sys.argv[1], "BUILD_INDEX_ON_START": sys.argv[2] == "start"})
if sys.argv[2] == "force":
    with app.app_context():
        build_index(force=True)
"""


def test_processes_building_at_once_leave_a_whole_index_and_searches_go_on(instance):
    app = make_app(instance, BUILD_INDEX_ON_START=False)
    first = target(instance)
    # a worker starting on a stale index, and operators forcing builds, all at once
    (first / "stamp").write_text("stale")
    modes = ["start", "force", "start", "force"]
    processes = [subprocess.Popen([sys.executable, "-c", BUILD, str(instance), mode], cwd=PROJECT_ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) for mode in modes]
    seen = set()
    while any(process.poll() is None for process in processes):
        seen.add(finds(app, "army leader"))
    for process in processes:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
    seen.add(finds(app, "army leader"))
    assert {status for status, _ in seen} == {200} and all(count > 0 for _, count in seen)
    assert index_is_current(instance, app.extensions["redbook.library"])
    assert target(instance) != first
    builds = [p for p in (instance / "indexes").iterdir() if p.is_dir()]
    assert target(instance) in builds and len(builds) <= KEEP_BUILDS
    assert not list(instance.glob(".index-*"))  # no temporary link left behind
    fresh = make_app(instance, BUILD_INDEX_ON_START=False)
    assert finds(fresh) == (200, 10)
