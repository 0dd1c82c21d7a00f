// The reports merged are of one pipeline: the same files and --var values (their hash) and the
// same fleet (an inventory the environment chose makes another), unless forced; and no instance is
// in two of them, but one every job ran (a step without a matrix, or over other keys than theirs).
import { resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import { neutralise } from '../text/neutralise.ts';
import type { Report, ReportStep } from './model.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

interface Source {
  source: string;
  report: Report;
}

export interface MergeCheckOptions {
  /** Merge reports of different pipeline files (another hash). */
  force?: boolean;
  /** How a refusal names the merge and the ways on (the CLI's command and flags by default; an action's inputs). */
  ways?: WaysOn | undefined;
}

export function checkSamePipeline(shards: readonly Source[], options: MergeCheckOptions): void {
  if (options.force) return;
  const ways = options.ways ?? CLI_WAYS;
  // The action takes no --force: its refusal offers none.
  const force = ways.force ? `; ${ways.force} merges them anyway` : '';
  const first = shards[0]!;
  for (const shard of shards.slice(1)) {
    if (shard.report.pipeline.sha256 !== first.report.pipeline.sha256) {
      // Two versions may hash the same files otherwise (an earlier one hashed a job's files with only
      // its own selection's literal credentials masked): said as the cause it may be.
      const [a, b] = [first.report.tool.version, shard.report.tool.version];
      const versions = a === b ? '' : `, or the same hashed otherwise: the reports are of enginectl ${b} and ${a}`;
      throw new UsageError(
        'MERGE_MISMATCH',
        `${ways.merging}: ${shard.source} is a report of another pipeline than ${first.source} (${shard.report.pipeline.file} ${short(shard.report.pipeline.sha256)}, not ${first.report.pipeline.file} ${short(first.report.pipeline.sha256)}: other files or other ${ways.varValues}${versions})`,
        {
          hint: versions
            ? `run every job of one release on one enginectl version, with the same files and ${ways.varValues}${force}`
            : `merge the reports of one release, run with the same files and ${ways.varValues}${force}`,
        },
      );
    }
    // The same files may make another fleet (an inventory chosen by the environment).
    if (fleetOf(shard.report) !== fleetOf(first.report)) {
      throw new UsageError(
        'MERGE_MISMATCH',
        `${ways.merging}: ${shard.source} is a report of another fleet than ${first.source}: ${fleetDifference(shard.report, first.report)}`,
        { hint: `merge the reports of one release, run with the same files, ${ways.varValues} and inventory${force}` },
      );
    }
  }
}

/** A report's whole fleet, each key and value kept apart (joined text made "a, b" one value of a, b). */
const fleetOf = (report: Report) =>
  JSON.stringify(Object.entries(report.matrix).map(([k, values]) => [k, values.map(String)]));

/** A few values, the rest counted: "site-150, site-151" or "site-1, … and 95 more". */
const some = (values: readonly string[]) =>
  values.length <= 5 ? values.join(', ') : `${values.slice(0, 5).join(', ')} and ${values.length - 5} more`;

/** Each value with how many times it is held, in the order first held. */
function counts(values: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of values) out.set(v, (out.get(v) ?? 0) + 1);
  return out;
}

const once = (n: number) => (n === 1 ? 'once' : `${n} times`);

/** How `here`'s fleet differs from `there`'s, key by key: "its fleet's site has site-002 once more and lacks site-003". */
function fleetDifference(here: Report, there: Report): string {
  // Each fleet's own keys only: a key named as an object's own (toString, constructor) is no value of the other.
  const [hers, others] = [new Map(Object.entries(here.matrix)), new Map(Object.entries(there.matrix))];
  const out: string[] = [];
  for (const key of new Set([...hers.keys(), ...others.keys()])) {
    const [mine, theirs] = [hers.get(key)?.map(String), others.get(key)?.map(String)];
    if (!mine || !theirs) {
      out.push(mine ? `its fleet has a key ${key} the other's has not` : `its fleet has no key ${key}`);
      continue;
    }
    // A value holding a comma is said quoted, the key's others with it: "eu-1, eu-2" is not eu-1, eu-2.
    const quoted = [...mine, ...theirs].some((v) => /,|^\s|\s$|^$/.test(v));
    const word = (v: string) => (quoted ? JSON.stringify(v) : v);
    // By value, in one pass each: a value both hold is never said added or lacking, only held more or fewer times.
    const [a, b] = [counts(mine), counts(theirs)];
    const added = [...a.keys()].filter((v) => !b.has(v)).map(word);
    const lacks = [...b.keys()].filter((v) => !a.has(v)).map(word);
    const times = (x: Map<string, number>, y: Map<string, number>, than: string) =>
      [...x].filter(([v, n]) => n > (y.get(v) ?? n)).map(([v, n]) => `${word(v)} ${once(n - y.get(v)!)} ${than}`);
    const [more, fewer] = [times(a, b, 'more'), times(b, a, 'less')];
    const said = [
      ...(added.length ? [`adds ${some(added)}`] : []),
      ...(more.length ? [`has ${some(more)}`] : []),
      ...(fewer.length ? [`has ${some(fewer)}`] : []),
      ...(lacks.length ? [`lacks ${some(lacks)}`] : []),
    ];
    if (said.length) out.push(`its fleet's ${key} ${said.join(' and ')}`);
    else if (mine.join('\u0000') !== theirs.join('\u0000'))
      out.push(`its fleet's ${key} holds the same values in another order`);
  }
  // Every key holds the same values in the same order: only the keys' order differs.
  return out.join('; ') || "its fleet's keys are in another order";
}

const short = (sha: string | null) => (sha ? sha.slice(0, 'sha256:'.length + 12) : 'no hash');

/**
 * Refuses an instance two reports both have, unless every job ran it: an instance of a site (a
 * value of the key the jobs were limited by), or any instance of two reports limited to nothing
 * (two runs of the same: two attempts of one job). `jobs`: the reports are a fleet's jobs (report
 * --merge FILE...), not a sharded run's sites.
 */
export function checkOverlap(
  seen: Source,
  here: Source,
  step: ReportStep,
  jobs: boolean,
  ways: WaysOn = CLI_WAYS,
): void {
  const own = `${ways.given('only')} KEY=VALUE`;
  if (step.matrix && (!ranInEvery(here.report, step.matrix) || !ranInEvery(seen.report, step.matrix)))
    throw new UsageError(
      'MERGE_OVERLAP',
      `${ways.merging}: ${seen.source} and ${here.source} both have step ${step.step + 1} (${Object.entries(step.matrix)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ')})`,
      {
        hint: `merge one report per instance: each job runs its own ${own}; leave out the report of an earlier attempt`,
      },
    );
  if (jobs && !step.matrix && everyInstance(here.report) && everyInstance(seen.report))
    throw new UsageError(
      'MERGE_OVERLAP',
      `${ways.merging}: ${seen.source} and ${here.source} both ran every instance of the pipeline (neither was limited by ${ways.selection})`,
      { hint: `merge one report per job, each run with its own ${own}: the report of a job's last attempt` },
    );
}

/**
 * Whether a job ran this matrix instance because its selection does not filter it, as every job
 * did (and a step without a matrix): its matrix is over other keys than the job's --only and
 * --skip (a key an instance does not have never filters it). Kept once, as the job where it went
 * worst saw it.
 */
function ranInEvery(report: Report, matrix: NonNullable<ReportStep['matrix']>): boolean {
  const keys = report.selection ? [...Object.keys(report.selection.only), ...Object.keys(report.selection.skip)] : [];
  return keys.length > 0 && !keys.some((key) => Object.hasOwn(matrix, key));
}

/** A job's report of every instance: not limited by --only or --skip, nor a sharded run's worker's. */
const everyInstance = (report: Report) => report.selection === null && report.shard === null;

/** The files given to report --merge: at least one, and none given twice (a glob and its name): that is no two jobs overlapping. */
export function checkMergeFiles(files: readonly string[], cwd: string): void {
  if (files.length === 0)
    throw new UsageError('BAD_ARGUMENTS', 'report --merge: no report named', {
      hint: 'enginectl report --merge reports/*.json --summary fleet.md',
    });
  const given = new Map<string, string>();
  for (const file of files) {
    const twice = given.get(resolve(cwd, file));
    if (twice !== undefined)
      throw new UsageError(
        'MERGE_OVERLAP',
        `report --merge: ${neutralise(file)} is given twice${twice === file ? '' : ` (as ${neutralise(twice)} too)`}`,
        { hint: 'give each report once' },
      );
    given.set(resolve(cwd, file), file);
  }
}
