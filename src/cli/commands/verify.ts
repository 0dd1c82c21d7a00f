// `enginectl verify JOURNAL`: reads back the target of each in-doubt call of a journal (a killed
// or interrupted run) and says whether it was applied, with the evidence. It sends only GET
// requests and writes nothing: `run --resume JOURNAL --in-doubt verify` acts on the same reading.
import { resolve } from 'node:path';
import { ExitCode } from '../../errors.ts';
import { verifyJournal } from '../../app/verify.ts';
import { parseVars } from '../../app/pipeline-input.ts';
import { againstRun, loadRunPipeline, refuseAnotherPipeline } from '../../app/run-pipeline.ts';
import { ciMasker } from '../ci-masker.ts';
import { parseCommandArgs } from '../args.ts';
import { chooseCi, type CliIO } from '../io.ts';
import { readNamedJournal } from '../journal-file.ts';
import { refuseWhileLocked } from '../../journal/lock.ts';
import { refuseWhileRunning } from '../../app/stored-run-held.ts';
import { realClock } from '../../app/clock.ts';
import { inDoubtInstances, serversToRead } from '../../journal/verify.ts';
import { teachSecrets } from '../../app/journal-setup.ts';
import type { FileVerdict } from '../../app/verify-file.ts';
import { neutraliseLines } from '../../text/neutralise.ts';
import { shellWord } from '../../text/shell-word.ts';
import { abortOf, inEffect } from '../../app/parked.ts';
import { selectionOf } from '../../journal/records.ts';
import { describeCombination, describeSelection, narrowed, selectionWords, selects } from '../../pipeline/selection.ts';

export const VERIFY_HELP = `Usage: enginectl verify JOURNAL [options]

Reads back the target of each call a run sent and never saw answered ("in doubt") and says
whether the server applied it: applied, not-applied or cannot-tell, with the evidence. It sends
only GET requests, to the servers of the pipeline that wrote the journal (the URLs and
credentials of those it reads from the environment, as for run; no target token), and changes
nothing: resume with run --resume JOURNAL --in-doubt verify (or verify-and-retry) to act on it.
With nothing in doubt it says so, asking the environment for nothing. A journal a run still
writes (its lock held by a live process; in a run store, its runner's lease renewed: the run's
fleet lease, or the worker lease of the sharded run whose site it is) is refused: the calls that
run has in flight are not in doubt; verify once it has ended. A stale lock or a lapsed lease is
said, and does not stop it. A pipeline whose servers read are not at the URLs the run recorded
(other --var values, another file) is refused (PIPELINE_NOT_THE_RUNS): a read of another server
says nothing of the call; a file changed since, its servers the run's, is said and read.

Read back: licensing/add and licensing/remove (the licenses against those recorded just before
the call), classes/create, update and delete (the entity), update/system (the Engine versions
of the target database; monitoring lags up to 2 minutes). update/vfs, replication/sync and
transaction-log/clear cannot be verified through the API: check on the server.

Options:
  --pipeline FILE    the pipeline that wrote the journal (default: the file its run named, from
                     where verify runs: verify from the run's checkout, or give it)
  --var NAME=VALUE   a var the servers read, as given to run (repeatable)
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           verify the run of that id in the run store
  -h, --help         show this help

Exit codes: 0 nothing is in doubt or every in-doubt call was settled (applied or not applied),
1 at least one cannot be told, 2 invalid input, the journal in use by a live run, or a pipeline
whose servers are not the run's,
130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP: only reads were sent, run it again).`;

/**
 * What `enginectl verify` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  pipeline: { type: 'string' },
  var: { type: 'string', multiple: true },
  store: { type: 'string' },
  run: { type: 'string' },
} as const;

export async function verifyCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('verify', args, OPTIONS);
  if (values.help) {
    io.stdout(`${VERIFY_HELP}\n`);
    return ExitCode.ok;
  }
  // A journal a live run writes has nothing in doubt yet: its calls in flight are awaited.
  if (values.run === undefined && positionals.length === 1) {
    const { warning } = refuseWhileLocked(resolve(io.cwd, positionals[0]!), 'verify');
    if (warning) io.stderr(`enginectl: warning: ${neutraliseLines(warning)}\n`);
  }
  // A stored run a live runner writes (its lease renewed) is refused the same way, before anything is verified.
  const { state, name: path } = await readNamedJournal('verify', positionals, values, io, async (store, id, read) => {
    const now = (io.clock ?? realClock()).now();
    // A call a live runner has in flight would read back "not applied": its lapse confirmed, a whole ttl past on this clock.
    await refuseWhileRunning(store, id, read, 'verify', now, 'Nothing was verified', {
      confirmed: true,
      warn: (warning) => io.stderr(`enginectl: warning: ${neutraliseLines(warning)}\n`),
    });
  });
  // Nothing in doubt: said without the pipeline, its servers or any secret.
  const inDoubt = inDoubtInstances(state);
  if (inDoubt.length === 0) {
    io.stdout(`nothing is in doubt in ${neutraliseLines(path)}\n`);
    return ExitCode.ok;
  }
  const file = values.pipeline ?? state.runs.at(-1)!.file;
  // The environment is asked only for the servers read (GET: no target token, no step input).
  const servers = serversToRead(inDoubt);
  const vars = parseVars(values.var);
  const { pipeline, sources } = await loadRunPipeline(state, io, { given: values.pipeline, vars, readBack: servers });
  // Its reads carry the pipeline's credentials: each registered with the CI's masking, as run does.
  const masker = ciMasker(chooseCi(io), (line) => io.stdout(`${line}\n`));
  teachSecrets(pipeline, io.env, masker);
  // Another server than the one a call was sent to is not read; a file changed (as the journal hashed it:
  // masked, with what the run knew, which verify may not be given) is said, its servers being the run's.
  const against = againstRun(state, { pipeline, sources, vars, env: io.env, masker }, inDoubt);
  refuseAnotherPipeline(values.run === undefined ? path : `run ${values.run}`, against, {
    named: state.runs.at(-1)!.file,
    after: 'Nothing was read back',
  });
  const compared = against.file;
  if (!compared.same) io.stderr(`enginectl: warning: ${neutraliseLines(fileWords(file, compared))}\n`);
  // "Since the call" on the run's clock, as the lease check above and a resume's verify read it.
  const { now } = io.clock ?? realClock();
  const verified = await verifyJournal(state, { pipeline, env: io.env, masker, signal: io.signal, now });
  if (verified.length === 0) {
    io.stdout(`nothing is in doubt in ${neutraliseLines(path)}\n`);
    return ExitCode.ok;
  }
  for (const v of verified)
    io.stdout(
      neutraliseLines(`${v.verdict.padEnd(12)} "${v.name}" (${v.doubt.method} ${v.doubt.path}): ${v.evidence}`) + '\n',
    );
  const count = (verdict: string) => verified.filter((v) => v.verdict === verdict).length;
  io.stdout(
    `${verified.length} in doubt: ${count('applied')} applied, ${count('not-applied')} not applied, ${count('cannot-tell')} cannot tell\n`,
  );
  if (count('cannot-tell') === 0) return ExitCode.ok;
  // What to do with what verify cannot tell: a parked run takes decisions (a window's park, only a
  // continue deciding them); any other run a resume deciding them.
  const id = values.run === undefined ? 'ID' : shellWord(values.run);
  const parked = state.parked && inEffect(state.parked, now());
  // The journal's run was limited (--only, --skip; a sharded site's run is --only SITE): its resume
  // is, the same way. A doubt an earlier run left outside that selection: a resume of its own, the
  // last selection narrowed to that doubt's matrix values (with --force), never widened.
  const last = selectionOf(state.runs.at(-1)!);
  const doubts = verified.filter((v) => v.verdict === 'cannot-tell').map((v) => v.matrix);
  const outside = [...new Map(doubts.filter((c) => !selects(c, last)).map((c) => [JSON.stringify(c), c])).values()];
  const selected = selectionWords(last);
  const goOn = `enginectl run ${shellWord(file)} --store URL --continue ${id}${selected} --in-doubt skip or retry`;
  const resume = `${values.run === undefined ? `--resume ${shellWord(path)}` : `--store URL --resume ${id}`}`;
  const resumeLine = (words: string, why = '') =>
    `then: check on the server, then resume deciding: enginectl run ${shellWord(file)} ${resume}${words} --in-doubt skip (applied) or retry (sent again)${why}`;
  const lines =
    parked && abortOf(parked)
      ? [
          'then: check on the server: the run was aborted, so nothing more of it is sent (a new run starts from the beginning)',
        ]
      : !parked
        ? [
            ...(outside.length < doubts.length ? [resumeLine(selected)] : []),
            ...outside.map((c) =>
              resumeLine(
                `${selectionWords(narrowed(last, c))} --force`,
                `; it selects the call in doubt at ${describeCombination(c)}, outside the journal's last run (${describeSelection(last) ?? 'every instance'}), and runs what else it selects that is not done (enginectl plan shows it)`,
              ),
            ),
          ]
        : parked.park.for === 'window'
          ? [`then: check on the server, then go on deciding: ${goOn}`]
          : [
              `then: check on the server, then decide: enginectl decide --store URL --run ${id} lists what the parked run waits for (--skip VALUE: applied, --retry VALUE: sent again); a call a killed continue left: ${goOn}`,
            ];
  for (const line of lines) io.stdout(`${neutraliseLines(line)}\n`);
  return ExitCode.failed;
}

/** What verify says of a pipeline file that is not, or may not be, the one its journal's run hashed. */
function fileWords(file: string, compared: Exclude<FileVerdict, { same: true }>): string {
  const read = 'its servers are read as they are now';
  if (compared.changed) return `${file} changed since the journal's run: ${read}`;
  const { missing } = compared;
  const names = missing.map((name) => `secrets.${name}`).join(', ');
  const why =
    missing.length === 0
      ? 'the secrets it holds could not all be learnt here (the run hashed it with them masked)'
      : `the run hashed it with the value${missing.length > 1 ? 's' : ''} of ${names} masked, which verify is not given (its reads do not need ${missing.length > 1 ? 'them' : 'it'}): give ${missing.length > 1 ? 'them' : 'it'} to compare`;
  return `cannot tell whether ${file} changed since the journal's run: ${why}; ${read}`;
}
