// `enginectl shard FILE --store URL --shards N`: plans a sharded run. Its manifest (the pipeline's
// and inventory's hashes, the waves and budgets, the assignment) is written to the run store under
// a new run id, then the fan-out is printed in the shape of the engine that runs the workers: a
// GitHub job matrix in chunks of 256, GitLab's dotenv for parallel: N, a Kubernetes Indexed Job,
// or plain command lines. Each worker is `enginectl run FILE --store URL --run ID --shard I/N`.
import { ExitCode, UsageError } from '../../errors.ts';
import { loadPipelineFile, parseVars } from '../../app/pipeline-input.ts';
import { plannedFleet } from '../../app/shard-plan.ts';
import { planOrFind } from '../../app/shard-again.ts';
import { runKeyOf } from '../../ci/facts.ts';
import { namedStore, STORE_VARIABLE } from '../../app/stored-run.ts';
import { probeStore } from '../../store/probe.ts';
import { FAN_OUT_FORMATS, fanOut, refuseUnrunnable, type FanOutFormat } from '../../shard/fan-out.ts';
import { realClock } from '../../app/clock.ts';
import { idleShards } from '../../shard/idle-shards.ts';
import { neutralise } from '../../text/neutralise.ts';
import { shellWord } from '../../text/shell-word.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

export const SHARD_HELP = `Usage: enginectl shard FILE --store URL --shards N [options]

Plans a run of a fleet over N workers (shards) that the CI system or the cluster runs: writes the
run's manifest to the run store (the pipeline's and inventory's hashes, its rollout's waves and
failure budgets, how sites are assigned) and prints how to start the workers. Each worker runs
  enginectl run FILE --store URL --run ID --shard I/N      (or --shard auto)
and the workers keep the rollout's waves and one failure budget across them through the store.

Options:
  --store URL        the run store (file:///PATH a shared directory, or s3://BUCKET/PREFIX; also
                     ${STORE_VARIABLE})
  --shards N         how many workers (more than the sites: said in a line, the jobs past them
                     find no site)
  --assign static|queue
                     static (default): a stable hash of each site picks its shard, so a retried
                     shard runs the same sites; queue: each worker claims the next site of the wave
                     (shards finish together when sites take uneven time)
  --format plain|github|gitlab|k8s
                     plain (default): a worker's command line per shard; github: job outputs
                     (run, shards, chunks, matrix-1.. of at most 256 jobs each); gitlab: dotenv
                     lines (ENGINECTL_RUN, ENGINECTL_SHARDS) for a parallel: N job; k8s: an
                     Indexed Job manifest (--image)
  --image REF        with --format k8s: the worker's image (default: ghcr.io/enginectl/enginectl)
  --var NAME=VALUE   override a var, as each worker will be given it (repeatable)
  --run-key KEY      the run this plan belongs to (default: the CI system's run: a GitHub workflow
                     run, a GitLab pipeline, with its repository or project): planned again under the
                     same key (a re-run of the plan job) for the same file and --var values, shard
                     prints the run it planned first, writing nothing (refused when its pipeline,
                     inventory, --shards or --assign differ); other --var values or another file
                     (a matrix of plan jobs) plan a run of their own; a server URL holding a
                     secret (one per GitHub environment) is compared by a fingerprint keyed by
                     ENGINECTL_JOURNAL_KEY, refused when it differs or, under the CI run's key,
                     cannot be told: give each environment's plan a --run-key of its own
  --new-run          plan a new run even while one of this fleet has not ended (still under the
                     key: a re-run of the plan job prints it again; it takes the fleet's next slot)
  -h, --help         show this help

Without a key's run, a run of the store of the same pipeline and inventory that has not ended
(planned, under way, parked, stopped with sites not ended) is refused: go on with it (run its
workers again), abort it (decide --store URL --run ID --abort --reason TEXT), or give --new-run.
One that ended is said in a line: the new rollout sends its writes again.

Exit codes: 0 planned (or the key's run printed again), 1 the run store failed or holds a
damaged record of the fleet, 2 invalid input (a pipeline without rollout:, a step outside it, a run
of the fleet not ended).`;

/**
 * What `enginectl shard` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  store: { type: 'string' },
  shards: { type: 'string' },
  assign: { type: 'string' },
  format: { type: 'string' },
  image: { type: 'string' },
  var: { type: 'string', multiple: true },
  'run-key': { type: 'string' },
  'new-run': { type: 'boolean' },
} as const;

export async function shardCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('shard', args, OPTIONS);
  if (values.help) {
    io.stdout(`${SHARD_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError('BAD_ARGUMENTS', `shard: expected one pipeline FILE, got ${positionals.length}`, {
      hint: 'enginectl shard fleet.yml --store s3://BUCKET/PREFIX --shards 8',
    });
  // Digits only, as a worker's --shard I/N: not any text Number() reads (1e2, 0x10, " 2").
  const shards = /^\d+$/.test(values.shards ?? '') ? Number(values.shards) : NaN;
  if (values.shards === undefined || !Number.isInteger(shards) || shards < 1 || shards > 100_000)
    throw new UsageError(
      'BAD_ARGUMENTS',
      `shard: --shards ${values.shards ?? '(missing)'}: give how many workers, 1 to 100,000`,
      {
        hint: 'enginectl shard fleet.yml --store URL --shards 8',
      },
    );
  const assign = values.assign ?? 'static';
  if (assign !== 'static' && assign !== 'queue')
    throw new UsageError('BAD_ARGUMENTS', `shard: --assign ${assign}: static or queue`, {
      hint: 'static (the default): a stable hash of each site picks its shard; queue: each worker claims the next site',
    });
  const format = (values.format ?? 'plain') as FanOutFormat;
  if (!FAN_OUT_FORMATS.includes(format))
    throw new UsageError('BAD_ARGUMENTS', `shard: --format ${format}: one of ${FAN_OUT_FORMATS.join(', ')}`);
  if (values.image !== undefined && format !== 'k8s')
    throw new UsageError(
      'BAD_ARGUMENTS',
      `shard: --image goes with --format k8s (the Job's worker image), not ${format}`,
      {
        hint: 'enginectl shard fleet.yml --store URL --shards 8 --format k8s --image REF',
      },
    );
  const file = positionals[0]!;
  const vars = parseVars(values.var);
  if (format === 'plain') oneLineWords(file, values.var ?? []);
  const { pipeline, sources } = await loadPipelineFile(file, io, { vars });
  const fleet = plannedFleet(pipeline, sources, vars, io.env);
  const store = namedStore(
    'shard',
    values.store,
    io.env,
    io.cwd,
    'the manifest and the workers live in a run store: ',
    io.signal,
  );
  const clock = io.clock ?? realClock();
  // A fan-out its engine refuses (GitLab's 200 jobs) plans no run: refused before the store is touched.
  refuseUnrunnable(format, shards);
  await probeStore(store, clock.now);
  const { manifest, again } = await planOrFind(store, pipeline, fleet, {
    shards,
    assign,
    file,
    cwd: io.cwd,
    env: io.env,
    now: () => clock.now(),
    key: values['run-key'] ?? runKeyOf(io.env),
    named: values['run-key'] !== undefined,
    newRun: values['new-run'] === true,
    stderr: (text) => io.stderr(text),
  });
  const run = manifest.run;
  // The worker's words, given to a container as they are and to a shell quoted.
  const words = ['run', file, ...(values.var ?? []).flatMap((v) => ['--var', v])];
  const worker = `enginectl ${words.map(shellWord).join(' ')}`;
  const command = format === 'k8s' ? worker : `${worker} --store ${shellWord(store.url)} --run ${run}`;
  const out = fanOut(format, {
    manifest,
    command,
    args: words,
    storeUrl: store.url,
    image: values.image ?? 'ghcr.io/enginectl/enginectl',
  });
  io.stderr(
    `${neutralise(`run ${run} in ${store.url}: ${fleet.sites.length} ${fleet.over}(s) in ${manifest.waves.length} wave(s) over ${shards} shard(s), ${assign}${again ?? ''}`)}\n`,
  );
  // More shards than sites: planned as asked, said in a line (the jobs past the sites start and do nothing).
  const idle = idleShards(manifest);
  if (idle) io.stderr(`${neutralise(`enginectl: warning: ${idle}`)}\n`);
  io.stdout(`${out}\n`);
  return ExitCode.ok;
}

/**
 * A line break, a carriage return or a terminal's control in a worker's word: no quoting a POSIX
 * shell reads keeps it on the one line of its shard (dash has no $'...'), so a line-by-line runner
 * (xargs -L 1, GNU parallel, \`while read\`) would run what follows it as a command of its own, and
 * a terminal would act on an escape. The run is not planned. A tab is carried, quoted as any blank.
 */
// eslint-disable-next-line no-control-regex
const NOT_ONE_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;

function oneLineWords(file: string, vars: readonly string[]): void {
  const refuse = (what: string) =>
    new UsageError(
      'BAD_ARGUMENTS',
      `shard --format plain: ${what} holds a line break or a control character, which a command line per shard cannot carry`,
      {
        hint: 'give the value in the pipeline file (vars:), or start the workers with --format github, gitlab or k8s, whose commands you write',
      },
    );
  if (NOT_ONE_LINE.test(file)) throw refuse("the pipeline file's path");
  for (const v of vars) if (NOT_ONE_LINE.test(v)) throw refuse(`--var ${v.split('=')[0]}`);
}
