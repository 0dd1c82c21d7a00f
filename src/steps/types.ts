// What a step type is: its inputs (a zod schema), the calls it makes, how it runs, its outputs.
import type { z } from 'zod';
import type { CallOptions, EngineClient, PlannedCall } from '../api/index.ts';
import type { Expression } from '../expr/index.ts';
import type { ErrorCode } from '../error-codes.ts';
import type { Observed } from './observed.ts';

/**
 * Wraps an input's schema. At load time inputs may still hold `${{ }}` expressions, so the
 * loader's Wrap also accepts an expression string; at run time values are resolved and the
 * identity is used. The types are those of resolved inputs.
 */
export type Wrap = <T extends z.ZodType>(schema: T) => T;
export const resolved: Wrap = (schema) => schema;

export interface TargetDef {
  server: string;
  database: string;
  token?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

/** A call as the plan shows it: the plan runs the step against a recording client (api/recording.ts). */
export type { PlannedCall };

/** What a gate not met waits for, and what it found: "at least 2 Engine(s) online", "1 online". */
export interface Waiting {
  what: string;
  state: string;
}

export interface StepLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface StepEnv {
  /** The step's client, bound to its call context (its signal, the journal's observer of its writes): it has no other. */
  client(): EngineClient;
  /** The step's signal, for what it waits on; its calls carry it whatever they pass (the client is bound). */
  call: Pick<CallOptions, 'signal'>;
  signal: AbortSignal;
  log: StepLog;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * A gate not met says what it waits for before it sleeps: a run goes on to wait; a plan (dry or
   * live) stops the step here and shows it as "would wait" (runner/plan-env.ts).
   */
  waitFor(waiting: Waiting): void;
  targets: Readonly<Record<string, TargetDef>>;
  /** Registers a value to mask in everything printed (a license code, say). */
  secret(value: string): void;
  /** Evaluates a condition the loader compiled from the file (assert's `that`); never text. */
  evaluate(expression: Expression): unknown;
}

export interface StepOutcome {
  outputs: Record<string, unknown>;
  /** The API result, for the reports. */
  result?: unknown;
  /** Key figures for the step's end line: "inserts 2, updates 1". */
  figures?: string;
  /**
   * Set when the step fails without an error: success false, a gate not met, an assertion (a
   * message; STEP_FAILED), or an answer the step did not expect (a code and a hint of its own).
   */
  failure?: string | { code: ErrorCode; message: string; hint?: string | undefined };
  /**
   * With a failure: the step read its write's 2xx answer as the server's refusal (an update's
   * success: false, a replication's failed targets), so its write's fate is refused (api/fate.ts)
   * and a retry may send it again. Without it, a write answered 2xx by a step that failed is in
   * doubt: the server applied it, and only the pipeline's or the operator's word sends it again.
   */
  refused?: boolean;
  warnings?: string[];
}

export interface StepType<I = Record<string, unknown>> {
  uses: string;
  /** One line for docs and derived names. */
  summary: string;
  inputs(wrap: Wrap): z.ZodType<I>;
  /** What each input means: the pipeline JSON Schema shows it in editors, the single-step actions take it as descriptions. */
  inputDocs: Readonly<Record<string, string>>;
  outputs: readonly string[];
  /**
   * Makes only GET calls, so it can simply be run again (resume re-runs such a producer of a
   * masked output). api/request answers per instance, from its method.
   */
  readOnly: boolean | ((inputs: Record<string, unknown>) => boolean);
  /** A read-only step: what it read that decides it, for a saved plan to hold (observed.ts). */
  observed?(outputs: Record<string, unknown>, inputs: I): Observed;
  /** A write: what no GET request can prove before it is sent (the live plan lists it). */
  unprovable?: string;
  /** The input naming one of the pipeline's targets (update/system, update/vfs): checked at load. */
  targetInput?: string;
  /** Its result carries the server's update report, which the reports show. */
  updateReport?: boolean;
  /** At least one of these inputs is given (update/vfs: files or directories). */
  anyOfInputs?: readonly string[];
  /** False for steps that call no server (assert). */
  needsServer: boolean;
  /** Outputs that hold secrets: registered with the masker and masked whatever their length. */
  secretOutputs?: readonly string[];
  /** Inputs that hold secrets (dotted paths: `target.token`), likewise. */
  secretInputs?: readonly string[];
  /**
   * Inputs written as conditions, bare or in one ${{ }} (assert's `that`): the loader checks and
   * compiles them into Expressions, which the step evaluates.
   */
  conditions?: readonly string[];
  /**
   * Runs the step. The plan runs it too, against a recording client (runner/plan-env.ts): the
   * calls it makes are the plan's, so a step has no plan of its own to part from its run.
   */
  run(inputs: I, env: StepEnv): Promise<StepOutcome>;
  /**
   * How a call of this step whose fate is unknown is decided by reading the target back
   * (enginectl verify, --in-doubt verify). Absent: it cannot be verified through the API.
   */
  verify?: Verifier;
}

/** What reading the target back found of a write in doubt, and what shows it. */
export interface Verdict {
  verdict: 'applied' | 'not-applied' | 'cannot-tell';
  evidence: string;
  /** When what it read was true at the server, when that is older than the read (monitoring's last report): "not applied" holds only past the write's bound at that time. */
  asOf?: number | undefined;
  /**
   * What was read may not show the call until this long after the latest it can have left
   * (monitoring's refresh): until then "cannot tell", whatever was read, counted as every "since
   * the call" is (journal/not-applied.ts). `read`: what was read, in words; `why`: the lag's.
   */
  lag?: { ms: number; read: string; why: string } | undefined;
}

/** A write as the journal recorded it just before it left (its body masked). */
export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  /** When its record was written (epoch ms), just before it left. */
  at: number;
  /** The latest it can have left (epoch ms): its record's time and the bound on the send (journal/send-bound.ts). */
  leftBy: number;
}

/** What a write would change, in words, and the facts it acts on (a saved plan holds them). */
export interface Preview {
  text: string;
  observed?: Observed;
}

/** An earlier step instance of the run whose output a write sends (a license code a licensing/create answered). */
export interface Producer {
  uses: string;
  /** Its instance name, resolved. */
  name: string;
  /** Its resolved inputs, secrets masked. */
  inputs: Record<string, unknown>;
}

export interface Verifier {
  /**
   * Reads what the verdict compares against, just before the write leaves (the journal records
   * it first). `call` is the write as it is about to leave; `producerOf` names the earlier
   * instance of the run one of whose outputs is the value given (none for a masked value); `shown`
   * masks a value as the journal records it (the fields its body writes with a secret read masked there).
   */
  snapshot?(
    client: EngineClient,
    call: PlannedCall,
    signal: AbortSignal,
    producerOf: (value: string) => Producer | undefined,
    shown: <T>(value: T) => T,
  ): Promise<unknown>;
  /** Reads the target now; `snapshot` is undefined when none was recorded. */
  check(
    client: EngineClient,
    call: RecordedCall,
    snapshot: unknown,
    now: number,
    signal: AbortSignal,
  ): Promise<Verdict>;
  /**
   * The target now and what the write would change, in words, read with GET requests (plan
   * --live). `call` is the write the plan's walk recorded. `shown` masks a value the server gave
   * before it is made text: quoted as JSON first, a secret it holds escaped (`a\/b`) would be
   * escaped again, no form of the secret the masker knows.
   */
  preview?(client: EngineClient, call: PlannedCall, signal: AbortSignal, shown: <T>(value: T) => T): Promise<Preview>;
}

export function defineStep<I>(step: StepType<I>): StepType<I> {
  return step;
}
