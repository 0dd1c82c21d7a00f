// `enginectl lease status|release --store URL NAME`: who holds a fleet lease, since when, until
// when, and who waits; and an operator's release of a lease whose holder is gone, with a reason,
// recorded in the lease as a release by that operator (the next waiter takes it at once). The
// reason is masked first, with the secrets of the holder's pipeline (app/lease-release.ts), and
// masked again by lease status, which shows it, with those of them its environment holds.
import { ExitCode, UsageError } from '../../errors.ts';
import { operatorOf } from '../../app/journal-setup.ts';
import { realClock } from '../../app/clock.ts';
import { teachReleaseSecrets, teachStatusSecrets } from '../../app/lease-release.ts';
import { storeToRead } from '../../app/stored-run.ts';
import { releasedWorker, workerLeaseShard } from '../../app/worker-lease-shard.ts';
import { checkLeaseName, holderText, leaseState, queuedRuns, releaseAs } from '../../store/lease.ts';
import { heldTtl, longPastAt } from '../../store/lapse.ts';
import { formatDuration } from '../../duration.ts';
import { neutralise, neutraliseLines } from '../../text/neutralise.ts';
import { parseCommandArgs } from '../args.ts';
import { chooseCi, type CliIO } from '../io.ts';
import { ciMasker } from '../ci-masker.ts';

export const LEASE_HELP = `Usage: enginectl lease status --store URL NAME
       enginectl lease release --store URL NAME --reason TEXT [--pipeline FILE [--var NAME=VALUE]...]

status: who holds the fleet lease NAME (run id, actor, host, CI run), since when and until when,
and the runs queued for it (a waiter renews its place while it waits; one that is gone holds it
no longer than the lease's ttl); a released lease's reason is masked with the secrets this
environment holds of the pipeline its holder ran. release: gives up a lease whose holder is gone
(a lost runner), with your reason, recorded in the lease: the next run takes it at once, and the
holder, if it still runs, sends nothing more. The reason is masked first with the secrets of the pipeline the holder
ran (their values read from this environment, as decide --reason masks its own).

Options:
  --store URL       the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --reason TEXT     with release: why (recorded with who released it, masked)
  --pipeline FILE   with release: the pipeline whose secrets are masked in the reason (default: the
                    file the holder's run named, read from the store; said when it cannot be read)
  --var NAME=VALUE  a var that pipeline reads, as given to run (repeatable)
  -h, --help        show this help

Exit codes: 0, 1 the store failed or holds a lease record that is not enginectl's, 2 invalid input.`;

/**
 * What `enginectl lease` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  store: { type: 'string' },
  reason: { type: 'string' },
  pipeline: { type: 'string' },
  var: { type: 'string', multiple: true },
} as const;

export async function leaseCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('lease', args, OPTIONS);
  if (values.help) {
    io.stdout(`${LEASE_HELP}\n`);
    return ExitCode.ok;
  }
  const [action, name, ...rest] = positionals;
  if ((action !== 'status' && action !== 'release') || name === undefined || rest.length > 0)
    throw new UsageError('BAD_ARGUMENTS', 'lease: say lease status NAME or lease release NAME --reason TEXT', {
      hint: 'enginectl lease status --store s3://BUCKET/PREFIX prod-fleet',
    });
  const store = await storeToRead('lease', values.store, io.env, io.cwd, '', io.signal);
  const state = await leaseState(store, checkLeaseName(name));
  // A sharded run's worker lease says its shard (RUN.shard-0 is --shard 1/N's).
  const worker = await workerLeaseShard(store, name);
  const called = `lease ${name}${worker?.words ?? ''}`;
  const at = (ms: number) => new Date(ms).toISOString();
  const now = (io.clock ?? realClock()).now();
  if (action === 'status') {
    if (!state) io.stdout(neutralise(`${called}: never taken`) + '\n');
    else {
      const r = state.record;
      // Its expiry is its holder's clock's: past on this one by less than its ttl, the holder may live on a clock behind.
      const how =
        now <= r.expiresAt
          ? `held by ${holderText(r.holder)}, until ${at(r.expiresAt)}`
          : now < longPastAt(r)
            ? `held by ${holderText(r.holder)} until ${at(r.expiresAt)} on its clock, past on this one by ${formatDuration(now - r.expiresAt)} (its holder is gone, or the clocks are apart and it renews still: a waiter takes it over once its record stays unchanged for its ttl of ${formatDuration(heldTtl(r))})`
            : `expired by ${holderText(r.holder)}, since ${at(r.expiresAt)}`;
      // Why it was released: kept as given from a shell without the secrets, masked with those known here.
      const masker = ciMasker(chooseCi(io), (line) => io.stdout(`${line}\n`));
      io.maskerMade?.(masker);
      await teachStatusSecrets(store, name, r, io, masker);
      // Who released it and why are an operator's words: a line break in them starts no line of its own.
      io.stdout(
        neutraliseLines(
          `${called}: ${r.kind === 'release' ? `free (released ${at(r.at)}${r.by ? ` by ${r.by}` : ''}${r.reason ? `: ${masker.mask(r.reason)}` : ''})` : how}`,
        ) + '\n',
      );
    }
    for (const q of await queuedRuns(store, name, state?.record.served ?? 0, now))
      io.stdout(
        neutralise(
          `  queued: run ${q.runId} (ticket ${q.n}), ${q.until === undefined ? `its place renewed at ${at(q.renewed)}` : `waiting until ${at(q.until)}`}`,
        ) + '\n',
      );
    return ExitCode.ok;
  }
  if (!values.reason?.trim())
    throw new UsageError('BAD_ARGUMENTS', 'lease release: give --reason TEXT (recorded with who released it)');
  if (!state || state.record.kind === 'release') {
    // A queued run is a waiter renewing its ticket: it takes the lease next. One that is gone lapses by itself.
    const queued = await queuedRuns(store, name, state?.record.served ?? 0, now);
    io.stdout(
      neutralise(`${called}: already free`) +
        `${queued.length ? `; ${queued.length} run(s) queued for it take it in turn (a waiter that is gone holds its place no longer than the lease's ttl)` : ''}\n`,
    );
    return ExitCode.ok;
  }
  const by = operatorOf(io.env);
  // The command's masker: each secret it learns registered with the CI's masking, as run does (cli/ci-masker.ts).
  const masker = ciMasker(chooseCi(io), (line) => io.stdout(`${line}\n`));
  io.maskerMade?.(masker);
  await teachReleaseSecrets({
    store,
    name,
    record: state.record,
    pipeline: values.pipeline,
    vars: values.var,
    io,
    warn: (message) => io.stderr(`enginectl: warning: ${neutralise(message)}\n`),
    masker,
  });
  const reason = masker.mask(values.reason.trim());
  if (!(await releaseAs(store, name, state, by, reason, now))) {
    throw new UsageError(
      'LEASE_HELD',
      `lease ${name} changed while it was being released (its holder renewed it, or another took it): nothing was released`,
      { hint: 'see enginectl lease status, then release again if its holder is gone' },
    );
  }
  io.stdout(neutraliseLines(`${called}: released by ${by}: ${reason}`) + '\n');
  if (worker?.shard) io.stdout(`  ${releasedWorker(worker.shard, state.record, now)}\n`);
  return ExitCode.ok;
}
