#!/usr/bin/env node

// src/cli/bin.ts
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// src/api/v8-flags.ts
function setServerCallFlags() {
  process.getBuiltinModule("node:v8").setFlagsFromString("--liftoff-only");
}

// src/cli/code-cache.ts
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname, posix, resolve, win32 } from "node:path";
import { constants as vmConstants, Script } from "node:vm";
function cacheDirectory(env, platform, home) {
  if (env.ENGINECTL_DISABLE_CACHE === "1" || env.ENGINECTL_DISABLE_CACHE === "true") return void 0;
  if (env.ENGINECTL_CACHE_DIR) return resolve(env.ENGINECTL_CACHE_DIR);
  const { isAbsolute, join: join2 } = platform === "win32" ? win32 : posix;
  if (platform === "win32") return env.LOCALAPPDATA && isAbsolute(env.LOCALAPPDATA) ? join2(env.LOCALAPPDATA, "enginectl", "Cache") : void 0;
  const xdg = platform === "darwin" ? void 0 : env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join2(xdg, "enginectl");
  let dir2;
  try {
    dir2 = home();
  } catch {
    return void 0;
  }
  if (!dir2 || !isAbsolute(dir2)) return void 0;
  return platform === "darwin" ? join2(dir2, "Library", "Caches", "enginectl") : join2(dir2, ".cache", "enginectl");
}
function cacheFileName(buildId, nodeVersion, arch, command2) {
  const kind = command2 !== void 0 && CACHED_COMMANDS.includes(command2) ? command2 : "other";
  return `cli-${buildId}-node${nodeVersion.replace(/^v/, "")}-${arch}-${kind}.v8cache`;
}
var CACHED_COMMANDS = ["run", "validate", "plan", "report", "schema", "matrix", "api", "emulator"];
var CALLING_COMMANDS = ["run", "api"];
function compileBundle(file2, cacheFile) {
  const source = readFileSync(file2, "latin1");
  const cachedData = cacheFile ? readCache(cacheFile) : void 0;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}
})`, {
    filename: file2,
    cachedData,
    // An import() left in the bundle (of a Node built-in) resolves as in any module.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER
  });
  const fresh = cachedData !== void 0 && !script.cachedDataRejected;
  return {
    run(require2) {
      const module = { exports: {} };
      const wrapper = script.runInThisContext();
      wrapper.call(module.exports, module.exports, require2, module, file2, dirname(file2));
      return module.exports;
    },
    save() {
      if (!cacheFile || fresh) return;
      if (writeAtomically(cacheFile, () => twice(script.createCachedData()))) prune(dirname(cacheFile), Date.now());
    }
  };
}
var HEADER = 8;
function twice(data) {
  const file2 = Buffer.allocUnsafe(HEADER + 2 * data.length);
  file2.writeUInt32LE(data.length, 0);
  file2.writeUInt32LE(0, 4);
  data.copy(file2, HEADER);
  data.copy(file2, HEADER + data.length);
  return file2;
}
function readCache(path) {
  let file2;
  try {
    file2 = readFileSync(path);
  } catch {
    return void 0;
  }
  const length = file2.length >= HEADER ? file2.readUInt32LE(0) : -1;
  if (length <= 0 || file2.length !== HEADER + 2 * length) return void 0;
  const first = file2.subarray(HEADER, HEADER + length);
  return first.equals(file2.subarray(HEADER + length)) ? first : void 0;
}
function writeAtomically(path, data) {
  const tmp = `${path}.${process.pid}.tmp`;
  let fd;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 448 });
    fd = openSync(tmp, "wx", 384);
    const bytes = data();
    writeSync(fd, bytes, 0, bytes.length);
    closeSync(fd);
    fd = void 0;
    renameSync(tmp, path);
    return true;
  } catch {
    try {
      if (fd !== void 0) closeSync(fd);
      rmSync(tmp, { force: true });
    } catch {
    }
    return false;
  }
}
var STALE_MS = 30 * 24 * 60 * 60 * 1e3;
function prune(dir2, now) {
  try {
    for (const name of readdirSync(dir2)) {
      if (!/^cli-.*\.v8cache(\.\d+\.tmp)?$/.test(name)) continue;
      const path = resolve(dir2, name);
      const age = now - statSync(path).mtimeMs;
      if (age > (name.endsWith(".tmp") ? 24 * 60 * 60 * 1e3 : STALE_MS)) rmSync(path, { force: true });
    }
  } catch {
  }
}

// src/cli/bin.ts
var command = process.argv[2];
if (command !== void 0 && CALLING_COMMANDS.includes(command)) setServerCallFlags();
var file = fileURLToPath(new URL("./cli-main.cjs", import.meta.url));
var dir = cacheDirectory(process.env, process.platform, homedir);
var bundle = compileBundle(file, dir && join(dir, cacheFileName("710d4de40bbe0475", process.version, process.arch, command)));
var { runMain } = bundle.run(createRequire(file));
process.once("exit", () => bundle.save());
await runMain(process.argv.slice(2));
