"""The offline bundle without a browser: what the build takes in and checks, how a server offers a
bundle (only one built from itself), serves it and says when it has none, the quick start without
npm, and the app the worker runs answering as the server does. The bundle in a browser:
test_browser_offline_bundle.py."""
import gzip
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from webapp import PROJECT_ROOT, create_app
from webapp.content.parsed import parse_folder, parse_yaml, text_key, write_parsed
from webapp.library import read_library
from webapp.offline import build, worker
from webapp.offline.bundle import NOT_OFFERED
from webapp.state import state_of

REDBOOK = Path(sys.executable).with_name("redbook")


def bundle_folder(folder, version, files=None):
    """A bundle folder as the build lays it out: each file, its .gz and .br forms, the manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    listed = {}
    for name, (kind, data) in (files or {}).items():
        (folder / name).write_bytes(data)
        (folder / f"{name}.gz").write_bytes(gzip.compress(data))
        (folder / f"{name}.br").write_bytes(b"brotli:" + data)  # served as stored: its bytes are the test
        listed[name] = {"type": kind, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                        "gzip": (folder / f"{name}.gz").stat().st_size, "br": (folder / f"{name}.br").stat().st_size}
    (folder / "manifest.json").write_text(json.dumps({"version": version, "files": listed}))
    return folder


def sw_constant(client, name):
    body = client.get("/sw.js").get_data(as_text=True)
    return json.loads(re.search(rf"^const {name} = (.*?);$", body, re.M).group(1))


@pytest.fixture(scope="module")
def offered(tmp_path_factory, app):
    """An app whose bundle folder holds a bundle built (as far as the manifest says) from it."""
    folder = tmp_path_factory.mktemp("bundle")
    bundle_folder(folder, state_of(app).build, {
        "pyodide.asm.wasm": ("application/wasm", b"\0asm" + bytes(range(256)) * 40),
        "redbook.zip": ("application/zip", b"PK" + b"redbook" * 500)})
    return create_app({"TESTING": True, "OFFLINE_BUNDLE_DIR": str(folder)})


# --------------------------------------------------------------------------- offered or not


@pytest.mark.parametrize("version, problem", [(None, "not-built"), ("an older build", "out-of-date")])
def test_without_a_bundle_of_this_build_the_switch_says_it_is_not_offered(tmp_path, version, problem):
    if version:
        bundle_folder(tmp_path, version, {"redbook.zip": ("application/zip", b"PK")})
    app = create_app({"TESTING": True, "OFFLINE_BUNDLE_DIR": str(tmp_path)})
    client = app.test_client()
    for path in ("/", "/wotr/", "/offline/calculator", "/offline/search"):
        page = client.get(path).get_data(as_text=True)
        assert "Use Red Book offline" in page and NOT_OFFERED[problem] in page, path
        assert "data-offline-bundle" not in page and "data-offline-toggle" not in page
    assert sw_constant(client, "PYTHON") is None
    assert client.get(f"/offline/bundle/{version}/redbook.zip").status_code == 404


def test_a_bundle_of_this_build_is_offered_with_its_size(offered):
    client = offered.test_client()
    bundle = state_of(offered).offline
    for path in ("/", "/wotr/", "/offline/calculator", "/offline/search", "/offline"):
        page = client.get(path).get_data(as_text=True)
        assert "data-offline-toggle" in page, path
        megabytes = f"{bundle.download_bytes() / 1e6:.1f} MB"
        assert f"It downloads {megabytes} once" in page and f"({bundle.unpacked_bytes() / 1e6:.1f} MB)" in page
    addresses = json.loads(re.search(r'data-offline-bundle="([^"]+)"', client.get("/").get_data(as_text=True))
                           .group(1).replace("&#34;", '"'))
    assert addresses == sw_constant(client, "PYTHON")
    assert addresses["version"] == state_of(offered).build
    for url in (*addresses["files"], addresses["manifest"], addresses["worker"], addresses["shell"]):
        with client.get(url) as response:  # bundle files are streamed: closed here
            assert url.startswith(addresses["base"]) and response.status_code == 200, url


def test_the_calculator_page_offers_the_switch_where_it_says_a_connection_is_needed(offered):
    page = offered.test_client().get("/wotr/calc/roll").get_data(as_text=True)
    notice = re.search(r"<div class=\"needs-network\" data-needs-network hidden>(.*?)</div>\s*\n", page, re.S).group(1)
    assert "needs a connection" in notice and "data-offline-toggle" in notice


# --------------------------------------------------------------------------- serving the bundle


@pytest.mark.parametrize("accept, encoding, suffix", [("gzip, deflate, br, zstd", "br", ".br"),
                                                      ("gzip", "gzip", ".gz"), ("identity", None, "")])
def test_a_bundle_file_is_sent_in_the_best_stored_form_and_never_changes(offered, accept, encoding, suffix):
    bundle = state_of(offered).offline
    client = offered.test_client()
    path = f"/offline/bundle/{bundle.version}/pyodide.asm.wasm"
    with client.get(path, headers={"Accept-Encoding": accept}) as response:
        assert response.status_code == 200 and response.mimetype == "application/wasm"
        assert response.headers.get("Content-Encoding") == encoding
        assert response.get_data() == (bundle.folder / f"pyodide.asm.wasm{suffix}").read_bytes()
        assert "immutable" in response.headers["Cache-Control"] and "Accept-Encoding" in response.headers["Vary"]
        etag = response.headers["ETag"]
    with client.get(path, headers={"Accept-Encoding": accept, "If-None-Match": etag}) as again:
        assert again.status_code == 304


def test_only_the_offered_version_and_its_files_are_served(offered):
    bundle = state_of(offered).offline
    client = offered.test_client()
    assert client.get("/offline/bundle/another-version/redbook.zip").status_code == 404
    assert client.get("/offline/bundle/another-version/worker.js").status_code == 404
    assert client.get(f"/offline/bundle/{bundle.version}/pyodide.asm.wasm.br").status_code == 404
    assert client.get(f"/offline/bundle/{bundle.version}/..%2Fmanifest.json").status_code == 404
    assert client.get(f"/offline/bundle/{bundle.version}/manifest.json").get_json() == bundle.manifest


def test_the_worker_script_alone_may_compile_webassembly(offered):
    client = offered.test_client()
    version = state_of(offered).offline.version
    script = client.get(f"/offline/bundle/{version}/worker.js")
    assert script.mimetype == "text/javascript" and "'wasm-unsafe-eval'" in script.headers["Content-Security-Policy"]
    assert 'import { loadPyodide } from "./pyodide.mjs"' in script.get_data(as_text=True)
    page = client.get(f"/offline/bundle/{version}/answer")
    assert page.status_code == 200 and "data-offline-answering" in page.get_data(as_text=True)
    assert "wasm-unsafe-eval" not in page.headers["Content-Security-Policy"]


# --------------------------------------------------------------------------- the app the worker runs


@pytest.fixture(scope="module")
def worker_root(tmp_path_factory, content_dir, app):
    """What the worker's app reads from the bundle besides the checkout: the content parsed ahead of
    time, and the search index saved by the build."""
    root = tmp_path_factory.mktemp("redbook")
    write_parsed(parse_folder(content_dir), root / "parsed-content.pickle")
    build.write_search_index(app, root)
    (root / worker.TEMPLATE_BYTECODE).mkdir()
    return root


@pytest.fixture(scope="module")
def worker_app(worker_root, app):
    """The app as the worker starts it (worker.start), here in CPython from the checkout, with the
    same bundle folder as the server's."""
    return worker.start(str(worker_root), app.config["OFFLINE_BUNDLE_DIR"])


@pytest.mark.parametrize("path", [
    "/wotr/calc/roll?strength=5&hit=5&modifier=0&leadership=2&reroll_modifier=0",
    "/wotr/calc/roll?strength=5&hit=5&modifier=0&leadership=2&reroll_modifier=0&add_plan=1",
    "/meccg/calc/strike?prowess=x",
    "/search?q=can+the+defender+run+away&game=wotr",
    "/api/search?q=corupption+check",
    "/api/fotf/ring?nazgul=2&hope=4",
    "/meccg/glossary?view=topics",
    "/wotr",
])
def test_the_worker_app_answers_as_the_server(client, worker_app, path):
    status, headers, body = worker.answer(worker_app, "GET", f"http://localhost{path}", {"Accept": "text/html"})
    served = client.get(path, headers={"Accept": "text/html"})
    assert (status, body) == (served.status_code, served.get_data())
    assert dict(headers)["Content-Type"] == served.headers["Content-Type"]
    assert "Content-Encoding" not in dict(headers)


def test_the_worker_app_reads_the_search_index_its_build_saved_after_it_starts(worker_root, app):
    started = worker.start(str(worker_root))
    assert state_of(started).search is None, "its first answer does not wait for the index"
    worker.finish_start(started)
    index = state_of(started).search
    assert index is not None and index.searcher is None, "read as saved (without Whoosh's files), not built"
    assert index.search("what happens when the fellowship is exposed") == state_of(app).search.search(
        "what happens when the fellowship is exposed")


def test_the_worker_app_builds_its_search_index_when_the_saved_one_is_of_another_build(tmp_path, worker_root, app):
    (tmp_path / "parsed-content.pickle").write_bytes((worker_root / "parsed-content.pickle").read_bytes())
    (tmp_path / worker.SEARCH_INDEX).write_bytes(state_of(app).search.saved("an older build"))
    (tmp_path / worker.TEMPLATE_BYTECODE).mkdir()
    started = worker.start(str(tmp_path))
    worker.finish_start(started)
    index = state_of(started).search
    assert index is not None and index.searcher is not None, "built anew"
    assert index.search("corupption check") == state_of(app).search.search("corupption check")


def test_the_worker_app_sees_where_the_server_is_mounted(client, worker_app):
    status, headers, body = worker.answer(worker_app, "GET", "http://localhost/red/wotr", {}, script_root="/red")
    assert status == 308 and dict(headers)["Location"] == "/red/wotr/"
    status, _, body = worker.answer(worker_app, "GET", "http://localhost/red/wotr/", {}, script_root="/red")
    assert status == 200 and b'href="/red/wotr/turn"' in body


def test_content_parsed_ahead_of_time_builds_the_same_library(library, content_dir):
    table = parse_folder(content_dir)
    assert len(table) == len(list(content_dir.rglob("*.yaml")))
    again = read_library(content_dir, parsed=table)
    assert not table, "every file's text was found in the table"
    assert again.fingerprint == library.fingerprint
    assert [(e.id, e.title, e.html) for _, e in again.entries()] == [(e.id, e.title, e.html) for _, e in library.entries()]


def test_parsed_texts_are_looked_up_by_their_hash():
    text = "a: 1\n"
    assert parse_yaml(text, {text_key(text): {"a": "from the table"}}) == {"a": "from the table"}
    assert parse_yaml(text, {text_key("a: 2\n"): {"a": 2}}) == {"a": 1}, "another text's data is never used"


def test_templates_compiled_ahead_of_time_are_used_while_their_source_is_the_same(worker_root, worker_app):
    cache = worker_root / worker.TEMPLATE_BYTECODE
    assert list(cache.iterdir()), "the worker's app kept the templates it compiled"
    template = worker_app.jinja_env.get_template("offline.html")
    bucket = worker_app.jinja_env.bytecode_cache.get_bucket(worker_app.jinja_env, "offline.html", template.filename,
                                                            Path(template.filename).read_text())
    assert bucket.code is not None
    changed = worker_app.jinja_env.bytecode_cache.get_bucket(worker_app.jinja_env, "offline.html", template.filename,
                                                             "{{ 1 + 1 }}")
    assert changed.code is None, "a changed source is compiled again, never served from the cache"


def test_answers_are_compressed_unless_switched_off(client, worker_app):
    headers = {"Accept-Encoding": "br"}
    assert client.get("/wotr/", headers=headers).headers["Content-Encoding"] == "br"
    assert "Content-Encoding" not in worker_app.test_client().get("/wotr/", headers=headers).headers


# --------------------------------------------------------------------------- what the build takes in


def test_the_worker_gets_the_app_s_requirements_and_not_the_server_s_compression():
    found = build.worker_distributions("3.14.2")
    for name in ("flask", "werkzeug", "jinja2", "markupsafe", "whoosh-reloaded", "cached-property", "markdown", "pyyaml"):
        assert name in found, name
    for name in ("flask-compress", "brotli", "backports.zstd", "gunicorn", "pytest", "importlib-metadata"):
        assert name not in found, name


def test_a_file_that_differs_from_its_installed_record_stops_the_build(tmp_path):
    import importlib.metadata

    site = tmp_path / "site"
    (site / "tampered").mkdir(parents=True)
    (site / "tampered" / "__init__.py").write_text("VALUE = 1\n")
    info = site / "tampered-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tampered\nVersion: 1.0\n")
    right = build.base64.urlsafe_b64encode(hashlib.sha256(b"VALUE = 1\n").digest()).rstrip(b"=").decode()
    (info / "RECORD").write_text(f"tampered/__init__.py,sha256={right},10\ntampered-1.0.dist-info/RECORD,,\n")
    dist = importlib.metadata.PathDistribution(info)
    assert build.stage_distribution(dist, tmp_path / "staged") == 1
    (site / "tampered" / "__init__.py").write_text("VALUE = 2\n")
    with pytest.raises(build.BuildError, match="does not match the hash"):
        build.stage_distribution(dist, tmp_path / "again")


def test_pyodide_is_pinned_with_its_integrity():
    wanted = json.loads((build.NPM_FOLDER / "package.json").read_text())["dependencies"]["pyodide"]
    locked = json.loads((build.NPM_FOLDER / "package-lock.json").read_text())["packages"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", wanted), "an exact version"
    assert locked["node_modules/pyodide"]["version"] == wanted
    assert all(entry["integrity"].startswith("sha512-") for name, entry in locked.items() if name)


def test_nothing_third_party_is_committed():
    tracked = subprocess.run(["git", "ls-files"], cwd=PROJECT_ROOT, capture_output=True, text=True).stdout.split()
    assert not [name for name in tracked if "node_modules" in name or name.endswith((".wasm", ".whl"))]


# --------------------------------------------------------------------------- the quick start without npm


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_without_npm_the_quick_start_builds_nothing_and_serves(tmp_path, client):
    """The Quick start's commands with npm and node nowhere on PATH: the build says so and exits 0,
    and the app serves, saying it does not offer offline use."""
    hidden = tmp_path / "bin"
    hidden.mkdir()
    env = {**os.environ, "PATH": str(hidden), "FLASK_OFFLINE_BUNDLE_DIR": json.dumps(str(tmp_path / "bundle"))}
    built = subprocess.run([str(REDBOOK), "offline-build"], env=env, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    assert "npm and node not found" in built.stdout and not (tmp_path / "bundle").exists()
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        server = subprocess.Popen([str(REDBOOK), "serve", "--port", str(port)], env=env, stdout=output, stderr=output)
    try:
        page, deadline = None, time.monotonic() + 120
        while page is None and server.poll() is None and time.monotonic() < deadline:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
            except OSError:
                time.sleep(0.5)
        assert page is not None, f"the app did not start: {log.read_text()[-2000:]}"
        assert NOT_OFFERED["not-built"] in page
        answer = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/wotr/roll?strength=3&hit=5"))
        assert answer == client.get("/api/wotr/roll?strength=3&hit=5").get_json()
    finally:
        server.terminate()
        server.wait(timeout=30)
