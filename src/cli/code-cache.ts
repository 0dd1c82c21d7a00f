// The CLI bundle compiled with a V8 code cache kept in the user's cache directory. Node 20 keeps
// no compile cache for ES modules, and compiling the bundle was a third of every cold start
// (bench/RESULTS.md). The cache is only ever an acceleration: a missing, unreadable, read-only or
// rejected cache makes a run compile from source, never fail.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, posix, resolve, win32 } from 'node:path';
import { constants as vmConstants, Script } from 'node:vm';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * enginectl's cache directory, or undefined for none: ENGINECTL_CACHE_DIR when set, else the
 * platform's user cache directory (XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on
 * macOS, %LOCALAPPDATA% on Windows). Never the working directory: a relative XDG_CACHE_HOME is
 * ignored, as the XDG specification says. ENGINECTL_DISABLE_CACHE=1 turns the cache off.
 */
export function cacheDirectory(env: Env, platform: NodeJS.Platform, home: () => string): string | undefined {
  if (env.ENGINECTL_DISABLE_CACHE === '1' || env.ENGINECTL_DISABLE_CACHE === 'true') return undefined;
  if (env.ENGINECTL_CACHE_DIR) return resolve(env.ENGINECTL_CACHE_DIR);
  const { isAbsolute, join } = platform === 'win32' ? win32 : posix;
  if (platform === 'win32') return env.LOCALAPPDATA && isAbsolute(env.LOCALAPPDATA) ? join(env.LOCALAPPDATA, 'enginectl', 'Cache') : undefined;
  const xdg = platform === 'darwin' ? undefined : env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'enginectl');
  let dir: string;
  try {
    dir = home();
  } catch {
    return undefined;
  }
  if (!dir || !isAbsolute(dir)) return undefined;
  return platform === 'darwin' ? join(dir, 'Library', 'Caches', 'enginectl') : join(dir, '.cache', 'enginectl');
}

/**
 * The cache file of one build of the bundle, on one Node, for one command. V8 checks only the
 * source's length and its own version and flags, so the name carries the build's content hash.
 * A cache holds what its first run compiled: one per command, so that `validate` does not start
 * from the code `run` compiled (unknown words share one file).
 */
export function cacheFileName(buildId: string, nodeVersion: string, arch: string, command: string | undefined): string {
  const kind = command !== undefined && CACHED_COMMANDS.includes(command) ? command : 'other';
  return `cli-${buildId}-node${nodeVersion.replace(/^v/, '')}-${arch}-${kind}.v8cache`;
}

/** The commands of run-command.ts (a test keeps the two lists equal): the loader runs before it. */
export const CACHED_COMMANDS: readonly string[] = ['run', 'validate', 'plan', 'report', 'schema', 'matrix', 'api', 'emulator'];

/**
 * The commands whose runs call a server. V8 takes a code cache only under the flags it was made
 * with, and a run that loads undici sets its flags (api/v8-flags.ts) before its cache is
 * written at exit: for these commands the loader sets it first, so that their cache is made and
 * read under the same flags. The others never set it (nor load node:v8 for it).
 */
export const CALLING_COMMANDS: readonly string[] = ['run', 'api'];

export interface CompiledBundle {
  /** Runs the CommonJS bundle and returns its exports. */
  run(require: NodeJS.Require): unknown;
  /**
   * Writes the cache when it was missing or rejected: call it once the command has run, so the
   * functions it compiled on the way are in the cache too. Never throws.
   */
  save(): void;
}

/** Compiles a CommonJS bundle, with the code cache at `cacheFile` when one is there and valid. */
export function compileBundle(file: string, cacheFile: string | undefined): CompiledBundle {
  // The bundle is ASCII (build.mjs checks): read as Latin-1, without UTF-8 decoding.
  const source = readFileSync(file, 'latin1');
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    // An import() left in the bundle (of a Node built-in) resolves as in any module.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const fresh = cachedData !== undefined && !script.cachedDataRejected;
  return {
    run(require) {
      const module = { exports: {} as unknown };
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(module.exports, module.exports, require, module, file, dirname(file));
      return module.exports;
    },
    save() {
      if (!cacheFile || fresh) return;
      if (writeAtomically(cacheFile, () => twice(script.createCachedData()))) prune(dirname(cacheFile), Date.now());
    },
  };
}

/**
 * A cache file holds V8's code cache twice, behind its length (8 bytes). V8 checks a cache's
 * length, version and flags but, in release builds, not its bytes: a damaged cache made the
 * process abort (a V8 fatal error). A run takes the cache only when both copies are the same
 * byte for byte (a native compare, where a checksum would load node:zlib at every start-up).
 */
const HEADER = 8;

function twice(data: Buffer): Buffer {
  const file = Buffer.allocUnsafe(HEADER + 2 * data.length);
  file.writeUInt32LE(data.length, 0);
  file.writeUInt32LE(0, 4);
  data.copy(file, HEADER);
  data.copy(file, HEADER + data.length);
  return file;
}

/** The cache's bytes when the file is there, whole and unchanged; undefined otherwise. */
function readCache(path: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined; // No cache yet, or not readable: compile from source.
  }
  const length = file.length >= HEADER ? file.readUInt32LE(0) : -1;
  if (length <= 0 || file.length !== HEADER + 2 * length) return undefined;
  const first = file.subarray(HEADER, HEADER + length);
  return first.equals(file.subarray(HEADER + length)) ? first : undefined;
}

/**
 * Writes a file through a temporary sibling renamed into place, so that concurrent runs never
 * read a half-written cache. The directory is made private to the user (a code cache is code).
 * The data is made only once the temporary file is open: a read-only directory costs nothing.
 */
function writeAtomically(path: string, data: () => Buffer): boolean {
  const tmp = `${path}.${process.pid}.tmp`;
  let fd: number | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    fd = openSync(tmp, 'wx', 0o600);
    const bytes = data();
    writeSync(fd, bytes, 0, bytes.length);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
    return true;
  } catch {
    // Not writable, full, or gone: the next run compiles from source again.
    try {
      if (fd !== undefined) closeSync(fd);
      rmSync(tmp, { force: true });
    } catch {
      // Nothing was made.
    }
    return false;
  }
}

/** A cache not written for this long is removed when another is written (it is made again if used). */
export const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes the caches not written for STALE_MS (those of earlier builds and Node versions, in the
 * main; one still in use is simply made again) and temporary files a killed run left a day ago,
 * so that the directory does not grow with every upgrade. Runs only after a cache was written.
 */
function prune(dir: string, now: number): void {
  try {
    for (const name of readdirSync(dir)) {
      if (!/^cli-.*\.v8cache(\.\d+\.tmp)?$/.test(name)) continue;
      const path = resolve(dir, name);
      const age = now - statSync(path).mtimeMs;
      if (age > (name.endsWith('.tmp') ? 24 * 60 * 60 * 1000 : STALE_MS)) rmSync(path, { force: true });
    }
  } catch {
    // Another run pruning too, or the directory gone: nothing to do.
  }
}
