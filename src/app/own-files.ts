// The files a command writes are its own. Two outputs on one path would leave only the last one
// written; an output on a file the command reads would replace it: the pipeline, a file it
// includes, an emulator state, the reports being merged, and above all the journal, the run's
// record of what it sent, which resume and report read back. Checked before anything runs. A
// stream (/dev/stdout, a FIFO, /dev/null) is never replaced (atomic-write.ts), so never counts.
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors.ts';
import { descriptorOf, writtenInPlace } from './atomic-write.ts';

export interface NamedFile {
  /** How the person named it: a flag (`--summary`), or what it is (`the pipeline file`). */
  role: string;
  /** The path as given, for the message. */
  given: string;
  /** The path resolved against the command's directory. */
  path: string;
}

/** A file named on the command line, resolved against `cwd`. */
export function named(role: string, given: string, cwd: string): NamedFile {
  return { role, given, path: resolve(cwd, given) };
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Where a path leads: the entry in its real directory (where a file written there is renamed to)
 * and, when it exists, the file it reaches through links. Two paths whose places meet are one file.
 */
function places(path: string): string[] {
  // A stream (a descriptor, a FIFO, a terminal, /dev/null) is written as it is, never replaced.
  if (descriptorOf(path) !== undefined) return [];
  if (writtenInPlace(lstatOf(path))) return [];
  const found: string[] = [];
  try {
    found.push(join(realpathSync.native(dirname(path)), basename(path)));
  } catch {
    found.push(path);
  }
  try {
    found.push(realpathSync.native(path));
  } catch {
    // not there (yet): an output about to be created
  }
  return found;
}

/**
 * Refuses (exit 2, nothing run) an output that shares a file with an earlier output or with a
 * file the command reads, or whose path is a directory another of them is in. `outputs` are in the order the message should name them.
 */
export function checkOwnFiles(outputs: readonly NamedFile[], inputs: readonly NamedFile[]): void {
  // An output on the path of a directory another file is in: the report paths' check makes that
  // directory, and the output then fails after the run (`--junit out/x --html out/x/r.html`).
  // (A directory already there is said to be one by the report paths' check.)
  for (const file of outputs) {
    if (lstatOf(file.path)?.isDirectory()) continue;
    const inside = [...inputs, ...outputs].find((other) => other.path.startsWith(file.path + sep));
    if (inside)
      throw new UsageError(
        'SAME_FILE',
        `${file.role} ${file.given} is the directory of ${inside.role} ${inside.given}: each output needs a file of its own`,
        { hint: `give ${file.role} another path; nothing was run` },
      );
  }
  const taken = new Map<string, { file: NamedFile; output: boolean }>();
  const claim = (file: NamedFile, output: boolean) => {
    for (const place of places(file.path)) if (!taken.has(place)) taken.set(place, { file, output });
  };
  for (const file of inputs) claim(file, false);
  for (const file of outputs) {
    const owner = places(file.path)
      .map((place) => taken.get(place))
      .find((found) => found !== undefined);
    if (owner?.output) {
      throw new UsageError(
        'SAME_FILE',
        `${owner.file.role} and ${file.role} name the same file (${file.given}): each output needs a file of its own`,
        { hint: `give ${file.role} another path; nothing was run` },
      );
    }
    if (owner)
      throw new UsageError(
        'SAME_FILE',
        `${file.role} ${file.given} is ${owner.file.role}: writing there would replace it`,
        { hint: `give ${file.role} another path; nothing was run` },
      );
    claim(file, true);
  }
}

/** The files a pipeline was read from: the pipeline's own, then each file it includes (relative to it). */
export function pipelineFiles(file: string, sources: readonly { path: string }[], cwd: string): NamedFile[] {
  return [
    named('the pipeline file', file, cwd),
    ...sources.slice(1).map((s) => ({
      role: `a file the pipeline includes (${s.path})`,
      given: s.path,
      path: resolve(cwd, dirname(file), s.path),
    })),
  ];
}
