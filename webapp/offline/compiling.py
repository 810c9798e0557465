"""The part of the offline bundle's build that runs in Pyodide (build.mjs starts it, under Node).

It sees the staging folder at /stage, laid out by build.py: site/ (the third-party packages) and
app/ (the webapp package, the templates, static files and content, and the content parsed ahead
of time). It writes to /stage/out:

- python_stdlib.zip: Pyodide's standard library compiled to bytecode. The npm package ships it as
  source, and compiling it on every start would be seconds of the browser's start.
- site-packages.zip: the third-party packages, compiled the same way; the worker imports them
  from the archive.
- redbook.zip: the app's folders as they are laid out on the server, the package's bytecode beside
  its source, unpacked by the worker to /redbook.
- check.json: what the app answered when started from those archives, as the browser starts it.

Only the standard library is imported here: the app's own package is imported only from the
archives, by the check.
"""
import compileall
import importlib.util
import json
import marshal
import os
import py_compile
import shutil
import sys
import zipfile

STAGE = "/stage"
STDLIB = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"  # where Pyodide puts it
SITE_ARCHIVE = "/lib/redbook-site.zip"  # where the worker writes site-packages.zip (see python_worker.js)
APP_ROOT = "/redbook"  # where the worker unpacks redbook.zip


def bytecode(source: bytes, filename: str) -> bytes:
    """A hash-based .pyc that is never checked against its source (there is none beside it)."""
    code = compile(source, filename, "exec", dont_inherit=True)
    flags = 0b01  # hash-based, unchecked (PEP 552)
    return importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little") + importlib.util.source_hash(source) + marshal.dumps(code)


def compiled_archive(names_and_bytes, target, mounted_at):
    """An uncompressed zip of the files, each .py as a .pyc beside where it was (what zipimport
    reads when there is no source); uncompressed, so the browser's transfer compresses it whole."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
        for name, data in names_and_bytes:
            if name.endswith(".py"):
                out.writestr(name + "c", bytecode(data, f"{mounted_at}/{name}"))
            else:
                out.writestr(name, data)


def folder_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            yield os.path.relpath(path, root), path


def read_all(files):
    for name, path in files:
        with open(path, "rb") as f:
            yield name, f.read()


def stdlib_files():
    with zipfile.ZipFile(STDLIB) as source:
        for info in source.infolist():
            if not info.is_dir():
                yield info.filename, source.read(info)


def app_archive(app, target):
    """The app's folders with the package's bytecode in __pycache__ beside its source: the app
    hashes its own source (its build fingerprint), so the source stays."""
    compileall.compile_dir(os.path.join(app, "webapp"), ddir=f"{APP_ROOT}/webapp", quiet=1,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
        for folder, dirs, files in os.walk(app):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                out.write(path, os.path.relpath(path, app))


def check(out):
    """Start the app from the archives, as the worker does, and ask it for its home page. Its
    templates, compiled on the way, join the app's archive (the worker's bytecode cache)."""
    archive = os.path.join(out, "redbook.zip")
    shutil.copy(os.path.join(out, "site-packages.zip"), SITE_ARCHIVE)
    shutil.unpack_archive(archive, APP_ROOT, "zip")
    sys.path[:0] = [SITE_ARCHIVE, APP_ROOT]
    from webapp.offline import worker  # noqa: PLC0415 (from the archives, only now on the path)
    from webapp.search import SearchIndex  # noqa: PLC0415
    from webapp.state import state_of  # noqa: PLC0415

    compiled = os.path.join(APP_ROOT, worker.TEMPLATE_BYTECODE)
    os.makedirs(compiled)
    app = worker.start(APP_ROOT)
    status, _, body = worker.answer(app, "GET", "http://localhost/", {"Accept": "text/html"})
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
    with zipfile.ZipFile(archive, "a", zipfile.ZIP_STORED) as out_zip:
        for name in sorted(os.listdir(compiled)):
            out_zip.write(os.path.join(compiled, name), f"{worker.TEMPLATE_BYTECODE}/{name}")
    with open(os.path.join(APP_ROOT, worker.SEARCH_INDEX), "rb") as saved:
        index = SearchIndex.load(saved.read(), state_of(app).build)
    return {"build": state_of(app).build, "python": sys.version.split()[0], "home_status": status,
            "home_bytes": len(body), "templates": len(os.listdir(compiled)),
            "search_index_saved": index is not None and index.search("siege").total > 0}


def build(stage=STAGE):
    out = os.path.join(stage, "out")
    os.makedirs(out, exist_ok=True)
    compiled_archive(stdlib_files(), os.path.join(out, "python_stdlib.zip"), STDLIB)
    compiled_archive(read_all(folder_files(os.path.join(stage, "site"))), os.path.join(out, "site-packages.zip"),
                     SITE_ARCHIVE)
    app_archive(os.path.join(stage, "app"), os.path.join(out, "redbook.zip"))
    with open(os.path.join(out, "check.json"), "w") as f:
        json.dump(check(out), f)


if __name__ == "__main__":
    build()
