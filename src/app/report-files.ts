// Writing the report files a run asked for. Paths are checked before the run (a
// deployment must not start when its report cannot be written); after the run every report is
// attempted even when another fails, and failures are collected for the caller to tell.
import type { ErrorCode } from '../error-codes.ts';
import { fstatSync } from 'node:fs';
import { access, constants, lstat, open, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { descriptorOf, notWritable, writeAtomic, writtenInPlace, type AtomicFs } from './atomic-write.ts';
import { named, type NamedFile } from './own-files.ts';
import { UsageError } from '../errors.ts';
import { makeDirectories } from '../make-directories.ts';
import { REPORT_FORMATS, type ReportPaths } from '../report/formats.ts';
import type { Report } from '../report/model.ts';
import type { WaysOn } from '../ways-on.ts';

export type { ReportPaths };

/** Resolves the paths against `cwd` and checks each can be written; throws a UsageError (exit 2). */
export async function preparePaths(paths: ReportPaths, cwd: string): Promise<ReportPaths> {
  const out: ReportPaths = {};
  for (const { key, flag, extension } of REPORT_FORMATS) {
    const given = paths[key];
    if (given === undefined) continue;
    if (given.trim() === '')
      throw new UsageError('BAD_REPORT_PATH', `${flag}: the path is empty`, {
        hint: `give a file name, e.g. ${flag} reports/run.${extension}`,
      });
    const path = resolve(cwd, given);
    try {
      await writable(path);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UsageError('BAD_REPORT_PATH', `${flag} ${given}: cannot write there (${reason})`, {
        hint: 'choose a file in a directory this process can write; nothing was run',
      });
    }
    out[key] = path;
  }
  return out;
}

/** The report files asked for, by flag, in the order of REPORT_FORMATS, resolved against `cwd`. */
export function reportOutputs(given: ReportPaths, cwd: string): NamedFile[] {
  return REPORT_FORMATS.flatMap(({ key, flag }) => (given[key] === undefined ? [] : [named(flag, given[key], cwd)]));
}

/**
 * Whether a report can be written at `path`: a descriptor of this process (/dev/stdout) that is
 * open, a FIFO or a terminal this process may write, or else a file (or a link, which is replaced
 * as a file is) whose directory this process may write: the report is written beside it, then
 * renamed over it.
 */
async function writable(path: string): Promise<void> {
  const fd = descriptorOf(path);
  if (fd !== undefined) {
    fstatSync(fd);
    return;
  }
  const info = await lstat(path).catch(() => undefined);
  if (info?.isDirectory()) throw new Error('it is a directory');
  if (writtenInPlace(info)) {
    const refused = notWritable(info);
    if (refused) throw new Error(refused);
    return access(path, constants.W_OK);
  }
  const dir = dirname(path);
  await makeDirectories(dir);
  // A file made and removed: access(W_OK) says yes to root anywhere (/proc, /sys, a read-only mount).
  const probe = join(dir, `.enginectl-probe-${process.pid}-${randomUUID()}`);
  await (await open(probe, 'wx')).close();
  await unlink(probe);
}

export function fullReportOf(paths: ReportPaths): string | undefined {
  return [paths.html, paths.json].filter(Boolean).join(' and ') || undefined;
}

/** The code printed for a report that could not be written (the others still are; the exit is 1). */
export const REPORT_NOT_WRITTEN = { code: 'REPORT_NOT_WRITTEN' } as const satisfies { code: ErrorCode };

/** Writes every report asked for, each whole or not at all (atomic-write.ts); one failing never stops the others. */
export async function writeReports(
  report: () => Report,
  paths: ReportPaths,
  fs?: AtomicFs,
  ways?: WaysOn,
): Promise<{ written: string[]; failed: string[] }> {
  const written: string[] = [];
  const failed: string[] = [];
  for (const { key, flag, render } of REPORT_FORMATS) {
    const path = paths[key];
    if (!path) continue;
    try {
      await makeDirectories(dirname(path));
      await writeAtomic(path, await render(report(), fullReportOf(paths), ways), fs);
      written.push(path);
    } catch (error) {
      failed.push(`${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  return { written, failed };
}
