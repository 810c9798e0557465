// Red Book's own Python, in a Web Worker: Pyodide starts the app from the offline bundle (the same
// webapp package, templates and content as the server's; see webapp/offline/worker.py) and
// answers the requests the page hands it: {id, method, url, headers} -> {id, status, headers, body}.
import { loadPyodide } from "./pyodide.mjs";

const HERE = new URL("./", import.meta.url).href;
const SCRIPT_ROOT = {{ script_root|tojson }};  // where the app is on its site, as the server has it

async function bytes(name) {
  const response = await fetch(HERE + name);
  if (!response.ok) throw new Error(name + ": " + response.status);
  return new Uint8Array(await response.arrayBuffer());
}

async function start() {
  const began = performance.now();
  const took = {};  // milliseconds each step took, for the page (bench/offline.py prints them)
  const [pyodide, site, app, manifest] = await Promise.all([
    loadPyodide({ indexURL: HERE, stdLibURL: HERE + "python_stdlib.zip", env: { HOME: "/home/pyodide" } })
      .then((loaded) => { took.pyodide = performance.now() - began; return loaded; }),
    bytes("site-packages.zip"), bytes("redbook.zip"), bytes("manifest.json"),
  ]);
  let step = performance.now();
  // the paths webapp/offline/compiling.py compiled them for
  pyodide.FS.writeFile("/lib/redbook-site.zip", site);
  pyodide.unpackArchive(app, "zip", { extractDir: "/redbook" });
  pyodide.FS.mkdirTree("/redbook-bundle");
  pyodide.FS.writeFile("/redbook-bundle/manifest.json", manifest);
  pyodide.runPython("import sys; sys.path[:0] = ['/lib/redbook-site.zip', '/redbook']");
  took.unpack = performance.now() - step;
  step = performance.now();
  const worker = pyodide.pyimport("webapp.offline.worker");
  took.imports = performance.now() - step;
  step = performance.now();
  const redbook = worker.start("/redbook", "/redbook-bundle");
  took.app = performance.now() - step;
  took.total = performance.now() - began;
  postMessage({ started: took });
  return {
    answer(request) {
      const began = performance.now();
      const headers = pyodide.toPy(request.headers);
      const reply = worker.answer(redbook, request.method, request.url, headers, SCRIPT_ROOT);
      try {
        const [status, answered, body] = reply.toJs();
        return { status, headers: answered, body, took: performance.now() - began };
      } finally {
        reply.destroy();
        headers.destroy();
      }
    },
    finish() {
      const began = performance.now();
      worker.finish_start(redbook);
      postMessage({ finished: performance.now() - began });
    },
  };
}

// One task at a time (Python answers each in turn): the requests, in the order they came, and
// what start left for later (the search index), after those that came while it started.
let queue = Promise.resolve();
function enqueue(task) {
  queue = queue.then(task, task);
}

const ready = start();
ready.then((python) => enqueue(() => python.finish()), (error) => postMessage({ failed: String(error) }));

self.onmessage = (event) => {
  const request = event.data;
  enqueue(() => ready.then((python) => {
    const reply = python.answer(request);
    postMessage({ id: request.id, ...reply }, [reply.body.buffer]);
  }).catch((error) => postMessage({ id: request.id, error: String(error) })));
};
