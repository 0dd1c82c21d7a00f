// Where a run is published, on one lifecycle: a channel is told the run started, each instance
// as it ends, and the run's end with its rendered report. Report files, each CI system's variables,
// job summary and final lines, dotenv, a webhook and the action's summary, PR comment, Deployment
// and outputs are channels; every command that publishes tells its list through one publisher
// (as vitest tells its reporters, or Terraform its hooks). A channel that throws is a warning:
// it never changes the run's outcome, nor keeps the next channel from being told.
import { outcomeWord, type Report } from '../../report/model.ts';
import type { StepRun } from '../../runner/result.ts';

/** A run's or a fleet's outcome; under-way: a sharded run's merged report read while its workers ran. */
export type Outcome = 'success' | 'failure' | 'cancelled' | 'under-way';

export interface RunStarted {
  /** The run's resolved name (masked). */
  name: string;
}

/** What a run (or a merge of a fleet's reports, a live plan, a drift audit) ended as: masked, every secret. */
export interface RunEnded {
  outcome: Outcome;
  /** The Markdown of the job summary and the PR comment: `fullReport` names where the full reports are, for the note when parts are cut. */
  markdown(options: { fullReport?: string | undefined; limit?: number | undefined }): string;
  /** The report of a run or a fleet (none for a plan or an audit, which publish Markdown only). */
  report?: Report | undefined;
  /** A step failed and continue-on-error let the run pass. */
  withIssues?: boolean | undefined;
  /** It parked: what it waits for, in words (the report's `parked.reason`). */
  parked?: string | undefined;
  /** A success that left a write in doubt no one decided (it exits 1): headed "in doubt". */
  inDoubt?: boolean | undefined;
}

/** What a channel says back as the run ends: files written, or what it could not write (exit 1, the run's outcome unchanged). */
export interface Published {
  /** "--flag path: reason" of each file asked for and not written. */
  failed?: string[];
}

export interface Channel {
  /** Named in the warning when it fails: "webhook", "PR comment". */
  readonly name: string;
  started?(run: RunStarted): void | Promise<void>;
  /** An instance ended (masked); told as the run goes, so a channel must not be slow here. */
  instanceEnded?(run: StepRun): void;
  ended?(end: RunEnded): void | Published | Promise<void | Published>;
}

export interface PublisherOptions {
  /** A channel failed: said as a warning (already masked). */
  warn(message: string): void;
  /** Masks what a channel's failure says (a URL, a server's text). */
  mask(text: string): string;
}

export interface Publisher {
  started(run: RunStarted): Promise<void>;
  instanceEnded(run: StepRun): void;
  /** Whether some channel hears each instance as it ends: without one, a run need not mask them for it. */
  readonly hearsInstances: boolean;
  /** Tells every channel in order; returns the files not written (masked). */
  ended(end: RunEnded): Promise<string[]>;
}

/** One publisher for a command's channels, told in the order given. */
export function publisher(channels: readonly Channel[], options: PublisherOptions): Publisher {
  const failedTo = (channel: Channel, what: string, error: unknown) =>
    options.warn(options.mask(`${channel.name}: ${what} failed: ${(error as Error)?.message ?? String(error)}`));
  return {
    hearsInstances: channels.some((c) => c.instanceEnded !== undefined),
    async started(run) {
      for (const c of channels) {
        try {
          await c.started?.(run);
        } catch (error) {
          failedTo(c, 'the start', error);
        }
      }
    },
    instanceEnded(run) {
      for (const c of channels) {
        try {
          c.instanceEnded?.(run);
        } catch (error) {
          failedTo(c, 'an instance', error);
        }
      }
    },
    async ended(end) {
      const failed: string[] = [];
      for (const c of channels) {
        try {
          const done = await c.ended?.(end);
          failed.push(...(done?.failed ?? []).map((f) => options.mask(f)));
        } catch (error) {
          failedTo(c, 'publishing', error);
        }
      }
      return failed;
    },
  };
}

/** The end of a run or a fleet from its report. */
export function endOf(report: Report, markdown: RunEnded['markdown']): RunEnded {
  return {
    outcome: report.outcome,
    report,
    markdown,
    withIssues: report.steps.some((s) => s.continuedOnError),
    parked: report.parked?.reason,
    inDoubt: outcomeWord(report) === 'in doubt',
  };
}
