// The fleet lease of a run (lease: in the pipeline, or --lease NAME), for the CLI and the action: taken before the
// journal is opened (queued up to its wait), renewed by a heartbeat every third of its ttl, and released at the end,
// on failure and on SIGTERM. An expired lease is taken over only once verify has read the previous holder's in-doubt
// calls from its journal in the store: each applied or not applied, or an operator's --take-over --reason for those it
// cannot tell, recorded in the lease as the takeover's evidence (a journal with no record: no call left).
import { EnginectlError, interruptedRead } from '../errors.ts';
import { readJournal } from '../journal/read.ts';
import { readSegments, storedJournalAt } from '../journal/replica.ts';
import { journalKey } from '../journal/seal.ts';
import { inDoubtInstances } from '../journal/verify.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Selection } from '../pipeline/selection.ts';
import type { Masker } from '../runner/masker.ts';
import { maskTakeover } from '../runner/mask-model.ts';
import type { Env } from '../runner/scope.ts';
import { hostname } from 'node:os';
import {
  acquireLease,
  LeaseError,
  type HeldLease,
  type LeaseClock,
  type LeaseHolder,
  type LeaseRecord,
} from '../store/lease.ts';
import { actorOf, runUrlOf } from '../ci/facts.ts';
import type { RunStore } from '../store/store.ts';
import { verifyJournal } from './verify.ts';
import { teachSecrets } from './journal-setup.ts';
import { CLI_WAYS, storedWays, type WaysOn } from '../ways-on.ts';
import { leaseNames, selectedValues } from './lease-names.ts';

export interface LeaseRequest {
  store: RunStore;
  lease: { name: string; ttlMs: number; waitMs: number };
  runId: string;
  pipeline: Pipeline;
  env: Env;
  masker: Masker;
  signal: AbortSignal;
  clock: LeaseClock;
  /** --take-over --reason: the operator accepts what verify cannot tell of the previous holder's calls. */
  takeOver?: { reason: string; by: string } | undefined;
  /** How the surface names the ways on a refusal gives (the CLI's flags, the action's inputs). */
  ways?: WaysOn | undefined;
  /** Said while the run waits, and when it takes over. */
  say(message: string): void;
  /** The pipeline's hash and the sites it selects, shown to whoever waits for the lease. */
  pipelineHash?: string | undefined;
  sites?: string[] | undefined;
  /** The run's own lease (app/run-own-lease.ts): taken when released, lapsed or parked, never from a live runner of the same run. */
  sameRun?: boolean | undefined;
}

export interface TakenLease {
  /** What the run checks before each write and shows in its reports: every lease it holds. */
  lease: { check(): Promise<void>; stillHeld(): Promise<void>; summary(): ReturnType<HeldLease['summary']> };
  /** Stops the heartbeat and releases the lease (kept: left to hold until its ttl, a parked run's `park: { keep-lease: true }`); a failure is said, never thrown: false then. */
  end(options?: { keep?: boolean }): Promise<boolean>;
}

/** What verify reads of the expired holder's in-doubt calls, or the refusal naming each it cannot tell. */
async function verifyTakeover(
  request: LeaseRequest,
  expired: LeaseRecord,
): Promise<{ evidence: string[]; reason?: string }> {
  const previous = expired.holder.runId;
  // This same run, resumed on another machine: the resume itself decides its calls in doubt.
  if (previous === request.runId)
    return { evidence: [`the same run ${previous}, resumed: its calls in doubt are decided by the resume`] };
  // The journal's key, as every reader of a journal has it (seal.ts): read first, one too short is input to fix, not a call verify cannot tell.
  const key = journalKey(request.env);
  const base = request.ways ?? CLI_WAYS;
  const takeOver = `check on the server what it may have sent, then ${base.takeOver(previous)}`;
  let cannot: string[];
  let evidence: string[];
  /** The hint of the journal's refusal, when it cannot be read: where its record is in the store, what to do. */
  let unread: string | undefined;
  try {
    const { text, segments } = await readSegments(request.store, previous, request.ways);
    // No record at all (no segment, or fences alone: it died at acquire, before its run record): a call's record is in
    // the store before the call leaves, and its lease checked once that record is written, so it sent nothing. Only a
    // journal read whole and found empty says so: a store that fails at the read is no proof (below).
    if (text === '')
      return {
        evidence: [
          `run ${previous} left no record in the store's journal: it sent nothing (a call's record is in the store before the call leaves)`,
        ],
      };
    // A record refused is the store's (its segment named); run `previous` given up, this run goes on by taking the lease over.
    const ways = storedWays(
      storedJournalAt(request.store, previous, () => segments),
      { ...base, startAnew: takeOver },
    );
    const state = readJournal(text, `${request.store.url} run ${previous}`, key, ways);
    if (inDoubtInstances(state).length === 0) return { evidence: [`run ${previous} left no call in doubt`] };
    const verified = await verifyJournal(state, {
      pipeline: request.pipeline,
      env: request.env,
      masker: request.masker,
      signal: request.signal,
      now: request.clock.now,
    });
    evidence = verified.map((v) => `"${v.name}" (${v.doubt.method} ${v.doubt.path}): ${v.verdict}: ${v.evidence}`);
    cannot = evidence.filter((_, i) => verified[i]!.verdict === 'cannot-tell');
  } catch (error) {
    if (error instanceof LeaseError || request.signal.aborted) throw error;
    evidence = [`run ${previous}'s journal could not be read from the store: ${(error as Error).message}`];
    cannot = evidence;
    unread = error instanceof EnginectlError ? error.hint : undefined;
  }
  if (cannot.length === 0) return { evidence };
  if (request.takeOver) {
    // The operator's words may hold a secret (a token checked by hand): masked, as decide's reason
    // and --override-freeze's, before they are kept in the lease, said or recorded in the journal.
    teachSecrets(request.pipeline, request.env, request.masker);
    return maskTakeover(request.masker, { evidence, reason: `${request.takeOver.reason} (${request.takeOver.by})` });
  }
  throw new LeaseError(
    'LEASE_TAKEOVER_REFUSED',
    `lease ${request.lease.name} expired in the hands of run ${previous}, which left calls verify cannot tell: ${cannot.join('; ')}; nothing was sent`,
    {
      // A journal's record refused says the takeover itself (its ways' startAnew); a read refused otherwise (a segment cut) gets it added.
      hint: !unread
        ? `check each on the server; then ${base.takeOver(previous)}`
        : unread.includes(takeOver)
          ? unread
          : `${unread}; or ${takeOver}`,
    },
  );
}

/** This process as a lease names its holder: the run, the CI's actor and run URL, the host. */
function holderOf(
  runId: string,
  env: Readonly<Record<string, string | undefined>>,
  extra: Pick<LeaseHolder, 'pipeline' | 'sites'>,
): LeaseHolder {
  const ciRunUrl = runUrlOf(env);
  return { runId, actor: actorOf(env), host: hostname(), ...(ciRunUrl ? { ciRunUrl } : {}), ...extra };
}

export async function takeLease(request: LeaseRequest & { names?: string[] | undefined }): Promise<TakenLease> {
  const names = request.names ?? [request.lease.name];
  const held: TakenOne[] = [];
  try {
    // In one order everywhere: two runs over overlapping sites never hold one each of the other's.
    for (const name of names) held.push(await takeOne({ ...request, lease: { ...request.lease, name } }));
  } catch (error) {
    for (const h of held) await h.end();
    // A wait the run's stop cut (SIGINT, SIGTERM): the interruption it is, never an internal error.
    const waiting = `waiting for the lease ${names.join(', ')}`;
    throw (!(error instanceof EnginectlError) && interruptedRead(request.signal, waiting, 'nothing was sent')) || error;
  }
  const first = held[0]!.lease;
  return {
    lease: {
      async check() {
        for (const h of held) await h.lease.check();
      },
      async stillHeld() {
        for (const h of held) await h.lease.stillHeld();
      },
      summary() {
        const all = held.map((h) => h.lease.summary());
        const takeovers = all.filter((a) => a.takeover);
        return {
          name: all.map((a) => a.name).join(', '),
          holder: first.summary().holder,
          waitedMs: Math.max(...all.map((a) => a.waitedMs)),
          takeover:
            takeovers.length === 0
              ? null
              : {
                  evidence: takeovers.flatMap((a) => a.takeover!.evidence),
                  reason: takeovers.map((a) => a.takeover!.reason).find(Boolean) ?? null,
                },
        };
      },
    },
    async end(options) {
      const done = [];
      for (const h of held) done.push(await h.end(options));
      return !done.includes(false);
    },
  };
}

type TakenOne = { lease: HeldLease; end(options?: { keep?: boolean }): Promise<boolean> };

async function takeOne(request: LeaseRequest): Promise<TakenOne> {
  const lease = await acquireLease(request.store, request.lease.name, {
    holder: holderOf(request.runId, request.env, {
      ...(request.pipelineHash ? { pipeline: request.pipelineHash } : {}),
      ...(request.sites ? { sites: request.sites } : {}),
    }),
    ttlMs: request.lease.ttlMs,
    waitMs: request.lease.waitMs,
    clock: request.clock,
    signal: request.signal,
    verifyTakeover: (expired) => verifyTakeover(request, expired),
    onWait: request.say,
    sameRun: request.sameRun,
    ways: request.ways,
  });
  if (lease.record.kind === 'takeover')
    request.say(
      `lease ${request.lease.name}: taken over; ${(lease.record.evidence ?? []).join('; ')}${lease.record.reason ? `; accepted by the operator: ${lease.record.reason}` : ''}`,
    );
  // The heartbeat: a renewal that fails leaves the lease to expire; the next check stops the run.
  const heartbeat = setInterval(
    () => void lease.renew().catch(() => undefined),
    Math.max(1_000, Math.floor(request.lease.ttlMs / 3)),
  );
  heartbeat.unref();
  return {
    lease,
    async end(options) {
      clearInterval(heartbeat);
      try {
        // Kept while parked: renewed once more and marked, so the run's own continue takes it back.
        await (options?.keep ? lease.park() : lease.release());
        return true;
      } catch (error) {
        request.say(options?.keep ? lease.keepFailed(error) : lease.releaseFailed(error));
        return false;
      }
    },
  };
}

/** The lease a run asks for: the one named on its command line (or the action's input) over the pipeline's `lease:`, 10 minutes and no wait unless the pipeline says. */
export function wantedLease(pipeline: Pipeline, name: string | undefined): Pipeline['lease'] {
  if (name === undefined || name === '') return pipeline.lease;
  return { ...pipeline.lease, name, ttlMs: pipeline.lease?.ttlMs ?? 10 * 60_000, waitMs: pipeline.lease?.waitMs ?? 0 };
}

/** Takes a run's lease over the values it selects (one per value of `over`), in one order. */
export function takeRunLease(request: LeaseRequest & { lease: NonNullable<Pipeline['lease']>; selection: Selection }) {
  const { lease, pipeline, selection } = request;
  return takeLease({
    ...request,
    names: leaseNames(lease, selectedValues(pipeline, selection, lease.over), request.ways ?? CLI_WAYS),
  });
}
