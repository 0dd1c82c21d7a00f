// A retried index's earlier attempts, read at the end of the attempt that runs now: the sites they
// ended (and this attempt did not run again), failed or not. A failure is said by its exit and its
// reports too (exit 1), not only by the attempt that ran it. Each site is in its reports as the
// earlier attempt recorded it, read from the store as report --merge --store reads it
// (shard-site-read.ts), its steps marked done in that earlier run: a retried job's report (GitLab
// keeps only its artifacts) holds every site its index ended, and report --merge of the workers'
// files names each. A store that fails at the read of the waves' logs stops the worker with its
// report as it stands (WorkerStopped): every report it was asked for is written all the same, then
// the fault is said. A site whose record or journal cannot be read is left out of its reports, said
// in a warning (report --merge --store reads it).
import type { Report } from '../report/model.ts';
import type { Manifest } from '../shard/manifest.ts';
import { WaveLog } from '../shard/wave-log.ts';
import type { WorkerResult } from '../shard/worker.ts';
import { readAhead } from '../store/read-ahead.ts';
import type { RunStore } from '../store/store.ts';
import { readSite, SITES_AT_ONCE, storedSiteReport } from './shard-site-read.ts';
import { WorkerStopped, type SiteReport } from './shard-worker-report.ts';

/** What the fault stopped, as the worker says it. */
const UNREAD = "its earlier attempts' ended sites could not be read from the store";

/** A site an earlier attempt of the index ended: its wave, its outcome as the wave's log records it, and its run (its latest owner's). */
export interface EndedEarlier {
  site: string;
  wave: number;
  outcome: 'success' | 'failure';
  siteRun: string | undefined;
}

/**
 * The sites whose end index `index` recorded in an earlier attempt (not run by this one), in the
 * waves' order; WorkerStopped with the report `cut` gives, when the store fails at the read.
 */
export async function endedEarlier(
  store: RunStore,
  manifest: Manifest,
  index: number,
  result: WorkerResult,
  cut: () => Report,
): Promise<EndedEarlier[]> {
  const ranNow = new Set(result.ran.map((r) => r.site));
  const found: EndedEarlier[] = [];
  try {
    for (let wave = 1; wave <= manifest.waves.length; wave++) {
      const state = await new WaveLog(store, manifest.run, wave).read();
      const ended = (site: string, outcome: EndedEarlier['outcome']) => {
        if (!ranNow.has(site)) found.push({ site, wave, outcome, siteRun: state.owners.get(site)?.siteRun });
      };
      // A success is on its own entry, or on the entry of the same lane's next start.
      for (const e of state.entries)
        if (e.kind === 'ended' && e.worker === index) ended(e.site, e.outcome);
        else if (e.kind === 'start' && e.ended && e.worker === index) ended(e.ended.site, e.ended.outcome);
    }
  } catch (fault) {
    throw new WorkerStopped(fault, cut(), UNREAD);
  }
  return found;
}

/**
 * Each site `ended` lists, as its report: its terminal record and journal read from the store, its
 * steps that ran marked done in the earlier run that ended them (not sent by this attempt). One
 * that cannot be read is left out, said to `warn`.
 */
export async function earlierReports(
  store: RunStore,
  manifest: Manifest,
  ended: readonly EndedEarlier[],
  key: string | undefined,
  warn: (message: string) => void,
): Promise<SiteReport[]> {
  const read = readAhead(ended, (e) => readSite(store, manifest.run, e.site, e.siteRun), SITES_AT_ONCE);
  const reports: SiteReport[] = [];
  for (const [i, e] of ended.entries()) {
    const unread = (why: string) =>
      warn(
        `${manifest.over} ${e.site}: ended by an earlier attempt of this shard, ${why}: left out of this worker's reports (enginectl report --merge --store URL --run ${manifest.run} reads it)`,
      );
    try {
      const { terminal, segments } = await read(i);
      const siteRun = terminal?.siteRun ?? e.siteRun;
      if (!siteRun || !segments?.text) {
        unread('its journal holds no step');
        continue;
      }
      const { report, lastRunAt } = storedSiteReport(segments, store, siteRun, key, true);
      reports.push({ site: e.site, siteRun, report: { ...report, steps: report.steps.map(doneIn(lastRunAt)) } });
    } catch (error) {
      unread(`its record or journal could not be read (${(error as Error).message})`);
    }
  }
  return reports;
}

/** A step of a site an earlier attempt ended, as this attempt's report has it: done in the run that ended it, unless it never started (or was done earlier still). */
const doneIn =
  (runAt: number) =>
  (s: Report['steps'][number]): Report['steps'][number] =>
    s.resume === 'earlier-run' || s.startedAt === null
      ? s
      : { ...s, resume: 'earlier-run', earlierRunAt: new Date(runAt).toISOString() };
