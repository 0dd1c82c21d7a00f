// Runs a pipeline given as YAML in-process against an emulator served on 127.0.0.1, on a
// simulated clock shared with the emulator (waits pass at once).
import type { TestContext } from 'node:test';
import type { Timer } from '../../src/api/deadline.ts';
import { EngineClient, type ClientDeps } from '../../src/api/index.ts';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import type { EmulatorOptions } from '../../src/emulator/index.ts';
import { loadPipeline } from '../../src/pipeline/load.ts';
import type { RunLogger } from '../../src/runner/run-logger.ts';
import type { StepRun } from '../../src/runner/result.ts';
import { runPipeline, type RunOptions } from '../../src/runner/run-pipeline.ts';
import { FAST_RETRY, startEmulator } from './emulator.ts';

export interface RunYamlOptions extends RunOptions {
  emulator?: EmulatorOptions;
  env?: Record<string, string>;
  signal?: AbortSignal;
  heartbeatMs?: number;
  /** The timer of step timeouts (default: real time); a test's manualTimer fires when it says. */
  timer?: Timer;
  /** Credentials the server uses (default admin/admin). */
  user?: [string, string];
  /** Prepares the emulator before the run (faults, failing replicas). */
  setup?: (emulator: Awaited<ReturnType<typeof startEmulator>>['emulator']) => void;
  /** The clock of the runner and the emulator (default: simulated, from 2026-11-22 12:00 UTC). */
  clock?: Clock & { advanced(): number };
  file?: string;
  /** Extra client dependencies (onRetry, to count attempts that never reach a server). */
  clientDeps?: ClientDeps;
  /** --override-freeze --reason as the runner is told it (windows and freezes). */
  windowOverride?: { by: string; reason: string };
}

/**
 * A clock for golden files: it moves only when read (by `tickMs`) or slept on, so a sequential
 * run reads the same times on every machine.
 */
export function tickingClock(start = Date.UTC(2026, 10, 22, 12, 0, 0), tickMs = 125): Clock & { advanced(): number } {
  let t = start;
  let slept = 0;
  return {
    advanced: () => slept,
    now: () => (t += tickMs),
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        t += ms;
        slept += ms;
        setImmediate(resolve);
      }),
  };
}

export async function runYaml(t: TestContext, yaml: string, options: RunYamlOptions = {}) {
  const clock = options.clock ?? simulatedClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const { emulator, url } = await startEmulator(t, { now: clock.now, ...options.emulator });
  options.setup?.(emulator);
  const [username, password] = options.user ?? ['admin', 'admin'];
  const env = { ENGINE_URL: url, ENGINE_USERNAME: username, ENGINE_PASSWORD: password, ...options.env };
  const { pipeline } = loadPipeline({ file: options.file ?? 'test.yml', text: yaml, env });
  const logger = new RecordingLogger();
  const result = await runPipeline(
    pipeline,
    {
      clientFor: (s) => new EngineClient(s, { retry: FAST_RETRY, ...options.clientDeps }),
      env,
      listeners: [logger],
      signal: options.signal ?? new AbortController().signal,
      now: clock.now,
      sleep: clock.sleep,
      heartbeatMs: options.heartbeatMs,
      timer: options.timer,
      // An actor alone, as outside CI.
      windowOverride: options.windowOverride && {
        ...options.windowOverride,
        identity: { actor: options.windowOverride.by, claims: {} },
      },
    },
    { selection: options.selection },
  );
  return { result, logger, emulator, clock, byName: (name: string) => result.steps.find((s) => s.name === name)! };
}

/** A pipeline of one step. */
export function oneStep(uses: string, withBlock: string, extra = ''): string {
  return `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
  staging: { server: staging-db.example.com, database: STAGING, username: deploy, password: deploy-pass }
  wrong: { server: prod-db.example.com, database: PROD, token: not-the-token }
steps:
  - id: s
    name: the step
    uses: ${uses}
    with: ${withBlock}
${extra}`;
}

/** The `with:` of a licensing/create step the emulator accepts (a step list item's indentation). */
export const LICENSE_CREATE_WITH = `    with:
      licensee-id: ACME-001
      licensee-name: ACME Corp
      expiration: "2027-12-31"
      licenser-key: 7001
      licenses: [{ product: 2, quantity: 25, type: U }]
`;

/** A logger that records every line. */
export class RecordingLogger implements RunLogger {
  readonly lines: string[] = [];
  stepStarted(run: StepRun, position: string) {
    this.lines.push(`start ${position} ${run.name}`);
  }
  stepFinished(run: StepRun, position: string) {
    this.lines.push(`end ${position} ${run.name} ${run.outcome}${run.error ? `: ${run.error.message}` : ''}`);
  }
  info(run: StepRun | undefined, message: string) {
    this.lines.push(`info ${run?.name ?? ''} ${message}`);
  }
  warn(run: StepRun | undefined, message: string) {
    this.lines.push(`warn ${run?.name ?? ''} ${message}`);
  }
}
