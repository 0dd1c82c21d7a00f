// The report files as a channel: each format of report/formats.ts asked for, written as the run
// ends (app/report-files.ts: each whole or not at all, one failing never stopping the others).
import { writeReports, type ReportPaths } from '../report-files.ts';
import type { AtomicFs } from '../atomic-write.ts';
import type { Channel } from './channel.ts';
import type { WaysOn } from '../../ways-on.ts';

export interface ReportFilesChannel extends Channel {
  /** The files written, once the run ended. */
  readonly written: readonly string[];
  /** "--flag path: reason" of each not written. */
  readonly failed: readonly string[];
}

export function reportFilesChannel(
  paths: ReportPaths,
  options: { said?: (path: string) => void; fs?: AtomicFs | undefined; ways?: WaysOn | undefined } = {},
): ReportFilesChannel {
  const written: string[] = [];
  const failed: string[] = [];
  return {
    name: 'report files',
    written,
    failed,
    async ended(end) {
      const report = end.report;
      if (!report) return;
      const done = await writeReports(() => report, paths, options.fs, options.ways);
      written.push(...done.written);
      failed.push(...done.failed);
      for (const path of done.written) options.said?.(path);
      return { failed: done.failed };
    },
  };
}
