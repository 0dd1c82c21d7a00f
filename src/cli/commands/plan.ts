// `enginectl plan FILE`: the dry run, each call that would be made, secrets masked.
import { ExitCode, UsageError } from '../../errors.ts';
import { dryRun } from '../../app/dry-run.ts';
import { preflight } from '../../app/preflight.ts';
import { writeAtomic } from '../../app/atomic-write.ts';
import { resolve } from 'node:path';
import { withSampleEnv } from '../../emulator/sample-env.ts';
import { parseCommandArgs } from '../args.ts';
import { EMULATOR_OPTIONS, EMULATOR_OPTIONS_HELP, hasEmulatorOptions, sitesFromOptions } from '../emulator-options.ts';
import type { CliIO } from '../io.ts';
import { loadPipelineFile, parseSelection, parseVars } from '../../app/pipeline-input.ts';

export const PLAN_HELP = `Usage: enginectl plan FILE [options]

The dry run: validates the pipeline and prints each call it would make (method, path, body),
secrets masked. Makes no request. Outputs of earlier steps appear as <steps.ID.outputs.NAME>.

With --live, the preflight before a change window: every read-only step (gates, checks, reads)
runs for real, once and without waiting, and says what it finds now: it holds, it would wait
(and for what), or it FAILS NOW; later steps see the values read. Only GET requests are sent,
whatever a step or the server does: every write is shown and not sent.

Options:
  --var NAME=VALUE   override a var (repeatable)
  --only KEY=VALUE   keep only the matrix instances with that value (repeatable: a key given
                     twice keeps either value)
  --skip KEY=VALUE   leave out the matrix instances with that value (repeatable)
  --emulator         plan as run --emulator would (with --live: against the embedded emulator,
                     each server a site with its own state). With --emulator --live, also:
${EMULATOR_OPTIONS_HELP.replace(/^ {2}/gm, '    ')}
  --live             run the read-only steps for real, GET requests only (the preflight)
  --out F            with --live: save the plan to F (JSON, secrets masked); run --plan F runs it
                     and refuses when the state it saw has moved
  -h, --help         show this help

Exit codes: 0 (with --live: nothing fails now), 1 with --live: a step fails now, 2 invalid input.`;

export async function planCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('plan', args, {
    var: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    skip: { type: 'string', multiple: true },
    emulator: { type: 'boolean' },
    live: { type: 'boolean' },
    out: { type: 'string' },
    ...EMULATOR_OPTIONS,
  });
  if (values.help) {
    io.stdout(`${PLAN_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 1) throw new UsageError('BAD_ARGUMENTS', `plan: expected one pipeline FILE, got ${positionals.length}`);
  const selection = parseSelection(values.only, values.skip);
  if (hasEmulatorOptions(values) && !(values.emulator && values.live)) throw new UsageError('BAD_ARGUMENTS', 'plan: --state, --user, --fault and --fail-replication go with --emulator --live');
  const env = values.emulator && (values.state ?? []).length === 0 ? withSampleEnv(io.env) : io.env;
  if (values.out !== undefined && !values.live) throw new UsageError('BAD_ARGUMENTS', 'plan: --out goes with --live', { hint: 'enginectl plan FILE --live --out plan.json' });
  const vars = parseVars(values.var);
  const { pipeline, sources } = await loadPipelineFile(positionals[0]!, { ...io, env }, { vars, emulator: values.emulator, selection });
  if (!values.live) {
    const plan = await dryRun(pipeline, env, { selection });
    io.stdout(`plan of "${plan.name}": no request is made\n${plan.text}\n`);
    return ExitCode.ok;
  }
  const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
  const live = async (emulatorUrl: string | undefined) => {
    const { plan, saved } = await preflight({ pipeline, sources, vars, selection, env }, { signal: io.signal, emulatorUrl }, Date.now());
    io.stdout(`live plan of "${plan.name}": GET requests only; no write is sent\n${plan.text}\n`);
    io.stdout(`${plan.failsNow} step run(s) fail now, ${plan.wouldWait} would wait\n`);
    if (out) {
      await writeAtomic(out, `${JSON.stringify(saved, null, 2)}\n`);
      io.stdout(`plan: ${out} (run it with enginectl run ${positionals[0]!} --plan ${values.out})\n`);
    }
    return plan.failsNow > 0 ? ExitCode.failed : ExitCode.ok;
  };
  if (!values.emulator) return live(undefined);
  // Loaded only for --emulator: its sites, served on 127.0.0.1 for this plan.
  const { serve } = await import('../../emulator/index.ts');
  const running = await serve(await sitesFromOptions(values), { port: 0 });
  try {
    return await live(running.url);
  } finally {
    await running.close();
  }
}
