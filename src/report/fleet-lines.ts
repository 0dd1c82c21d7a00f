// What `report --merge` prints for a fleet: a line per job (or site) and its status, where a
// sharded rollout stopped and which sites that left unstarted, then the fleet's line. Text made
// safe for a terminal, a line break in a name its further lines indented (no line of its own passes
// for a site's); the edge prints it.
import { formatDuration } from '../duration.ts';
import { neutraliseLines } from '../text/neutralise.ts';
import { fleetPhrase, fleetRows, UNDER_WAY } from './fleet.ts';
import { countsText, outcomeWord, type Report, type ReportStep } from './model.ts';

/** An instance the rollout's halt, park or stop left not started: listed, but it did not run. */
const leftByRollout = (s: ReportStep) =>
  s.error?.code === 'ROLLOUT_HALTED' || s.error?.code === 'ROLLOUT_PARKED' || s.error?.code === 'NOT_STARTED';

/** A shard no report file is from (report --merge FILES --expect-shards N): its sites may have run, unseen. */
const missingFile = (noReport: string) => /^shard \d+\/\d+$/.test(noReport);

export function fleetLines(report: Report): string[] {
  const lines = fleetRows(report).map(
    (row) =>
      `${row.status === 'success' ? '✔' : row.status === UNDER_WAY ? '⋯' : row.status === 'parked' ? '⏸' : '✖'} ${neutraliseLines(row.label)}: ${row.status === 'no report' ? row.detail : `${row.status} (${row.detail})`}${row.source && row.source !== row.label ? `  ${neutraliseLines(row.source)}` : ''}`,
  );
  const stopped = rolloutLine(report) ?? underWayLine(report);
  if (stopped) lines.push(stopped);
  lines.push(
    `fleet "${neutraliseLines(report.pipeline.name)}": ${outcomeWord(report)} in ${formatDuration(report.durationMs)} (${fleetPhrase(report)}; ${report.counts.total} step run(s): ${countsText(report)})`,
  );
  return lines;
}

/** A sharded run read while its workers ran: where it stood, what ran and what had not started. */
function underWayLine(report: Report): string | undefined {
  const at = report.merged?.underWay;
  if (!at) return undefined;
  const names = (sites: string[]) => sites.map((site) => neutraliseLines(site)).join(', ');
  const doing = at.waitingFor
    ? `waiting for ${neutraliseLines(at.waitingFor)}`
    : at.sites.length
      ? `running: ${names(at.sites)}`
      : 'none running';
  return `⋯ the run is under way at wave ${at.wave}: ${doing}${at.notStarted.length ? `; not started yet: ${names(at.notStarted)}` : ''}; this report is not its result: read it again once its workers ended`;
}

/** A sharded run's rollout, from its waves' verdicts: where it halted, waits or stopped, and which sites that left unstarted. */
function rolloutLine(report: Report): string | undefined {
  const { halted, parked } = report.rollout ?? {};
  // Stopped mid-wave, no worker running it: as the store's read says (report files cannot know it).
  const waves = report.rollout?.waves ?? [];
  const stopped = report.rollout?.stopped;
  const cut = stopped === null || stopped === undefined ? undefined : waves[stopped - 1];
  if (!halted && !parked && !cut)
    return report.rollout && report.merged?.reports.length === 0 && !report.merged.underWay
      ? '✖ no site of the rollout started: no worker has run yet; start its shards (the commands enginectl shard printed)'
      : undefined;
  const { over } = report.rollout!;
  // The values any step ran for, read once (a fleet of 10,000 sites has tens of thousands of steps).
  const ran = new Set(report.steps.filter((s) => !leftByRollout(s)).map((s) => s.matrix?.[over]));
  // With a worker's file missing, a site no file holds may have run in it: only a wave the rollout never reached is sure.
  const unsure = report.merged?.noReport.some(missingFile) ?? false;
  // Halted, the merge decided which sites no report holds may have run (merge-shards.ts
  // unstartedAfter, from the records: which attempts' reports are missing, and whose sites they
  // run): those are "no report"; a site not among them provably never started.
  const owed = new Set(halted ? (report.merged?.noReport ?? []) : []);
  const [unstarted, unseen, died]: [string[], string[], string[]] = [[], [], []];
  for (const w of waves)
    for (const v of w.values)
      if (!ran.has(v))
        (halted
          ? owed.has(`${over}=${v}`)
            ? unsure
              ? unseen
              : died
            : unstarted
          : unsure && w.outcome !== 'not-started'
            ? unseen
            : unstarted
        ).push(neutraliseLines(v));
  const left = `${unstarted.length ? `; not started: ${unstarted.join(', ')}` : ''}${unseen.length ? `; in no report (not started, or the missing shard's): ${unseen.join(', ')}` : ''}${died.length ? `; in no report (its job died or never ran): ${died.join(', ')}` : ''}`;
  if (halted)
    return `✖ the rollout halted at wave ${halted.wave}: ${neutraliseLines(halted.reason)}; nothing is undone${left}`;
  if (!parked) {
    // Its failures past its budget already, the wave halts the rollout once it ends.
    const then =
      cut!.failed.length > cut!.budget
        ? `its failures passed its budget of ${cut!.budget}: the rollout halts there once they ended`
        : cut!.wave === waves.length
          ? 'the rollout ends once they ended'
          : 'the rollout goes on from there';
    return `✖ the rollout stopped in wave ${cut!.wave}: not every ${neutraliseLines(over)} of it ended, and no worker is running it${left}; run the shards whose ${neutraliseLines(over)}s have not ended again (the same commands): ${then}`;
  }
  // Its sites' runs parked for their windows: the rollout waits for them to open.
  if (parked!.for === 'window')
    return `⏸ the rollout waits at wave ${parked!.wave} for ${neutraliseLines(parked!.reason)}; run the workers that parked again (the same commands) at or after ${new Date(parked!.until!).toISOString()}${left}`;
  const waits =
    parked!.for === 'bake' && parked!.until !== undefined
      ? `${neutraliseLines(parked!.reason)} (until ${new Date(parked!.until).toISOString()}); run the workers again once it has passed`
      : `${neutraliseLines(parked!.reason)} (since ${new Date(parked!.since).toISOString()}); the workers waiting go on once it is written, and any that parked when run again`;
  return `⏸ the rollout waits at wave ${parked!.wave}: ${waits}${left}`;
}
