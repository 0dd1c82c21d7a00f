// A site of a sharded run as the store holds it: its terminal record, then the journal of the run it
// names (else of the run its owner started), and the report of that journal as a site's report,
// told as the merged report tells it. report --merge --store reads every site so; a retried
// index's worker, the sites its earlier attempts ended (shard-earlier.ts).
import { readSegments, storedJournalAt, type StoredText } from '../journal/replica.ts';
import { storedWays } from '../ways-on.ts';
import { journalRelease } from '../journal/release.ts';
import type { Report } from '../report/model.ts';
import { undecidedDoubts } from '../runner/result.ts';
import { readTerminal } from '../shard/terminal.ts';
import type { RunStore } from '../store/store.ts';
import { shardedHints } from './shard-hints.ts';

/** How many sites' records and journals are read at once (a directory's reads in line overlap its listings; S3's, their round trips). */
export const SITES_AT_ONCE = 16;

/** A site's terminal record, then the journal of the run it names, else of `owned` (its owner's): none without a run; no segment (or fences alone) is no report; a store that fails the read fails the merge (STORE_FAILED). */
export async function readSite(store: RunStore, run: string, site: string, owned: string | undefined) {
  const terminal = await readTerminal(store, run, site);
  const siteRun = terminal?.siteRun ?? owned;
  return { terminal, segments: siteRun === undefined ? undefined : await readSegments(store, siteRun) };
}

/**
 * The report of a site's run from its journal's text in the store `url` (`key`: its seal key), with
 * a sharded site's hints; `ended`: the site ended (its terminal record, or its end in the wave's
 * log); `halted`: the rollout halted. Ended with a write in doubt no one decided (continue-on-error
 * let it pass), or with its run cut short (a taker whose verify could not tell ends it there), it
 * failed in its wave, as its worker's report says. Told from the journal, not from the site's
 * terminal record: an operator's resume of the site's run since (its doubt decided) is how the site
 * now stands. `lastRunAt`: when the journal's last run started.
 */
export function storedSiteReport(
  stored: StoredText,
  store: RunStore,
  siteRun: string,
  key: string | undefined,
  ended: boolean,
  halted = false,
): { report: Report; lastRunAt: number } {
  // A record refused is the store's (its segment's key named), never a file to give again.
  const ways = storedWays(storedJournalAt(store, siteRun, () => stored.segments));
  const { report: read, lastRunAt } = journalRelease(stored.text, `${store.url} run ${siteRun}`, key, undefined, ways);
  const report = shardedHints(read, siteRun, ended, halted);
  if (
    ended &&
    (report.outcome === 'cancelled' || (report.outcome === 'success' && undecidedDoubts(report.steps).length > 0))
  )
    report.outcome = 'failure';
  return { report, lastRunAt };
}
