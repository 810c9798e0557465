"""`redbook offline-build`: the offline bundle, what a browser downloads to run the app itself.

1. Pyodide, the browser's Python, from the npm registry: `npm ci` installs the version pinned in
   npm/package-lock.json, whose integrity hash npm checks.
2. The Python packages the app runs on, taken from this environment's installed copies (each
   file checked against the hash its installer recorded): the app's requirements and theirs,
   as they apply to Pyodide's Python, without the server's compression.
3. The app itself: the webapp package, its templates, static files and content, laid out as
   the server has them, the content's YAML parsed ahead of time (webapp/content/parsed.py) and the
   search index built here, saved under the app's build fingerprint (SearchIndex.saved).
4. compiling.py, run in Pyodide under Node (build.mjs), compiles all of it to bytecode, packs
   the archives and starts the app from them once; the build fails unless that app has the
   same build fingerprint (code, templates, content, static files) as the server's, and reads
   the saved search index rather than building its own.
5. Every file is stored with its gzip and brotli forms and listed in manifest.json, whose
   version is that fingerprint: a server offers the bundle only while they match.
"""
import base64
import gzip
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..caching import app_version
from ..content.parsed import parse_folder, write_parsed
from ..settings import PROJECT_ROOT, data_folder
from ..state import state_of
from .worker import SEARCH_INDEX

NPM_FOLDER = Path(__file__).parent / "npm"  # package.json and package-lock.json: the pinned Pyodide
BUILD_SCRIPT = Path(__file__).parent / "build.mjs"
# The files of the npm package the browser loads, and how each is served
PYODIDE_FILES = {"pyodide.mjs": "text/javascript", "pyodide.asm.mjs": "text/javascript",
                 "pyodide.asm.wasm": "application/wasm", "pyodide-lock.json": "application/json"}
# What compiling.py makes (python_stdlib.zip replaces the npm package's)
BUILT_FILES = {"python_stdlib.zip": "application/zip", "site-packages.zip": "application/zip",
               "redbook.zip": "application/zip"}
# Requirements only the server needs: compression (the worker's answers never cross a network)
SERVER_ONLY = frozenset({"flask-compress"})
# The environment markers of Pyodide's Python, against which requirements are read
WORKER_MARKERS = {"implementation_name": "cpython", "platform_python_implementation": "CPython",
                  "sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
                  "platform_machine": "wasm32", "extra": ""}
NATIVE_SUFFIXES = (".so", ".pyd", ".dylib")
BUILD_TIMEOUT = 900  # seconds for npm ci, and again for the build in Pyodide


class BuildError(Exception):
    """The bundle could not be built; the message says why."""


def missing_tools():
    """The tools the build needs that are not on PATH (npm, node)."""
    return [tool for tool in ("npm", "node") if shutil.which(tool) is None]


def run(command, cwd, what):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    if done.returncode != 0:
        raise BuildError(f"{what} failed ({done.returncode}):\n{(done.stderr or done.stdout)[-3000:]}")
    return done


def install_pyodide(work: Path) -> Path:
    """Pyodide's npm package, installed with npm ci from the pinned lock: its folder."""
    folder = work / "npm"
    folder.mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copy(NPM_FOLDER / name, folder / name)
    run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], folder, "npm ci")
    pinned = json.loads((NPM_FOLDER / "package.json").read_text())["dependencies"]["pyodide"]
    package = folder / "node_modules" / "pyodide"
    installed = json.loads((package / "package.json").read_text())["version"]
    if installed != pinned:
        raise BuildError(f"npm installed pyodide {installed}, not the pinned {pinned}")
    return package


def marker_holds(marker: str, python_version: str) -> bool:
    """Whether a requirement's environment marker holds in Pyodide's Python."""
    try:
        from packaging.markers import Marker  # noqa: PLC0415
    except ImportError:  # pip's own copy: every environment pip installed into has it
        from pip._vendor.packaging.markers import Marker  # noqa: PLC0415
    major_minor = ".".join(python_version.split(".")[:2])
    return Marker(marker).evaluate({**WORKER_MARKERS, "python_version": major_minor,
                                    "python_full_version": python_version, "implementation_version": python_version})


def requirement_name(requirement: str) -> str:
    return re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)


def worker_distributions(python_version, app="redbook"):
    """The installed distributions the app needs in Pyodide's Python: its requirements and
    theirs, less SERVER_ONLY and those whose markers do not hold there (extras among them)."""
    found, todo = {}, list(importlib.metadata.distribution(app).requires or [])
    while todo:
        requirement = todo.pop()
        name, _, marker = requirement.partition(";")
        name = requirement_name(name).lower().replace("_", "-")
        if name in found or name in SERVER_ONLY or (marker.strip() and not marker_holds(marker.strip(), python_version)):
            continue
        try:
            found[name] = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError as exc:
            raise BuildError(f"{name} is required but not installed here") from exc
        todo += found[name].requires or []
    return found


def record_hash(path: Path, expected) -> bool:
    digest = hashlib.new(expected.mode, path.read_bytes()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == expected.value


def stage_distribution(dist, target: Path) -> int:
    """Copy the distribution's files (not its scripts, bytecode or compiled extensions, which
    cannot run in the browser) into target, each checked against its RECORD hash: how many."""
    copied = 0
    for file in dist.files or ():
        parts = file.parts
        if parts[0] == ".." or "__pycache__" in parts or file.suffix in NATIVE_SUFFIXES or file.hash is None:
            continue  # scripts, bytecode, compiled code, and RECORD itself (the only unhashed file)
        source = Path(dist.locate_file(file))
        if not record_hash(source, file.hash):
            raise BuildError(f"{source} does not match the hash {dist.metadata['Name']} recorded when installed")
        (target / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target / file)
        copied += 1
    return copied


def stage_site(target: Path, python_version) -> dict:
    """The third-party packages, and the app's own metadata (its version): name -> version."""
    versions = {}
    for name, dist in sorted(worker_distributions(python_version).items()):
        stage_distribution(dist, target)
        versions[dist.metadata["Name"]] = dist.version
    info = target / f"redbook-{app_version()}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: redbook\nVersion: {app_version()}\n")
    return versions


def stage_app(target: Path, app) -> None:
    """The webapp package and the folders the app reads, where the server has them."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules", *(f"*{s}" for s in NATIVE_SUFFIXES))
    shutil.copytree(PROJECT_ROOT / "webapp", target / "webapp", ignore=ignore)
    folders = [(app.template_folder, app.template_folder), (app.static_folder, app.static_folder),
               (app.config["CONTENT_DIR"], data_folder("content"))]
    for source, where in folders:
        place = target / Path(where).resolve().relative_to(PROJECT_ROOT)
        if not place.exists():
            shutil.copytree(source, place, ignore=ignore)
    write_parsed(parse_folder(app.config["CONTENT_DIR"]), target / "parsed-content.pickle")
    write_search_index(app, target)


def write_search_index(app, target: Path) -> None:
    """The app's search index, saved where the worker reads it, under the app's build fingerprint:
    the worker's app reads it only while its own build is that one."""
    state = state_of(app)
    (target / SEARCH_INDEX).write_bytes((state.search or state.build_search()).saved(state.build))


def stored_forms(path: Path) -> dict:
    """Write path.gz and path.br (when brotli is installed) beside it: each form's size and the file's hash."""
    data = path.read_bytes()
    forms = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    path.with_name(path.name + ".gz").write_bytes(gzip.compress(data, 9, mtime=0))
    forms["gzip"] = path.with_name(path.name + ".gz").stat().st_size
    try:
        import brotli  # noqa: PLC0415 (flask-compress's codec; without it, gzip alone)
    except ImportError:
        return forms
    path.with_name(path.name + ".br").write_bytes(brotli.compress(data, quality=10))
    forms["br"] = path.with_name(path.name + ".br").stat().st_size
    return forms


def assemble(folder: Path, pyodide: Path, out: Path, manifest: dict) -> None:
    folder.mkdir(parents=True)
    files = {}
    for name, kind in {**PYODIDE_FILES, **BUILT_FILES}.items():
        shutil.copyfile((out if name in BUILT_FILES else pyodide) / name, folder / name)
        files[name] = {"type": kind, **stored_forms(folder / name)}
    manifest["files"] = files
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1))


def replace_folder(new: Path, target: Path) -> None:
    old = target.with_name(target.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    new.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def build_bundle(target, log=print) -> dict:
    """Build the offline bundle into the folder target (replacing what is there): its manifest."""
    from .. import create_app  # noqa: PLC0415 (the app as the server creates it, for its fingerprint)

    target = Path(target)
    app = create_app({"OFFLINE_BUNDLE_DIR": None})
    build = state_of(app).build
    with tempfile.TemporaryDirectory(prefix="redbook-offline-") as work:
        work = Path(work)
        log("Installing Pyodide with npm ci (pinned in webapp/offline/npm/package-lock.json)...")
        pyodide = install_pyodide(work)
        python_version = json.loads((pyodide / "pyodide-lock.json").read_text())["info"]["python"]
        stage = work / "stage"
        log(f"Staging the app and its packages for Python {python_version}...")
        packages = stage_site(stage / "site", python_version)
        stage_app(stage / "app", app)
        log("Compiling and checking it in Pyodide (node build.mjs)...")
        run(["node", str(BUILD_SCRIPT), str(pyodide), str(stage)], work, "the build in Pyodide")
        check = json.loads((stage / "out" / "check.json").read_text())
        if check["home_status"] != 200 or check["build"] != build:
            raise BuildError(f"the app started in Pyodide differs from this one: {check} (expected build {build})")
        if not check["search_index_saved"]:
            raise BuildError("the app started in Pyodide could not read the search index saved for it")
        manifest = {"version": build, "app_version": app_version(),
                    "pyodide": json.loads((pyodide / "package.json").read_text())["version"],
                    "python": check["python"], "packages": packages}
        new = target.with_name(target.name + ".new")
        shutil.rmtree(new, ignore_errors=True)
        log("Compressing...")
        assemble(new, pyodide, stage / "out", manifest)
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_folder(new, target)
    return manifest
