// `enginectl decide --store URL --run ID`: what a parked run waits for, each with its evidence;
// with a decision (--retry, --skip, --exclude SITE, --continue, --abort), that decision recorded
// in the run's journal in the store with who, when, why and on what evidence (app/decide.ts).
import { resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { ExitCode, UsageError } from '../../errors.ts';
import { decide, type DecisionKind } from '../../app/decide.ts';
import { verifyJournal } from '../../app/verify.ts';
import { inDoubtInstances, serversToRead } from '../../journal/verify.ts';
import { makePlan } from '../../app/plan.ts';
import { PipelineInvalid } from '../../pipeline/diagnostics.ts';
import type { JournalState } from '../../journal/read.ts';
import type { Pipeline } from '../../pipeline/model.ts';
import { loadPipelineFile, parseVars, type Source } from '../../app/pipeline-input.ts';
import { againstRun, loadRunPipeline, refuseAnotherPipeline } from '../../app/run-pipeline.ts';
import { teachSecrets } from '../../app/journal-setup.ts';
import { unsetSecretsWarning } from '../../app/reason-secrets.ts';
import { storeToRead, storeUrlOf } from '../../app/stored-run.ts';
import { abortSharded, isShardedRun } from './decide-sharded.ts';
import { realClock } from '../../app/clock.ts';
import { DURATION_LIMIT, MAX_DURATION_MS, parseDuration, shownDuration } from '../../duration.ts';
import { ciMasker } from '../ci-masker.ts';
import { neutraliseLines } from '../../text/neutralise.ts';
import { parseCommandArgs } from '../args.ts';
import { chooseCi, type CliIO } from '../io.ts';

export const DECIDE_HELP = `Usage: enginectl decide --store URL --run ID [decision] [options]

Lists what a parked run (run --store URL exited 75) waits for, each with its evidence: for a
value whose call is in doubt, verify's reading of its target; for a value waited on, a fresh
plan --live of its steps (GET requests only, as verify); for a bake, what its park said (on which
clock), its time left on this machine's clock (run --continue judges it on its machine's clock and
a server's); the wave's failure budget left. With a decision, records it in the run's journal in
the store, with who (the CI's actor), when, why (--reason) and the evidence; then run FILE --store
URL --continue ID goes on.

Decisions:
  --retry VALUE         send the value's steps again: only when verify reads its call in doubt as
                        not applied (or with --accept-cannot-tell --reason); a plain failure is retried
  --skip VALUE          do not send the value's steps again; recorded as skipped, never a success
  --exclude VALUE       the wave goes on without the value, counted against its budget
  --continue            go on past the wave: its failures left as they are, its bake ended now
  --abort               end the run here: nothing more is sent; --continue is then refused
  --after D --then abort|continue
                        a timeout: the decision takes effect D (4h) from now on the run's clock,
                        unless another is made before

Options:
  --store URL           the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --run ID              the parked run
  --reason TEXT         why (recorded, shown in every report)
  --accept-cannot-tell  with --retry: send again although verify cannot tell (needs --reason)
  --pipeline FILE       the pipeline whose servers verify reads (default: the file the run named,
                        from where decide runs: decide from the run's checkout, or give it)
  --var NAME=VALUE      a var the servers read, as given to run (repeatable)
  -h, --help            show this help

A pipeline whose servers are not where the run sent its calls is refused before anything is read
back (PIPELINE_NOT_THE_RUNS, exit 2, nothing recorded); other --var values or a changed file that
move no server are said in a warning.

Exit codes: 0 listed or recorded, 1 the store failed (STORE_FAILED), 2 invalid input, a decision refused or a pipeline not the run's (nothing recorded),
130/143/129 interrupted while it read calls in doubt back (nothing recorded).`;

/**
 * What `enginectl decide` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  store: { type: 'string' },
  run: { type: 'string' },
  retry: { type: 'string' },
  skip: { type: 'string' },
  exclude: { type: 'string' },
  continue: { type: 'boolean' },
  abort: { type: 'boolean' },
  reason: { type: 'string' },
  'accept-cannot-tell': { type: 'boolean' },
  after: { type: 'string' },
  then: { type: 'string' },
  pipeline: { type: 'string' },
  var: { type: 'string', multiple: true },
} as const;

export async function decideCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('decide', args, OPTIONS);
  if (values.help) {
    io.stdout(`${DECIDE_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length > 0) throw new UsageError('BAD_ARGUMENTS', 'decide: takes no FILE; --store URL --run ID');
  const url = storeUrlOf(values.store, io.env);
  if (url === undefined || values.run === undefined)
    throw new UsageError('BAD_ARGUMENTS', 'decide: give --store URL (or ENGINECTL_STORE) and --run ID', {
      hint: 'enginectl runs --store URL --parked lists the parked runs',
    });
  const chosen: { kind: DecisionKind; value?: string | undefined }[] = [
    ...(values.retry === undefined ? [] : [{ kind: 'retry' as const, value: values.retry }]),
    ...(values.skip === undefined ? [] : [{ kind: 'skip' as const, value: values.skip }]),
    ...(values.exclude === undefined ? [] : [{ kind: 'exclude' as const, value: values.exclude }]),
    ...(values.continue ? [{ kind: 'continue' as const }] : []),
    ...(values.abort ? [{ kind: 'abort' as const }] : []),
  ];
  const afterMs = values.after === undefined ? undefined : parseDuration(values.after);
  if ((values.after === undefined) !== (values.then === undefined))
    throw new UsageError(
      'BAD_ARGUMENTS',
      'decide: --after DURATION goes with --then abort|continue (--after 4h --then abort)',
    );
  const after = values.after === undefined ? '' : `decide: --after ${shownDuration(values.after)}`;
  if (values.after !== undefined && afterMs === undefined)
    throw new UsageError('BAD_ARGUMENTS', `${after}: not a duration (4h, 30m, 1h30m)`);
  if (afterMs !== undefined && afterMs > MAX_DURATION_MS)
    throw new UsageError('BAD_ARGUMENTS', `${after}: ${DURATION_LIMIT}`);
  if (values.then !== undefined) {
    if (values.then !== 'abort' && values.then !== 'continue')
      throw new UsageError('BAD_ARGUMENTS', `decide --then ${values.then}: say abort or continue`);
    chosen.push({ kind: values.then });
  }
  if (afterMs === 0)
    throw new UsageError('BAD_ARGUMENTS', `${after} would take effect at once, before anyone could decide`, {
      hint: `give the time left to decide (--after 4h), or decide --${values.then} now`,
    });
  if (chosen.length > 1)
    throw new UsageError(
      'BAD_ARGUMENTS',
      'decide: one decision at a time (--retry, --skip, --exclude, --continue or --abort)',
    );
  if (chosen.length === 0 && values.reason !== undefined)
    throw new UsageError('BAD_ARGUMENTS', 'decide: --reason goes with a decision: it is recorded as its why', {
      hint: 'enginectl decide --store URL --run ID lists what the run waits for; then decide with --reason, e.g. --skip VALUE --reason "checked on the server"',
    });
  if (values['accept-cannot-tell'] && (chosen[0]?.kind !== 'retry' || !values.reason?.trim()))
    throw new UsageError(
      'BAD_ARGUMENTS',
      'decide: --accept-cannot-tell goes with --retry VALUE and --reason "what you checked"',
    );
  const clock = io.clock ?? realClock();
  // A sharded run takes one decision: its abort, across its workers.
  if (chosen[0]?.kind === 'abort' && afterMs === undefined) {
    const store = await storeToRead('decide', url, io.env, io.cwd, '', io.signal);
    if (await isShardedRun(store, values.run))
      return abortSharded(store, values.run, io, {
        reason: values.reason,
        pipeline: values.pipeline,
        vars: values.var,
        now: clock.now(),
      });
  }
  // The pipeline's secrets, once learnt, registered with the CI's masking (its reads carry them), as run does.
  const masker = ciMasker(chooseCi(io), (line) => io.stdout(`${line}\n`));
  let loaded: Promise<{ pipeline: Pipeline; sources: Source[] }> | undefined;
  const vars = parseVars(values.var);
  const fileOf = (state: JournalState) => resolve(io.cwd, values.pipeline ?? state.runs.at(-1)!.file);
  // The pipeline that wrote the run (or --pipeline), loaded once, its secrets taught to the masker. As
  // verify, it asks the environment only for the servers read back (GET: no target token, no step input).
  const loadedOf = (state: JournalState) =>
    (loaded ??= loadRunPipeline(state, io, {
      given: values.pipeline,
      vars,
      readBack: serversToRead(inDoubtInstances(state)),
    }).then((l) => (teachSecrets(l.pipeline, io.env, masker), l)));
  const pipelineOf = async (state: JournalState) => (await loadedOf(state)).pipeline;
  const result = await decide({
    url,
    runId: values.run,
    cwd: io.cwd,
    env: io.env,
    tmpdir: tmpdir(),
    now: clock.now(),
    signal: io.signal,
    decision: chosen[0],
    reason: values.reason,
    acceptCannotTell: values['accept-cannot-tell'],
    afterMs,
    // Read only when a call is in doubt: the servers of the pipeline that wrote the run.
    verify: async (state, instances) => {
      if (instances.length === 0) return [];
      const { pipeline, sources } = await loadedOf(state);
      // Read back only where the run sent its calls: --var values or files that move no server, said.
      const against = againstRun(state, { pipeline, sources, vars, env: io.env, masker }, instances);
      refuseAnotherPipeline(`run ${values.run}`, against, {
        named: state.runs.at(-1)!.file,
        after: 'Nothing was read back or recorded',
      });
      if (against.inputs.length > 0)
        io.stderr(
          `enginectl: warning: ${neutraliseLines(`run ${values.run}: ${against.inputs.join('; ')}: its calls in doubt are read back on the servers the run sent them to, at the same URLs here`)}\n`,
        );
      const keys = new Set(instances.map((i) => i.key));
      const all = await verifyJournal(state, { pipeline, env: io.env, masker, signal: io.signal, now: clock.now });
      return all.filter((v) => keys.has(v.key));
    },
    // A pipeline that cannot be read here (decided from another checkout), or a secret of it this
    // shell does not hold, leaves the reason as given: said (reason-secrets.ts).
    masking: async (state) => {
      const said = await pipelineOf(state).then(
        (pipeline) => unsetSecretsWarning(pipeline, io.env, 'decide'),
        (error: Error) =>
          `the reason is recorded as given: the pipeline that wrote the run could not be read to mask its secrets in it (${error.message}); give --pipeline FILE`,
      );
      if (said) io.stderr(`enginectl: warning: ${neutraliseLines(said)}\n`);
      return (text) => masker.mask(text);
    },
    // The reasons of the decisions listed (one kept as given), masked with the secrets this shell holds.
    reading: (state) =>
      pipelineOf(state).then(
        () => undefined,
        () => undefined,
      ),
    // plan --live of each value waited on: its read-only steps run once through GET-only clients.
    // It needs what a live plan needs (every secret the value's steps use): without it, it says so.
    livePlan: async (state, waited) => {
      const over = (await pipelineOf(state)).rollout?.over;
      if (over === undefined) return [];
      const out: { value: string; lines: string[] }[] = [];
      for (const value of waited) {
        const selection = { only: { [over]: [value] }, skip: {} };
        const plan = await loadPipelineFile(fileOf(state), io, { vars, selection })
          .then(({ pipeline }) =>
            makePlan(pipeline, io.env, { selection, masker, live: { signal: io.signal, now: clock.now } }),
          )
          .catch((error: Error) => ({
            text: `the live plan failed: ${error instanceof PipelineInvalid ? error.diagnostics.map((d) => d.message).join('; ') : error.message}`,
          }));
        out.push({ value, lines: plan.text.split('\n').filter((l) => l.trim() !== '') });
      }
      return out;
    },
  });
  const park = result.parked.park;
  io.stdout(
    `${neutraliseLines(`run ${result.runId}: parked${park.wave ? ` at wave ${park.wave}` : ''} since ${new Date(park.since).toISOString()}, waiting for ${park.reason}`)}\n`,
  );
  for (const line of result.lines) io.stdout(`  ${neutraliseLines(masker.mask(line))}\n`);
  for (const { value, lines } of result.live ?? []) {
    io.stdout(`  ${neutraliseLines(`plan --live of ${value} now (GET requests only):`)}\n`);
    for (const line of lines) io.stdout(`    ${neutraliseLines(masker.mask(line), '      ')}\n`);
  }
  if (result.recorded) {
    const d = result.recorded;
    io.stdout(
      `${neutraliseLines(masker.mask(`recorded: ${d.decision}${d.value === null ? '' : ` ${d.value}`}${d.after === undefined ? '' : ` at ${new Date(d.after).toISOString()} unless decided before`} by ${d.by}${d.reason ? `: ${d.reason}` : ''}${d.evidence.length ? ` (on: ${d.evidence.join('; ')})` : ''}`))}\n`,
    );
    if (d.decision !== 'abort' && d.after === undefined)
      io.stdout(`go on: enginectl run FILE --store URL --continue ${result.runId}\n`);
  }
  return ExitCode.ok;
}
