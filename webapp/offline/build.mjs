// The step of `redbook offline-build` that needs the browser's Python: Pyodide (from npm) runs
// webapp/offline/compiling.py on the staged files, which compiles them to Pyodide's bytecode,
// packs the bundle's archives and starts the app from them once, as the browser will.
// Usage: node build.mjs PYODIDE_DIR STAGE_DIR
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, stageDir] = process.argv.slice(2).map((dir) => path.resolve(dir));
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
// the environment the bundle is built in stays out of it: Python sees only these variables
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, env: { HOME: "/home/pyodide" } });
pyodide.mountNodeFS("/stage", stageDir);
pyodide.runPython(`
import runpy
runpy.run_path("/stage/app/webapp/offline/compiling.py", run_name="__main__")
`);
