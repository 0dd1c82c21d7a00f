// What a command gets from the world. The edge (main.ts) passes the real process; tests pass
// recording fakes and run the same code.
import type { Masker } from '../runner/masker.ts';
import { detectCi } from '../ci/detect.ts';
import type { CiSystem } from '../ci/system.ts';
import type { Clock } from '../app/clock.ts';
import type { ReadTextOptions } from '../read-text-file.ts';
import type { Pipeline } from '../pipeline/model.ts';

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a terminal (colour, spinner). */
  stdoutIsTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Aborted when the process is asked to stop (SIGINT, SIGTERM). */
  signal: AbortSignal;
  /** A file's text; read no further than `options.limit` bytes by the process edge (read-text-file.ts). */
  readFile(path: string, options?: ReadTextOptions): Promise<string>;
  /** Standard input's text; stopped by `options.signal` (the process's signal, by the process edge). */
  readStdin(options?: ReadTextOptions): Promise<string>;
  /**
   * The run's clock against a real server (its waits, a bake, a park's times): the steady real
   * clock unless given; tests give the simulated clock the emulator they serve reads too.
   */
  clock?: Clock | undefined;
  /**
   * The real time the simulated clock of `run --emulator` moves with besides its waits (the wall
   * clock); a test's may stand still, so that only the run's waits move it.
   */
  emulatorTime?: (() => number) | undefined;
  /** The steady time durations are measured on (steadyNow); a test's own. */
  stopwatch?: (() => number) | undefined;
  /**
   * The CI system whose conventions the command follows, chosen once per command: `forced` is
   * --ci NAME, else it is detected from the environment (run-command.ts keeps the choice, so an
   * error the command ends with is annotated in the same system's syntax).
   */
  chooseCi?(forced?: string): CiSystem;
  /**
   * Told each pipeline the command loaded (app/pipeline-input.ts loadPipelineFile): an error the
   * command ends with is masked with the secrets that pipeline's file holds (run-command.ts), as
   * a server URL from a secret in "the URL ... holds white space".
   */
  pipelineLoaded?(pipeline: Pipeline, env: Readonly<Record<string, string | undefined>>): void;
  /**
   * Told the masker a command's run learns its secrets with: an error the command ends with is
   * masked with what it learnt too (a value computed from a secret: a CA file's path, a server's
   * name), not only with what the file holds.
   */
  maskerMade?(masker: Masker): void;
}

/** The command's CI system: --ci NAME, or the one the environment names; the same for the whole command. */
export function chooseCi(io: CliIO, forced?: string): CiSystem {
  return io.chooseCi ? io.chooseCi(forced) : detectCi(io.env, forced);
}
