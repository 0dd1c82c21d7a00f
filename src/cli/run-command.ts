// Dispatches argv to a command and turns every error into a message and an exit code. Testable:
// it never exits the process and prints only through `io`.
import { describeError, EnginectlError, ExitCode, exitCodeOf, UsageError } from '../errors.ts';
import { annotationsOf, findingsMask } from './annotations.ts';
import { VERSION } from '../version.ts';
import { MAIN_HELP } from './help.ts';
import type { CliIO } from './io.ts';
import { detectCi } from '../ci/detect.ts';
import { withAnnotationBudget } from '../ci/annotation-budget.ts';
import type { CiSystem } from '../ci/system.ts';
import { neutralise } from '../text/neutralise.ts';
import { fileMasker } from '../runner/file-secrets.ts';
import type { Masker } from '../runner/masker.ts';

type Command = (args: string[], io: CliIO) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./commands/run.ts')).runPipelineCommand,
  validate: async () => (await import('./commands/validate.ts')).validateCommand,
  plan: async () => (await import('./commands/plan.ts')).planCommand,
  report: async () => (await import('./commands/report.ts')).reportCommand,
  verify: async () => (await import('./commands/verify.ts')).verifyCommand,
  runs: async () => (await import('./commands/runs.ts')).runsCommand,
  decide: async () => (await import('./commands/decide.ts')).decideCommand,
  shard: async () => (await import('./commands/shard.ts')).shardCommand,
  lease: async () => (await import('./commands/lease.ts')).leaseCommand,
  schema: async () => (await import('./commands/schema.ts')).schemaCommand,
  matrix: async () => (await import('./commands/matrix.ts')).matrixCommand,
  api: async () => (await import('./commands/api.ts')).apiCommand,
  emulator: async () => (await import('./commands/emulator.ts')).emulatorCommand,
};

export const COMMAND_NAMES = Object.keys(COMMANDS);

/** A command's function, its modules loaded on first use. */
export function loadCommand(name: string): Promise<Command> {
  return COMMANDS[name]!();
}

export async function runCommand(argv: string[], given: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  // The CI system is chosen once for the command (--ci, or detected) and kept for its errors' annotations,
  // which it makes no more of than the CI shows (GitHub: 10 of each kind a step), counting the others at the end.
  let chosen: ReturnType<typeof withAnnotationBudget> | undefined;
  const choose = (forced?: string): CiSystem => (chosen ??= withAnnotationBudget(detectCi(given.env, forced)));
  // The secrets of each pipeline the command loaded, masked in the error it ends with (a server URL from a secret).
  const maskers: (() => Masker)[] = [];
  const io: CliIO = {
    ...given,
    chooseCi: choose,
    // Each built once, when an error is first masked (review: it was built again for every text it masked).
    pipelineLoaded: (pipeline, env) => {
      let built: Masker | undefined;
      maskers.push(() => (built ??= fileMasker(pipeline, env)));
    },
    maskerMade: (masker) => maskers.push(() => masker),
  };
  const failed = (error: unknown) => {
    const ci = choose();
    // An invalid pipeline: what its files hold, though it never loaded (its findings quote their lines).
    const findings = findingsMask(error, io, ci);
    const mask = (text: string) =>
      maskers.reduce((masked, masker) => masker().mask(masked), findings ? findings(text) : text);
    for (const line of annotationsOf(error, io, ci, mask)) io.stdout(`${line}\n`);
    io.stderr(`enginectl: ${neutralise(describeError(error, mask))}\n`);
    // The code docs/error-codes.md lists, under the message: what to search for, and what a script matches.
    if (error instanceof EnginectlError) io.stderr(`  code: ${error.code}\n`);
    return exitCodeOf(error);
  };
  let command: Command;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.stdout(`${MAIN_HELP}\n`);
      return ExitCode.ok;
    }
    if (name === '--version' || name === '-v') {
      io.stdout(`${VERSION}\n`);
      return ExitCode.ok;
    }
    const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!load) {
      throw new UsageError('UNKNOWN_COMMAND', `unknown command "${name}"`, {
        hint: `commands: ${Object.keys(COMMANDS).join(', ')}; see enginectl --help`,
      });
    }
    command = await load();
  } catch (error) {
    // The command's code is missing from this copy of the CLI: the entry (bin.ts) says so, nothing having run.
    if ((error as { code?: unknown } | undefined)?.code === 'ERR_MODULE_NOT_FOUND') throw error;
    return failed(error);
  }
  try {
    return await command(rest, io);
  } catch (error) {
    // An error as the terminal shows it: annotations first, under a CI that reads them.
    return failed(error);
  } finally {
    for (const line of chosen?.endAnnotations() ?? []) io.stdout(`${line}\n`);
  }
}
