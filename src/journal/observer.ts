// The journal as the runner's observer, written ahead of what it records: a call's record is
// durable before the request leaves, its status line's and its answer's before anything else
// happens, the end of an instance that sent one before the next step starts. A record that cannot be written stops
// the run (`halt`) before its next call: `sending` throws so the request does not leave; the other
// events only report it, since what they record has already happened.
import type { SentCall } from '../api/index.ts';
import type { Masker } from '../runner/masker.ts';
import type { CallEnd, RunObserver } from '../runner/observer.ts';
import type { RunResult, StepRun } from '../runner/result.ts';
import type { JournalFile, JournalWriteError } from './file.ts';
import type { JournalRecord } from './records.ts';
import { maskPark, maskRollout } from '../runner/mask-model.ts';
import { stepRecord } from './shared-outputs.ts';

/**
 * The masked output names of an instance: those whose value the masker changed (it copies only
 * what it changes, so an output it left alone is the same value).
 */
function maskedNames(raw: Record<string, unknown> | undefined, masked: Record<string, unknown>): string[] {
  if (!raw) return [];
  return Object.keys(raw).filter((k) => raw[k] !== masked[k] && JSON.stringify(raw[k]) !== JSON.stringify(masked[k]));
}

/**
 * Writes a record; the promise settles once it is durable (when it must be). A failure halts the
 * run, and rejects only where the caller must not go on (`rethrow`: a call must not leave).
 */
export type JournalWriter = ((record: JournalRecord, durable: boolean, rethrow?: boolean) => Promise<void>) & {
  flushed(): Promise<void>;
};

export function journalWriter(file: JournalFile, halt: (error: JournalWriteError) => void): JournalWriter {
  const failed = (rethrow: boolean) => (error: unknown) => {
    halt(file.failure!);
    if (rethrow) throw error;
  };
  const write = (record: JournalRecord, durable: boolean, rethrow = false): Promise<void> => {
    try {
      return file.append(record, durable).catch(failed(rethrow));
    } catch (error) {
      failed(rethrow)(error);
      return Promise.resolve();
    }
  };
  return Object.assign(write, { flushed: () => file.flushed().catch(failed(false)) });
}

export function journalObserver(
  write: JournalWriter,
  masker: Masker,
  now: () => number,
  digest: (run: StepRun) => string,
): RunObserver {
  // A path may hold a secret (an entity named by one): masked as every value the journal keeps.
  const call = (c: SentCall) => ({ method: c.method, path: masker.mask(c.path) });
  /** Instances that sent a write: their end is synced (a read-only one is simply read again on resume). */
  const wrote = new Set<string>();
  return {
    instanceStarted(run) {
      void write({ t: 'start', key: run.key, at: now(), name: run.name }, false);
    },
    snapshot(run, read) {
      void write(
        {
          t: 'snapshot',
          key: run.key,
          at: now(),
          ...('value' in read ? { value: masker.maskValue(read.value ?? null) } : { error: masker.mask(read.error) }),
        },
        false,
      );
    },
    sending(run, c) {
      wrote.add(run.key);
      // The server's clock as last seen, after the verifier's read just before the write: verify counts on it.
      const clock = c.serverClock?.();
      return write(
        {
          t: 'send',
          key: run.key,
          at: now(),
          ...call(c),
          body: masker.maskValue(c.body ?? null),
          ...(run.attempts > 1 ? { attempt: run.attempts } : {}),
          inputs: digest(run),
          ...(clock ? { clock: { low: clock.low, high: clock.high, at: clock.at } } : {}),
        },
        true,
        true,
      );
    },
    status(run, c, status) {
      // Durable with the next sync, not waited for: were it lost, the call is still in doubt (its send is on disk).
      void write({ t: 'status', key: run.key, at: now(), ...call(c), status }, true);
    },
    answered(run, c, end: CallEnd) {
      const outcome =
        'status' in end
          ? { status: end.status, api: end.api, ...(end.refused ? { refused: true } : {}) }
          : { error: end.error };
      return write({ t: 'answer', key: run.key, at: now(), ...call(c), ...outcome }, true);
    },
    overridden(run, o) {
      // Synced before the write leaves; a record that cannot be written keeps it from leaving.
      return write({ t: 'override', key: run.key, at: now(), ...o }, true, true);
    },
    rolloutDone(result) {
      void write({ t: 'rollout', at: now(), result: maskRollout(masker, result) }, false);
    },
    rolloutParked(park) {
      void write({ t: 'park', at: now(), park: maskPark(masker, park) }, true);
    },
    rolloutHalted(halt) {
      void write({ t: 'halt', at: now(), wave: halt.wave, reason: masker.mask(halt.reason) }, true);
    },
    // The ends and answers of the instances so far are on disk: the next step may start.
    settled: () => write.flushed(),
    instanceFinished(run, outputs) {
      // The runner masks every field of an instance as it fills it in: written as it is.
      void write(
        {
          t: 'end',
          key: run.key,
          at: now(),
          ...stepRecord(run),
          masked: maskedNames(outputs, run.outputs),
          inputs: digest(run),
        },
        wrote.has(run.key),
      );
    },
  };
}

/**
 * The run's finish record; a cancelled run's says why it stopped, as its unrun steps say it (a
 * signal, or what stopped it), so a report of the journal words them as the live report did.
 */
export function finishRecord(raw: RunResult, masker: Masker, at: number): JournalRecord {
  const error = raw.outcome === 'cancelled' ? raw.steps.find((s) => s.error?.code === 'CANCELLED')?.error : undefined;
  const stopped = error && {
    code: error.code,
    message: masker.mask(error.message),
    ...(error.hint ? { hint: masker.mask(error.hint) } : {}),
  };
  return { t: 'finish', at, outcome: raw.outcome, ...(stopped ? { stopped } : {}) };
}
