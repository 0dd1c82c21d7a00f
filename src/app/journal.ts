// The run journal (--journal F): one JSON line per event, appended. A record announcing a
// non-idempotent call is written and synced to disk before the request leaves; its answer and the
// instance's end are synced before the next step starts (one sync, at the end record), so whatever
// ends the process (SIGKILL, a lost runner) the journal says which calls were sent. A crash
// between the answer and the end can lose the answer: the call then reads as unanswered, in
// doubt, never as not sent. Every value in it is masked, as in every other output.
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { fateUnknown, type SentCall } from '../api/index.ts';
import { UsageError } from '../errors.ts';
import type { Masker } from '../runner/masker.ts';
import type { CallEnd, RunObserver } from '../runner/observer.ts';
import type { PlannedInstance } from '../runner/resume.ts';
import type { RunResult, StepRun } from '../runner/result.ts';

export const JOURNAL_VERSION = 1;


export type JournalRecord =
  | {
      t: 'run';
      v: number;
      at: number;
      file: string;
      /** sha256 of the pipeline file's content. */
      hash: string;
      name: string;
      /** The --var values (masked) and a hash of them as given. */
      vars: Record<string, unknown>;
      varsHash: string;
      only: Record<string, string>;
      resume: boolean;
      instances: PlannedInstance[];
    }
  | { t: 'start'; key: string; at: number }
  | { t: 'send'; key: string; at: number; method: string; path: string; body: unknown }
  | { t: 'answer'; key: string; at: number; method: string; path: string; status?: number; error?: string; unknown?: boolean }
  | { t: 'end'; key: string; at: number; run: StepRun; masked: string[] }
  | { t: 'finish'; at: number; outcome: RunResult['outcome'] };

export function sha256(text: string): string {
  // node:crypto is loaded by the first journal record, not at every start-up.
  return `sha256:${process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex')}`;
}

/** The file a journal is appended to: every record is one write; `durable` ones are fsynced. */
export class JournalFile {
  private constructor(
    readonly path: string,
    private readonly fd: number,
  ) {}

  static open(path: string): JournalFile {
    try {
      return new JournalFile(path, openSync(path, 'a'));
    } catch (error) {
      throw new UsageError('BAD_JOURNAL', `--journal ${path}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, {
        hint: 'choose a file in a directory this process can write; nothing was run',
      });
    }
  }

  append(record: JournalRecord, durable = false): void {
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    if (durable) fdatasyncSync(this.fd);
  }

  close(): void {
    fdatasyncSync(this.fd);
    closeSync(this.fd);
  }
}

/** The masked output names of an instance: those whose value the masker changed. */
function maskedNames(raw: Record<string, unknown> | undefined, masked: Record<string, unknown>): string[] {
  if (!raw) return [];
  return Object.keys(raw).filter((k) => JSON.stringify(raw[k]) !== JSON.stringify(masked[k]));
}

/** The journal as the runner's observer: each event a masked record. */
export function journalObserver(file: JournalFile, masker: Masker, now: () => number): RunObserver {
  const sent = new Set<string>();
  return {
    instanceStarted(run) {
      file.append({ t: 'start', key: run.key, at: now() });
    },
    sending(run, call: SentCall) {
      sent.add(run.key);
      file.append({ t: 'send', key: run.key, at: now(), method: call.method, path: call.path, body: masker.maskValue(call.body ?? null) }, true);
    },
    answered(run, call, end: CallEnd) {
      const outcome = 'status' in end ? { status: end.status } : { error: end.error, unknown: fateUnknown(end.error) };
      file.append({ t: 'answer', key: run.key, at: now(), method: call.method, path: call.path, ...outcome });
    },
    instanceFinished(run, outputs) {
      // The runner masks every field of an instance as it fills it in: written as it is.
      file.append({ t: 'end', key: run.key, at: now(), run, masked: maskedNames(outputs, run.outputs) }, sent.has(run.key));
    },
  };
}
