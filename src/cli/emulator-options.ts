// The emulator's options, shared by `enginectl emulator` and `run --emulator`: the state, users,
// faults and failing replicas it starts with.
import type { Emulator } from '../emulator/index.ts';
import { UsageError } from '../errors.ts';

export const EMULATOR_OPTIONS = {
  state: { type: 'string' },
  user: { type: 'string', multiple: true },
  fault: { type: 'string', multiple: true },
  'fail-replication': { type: 'string', multiple: true },
} as const;

export const EMULATOR_OPTIONS_HELP = `  --state FILE                 start from this state (JSON) instead of the sample state
  --user NAME:PASSWORD:SCOPES  add a user; SCOPES separated by commas, * for all (repeatable)
  --fault "[METHOD] PATH SETTINGS"
                               inject a fault, e.g. "POST /api/devops/v1/update/vfs status=503 times=1"
                               settings: latency=2s status=N body=TEXT reset=before|after truncate
                               invalid-json hang chunk-delay=100ms times=N (repeatable)
  --fail-replication DATABASE[=MESSAGE]
                               make replications to that target database fail (repeatable)`;

export interface EmulatorOptionValues {
  state?: string | undefined;
  user?: string[] | undefined;
  fault?: string[] | undefined;
  'fail-replication'?: string[] | undefined;
}

/** Whether any emulator option was given (they need --emulator on run). */
export function hasEmulatorOptions(values: EmulatorOptionValues): boolean {
  return values.state !== undefined || (values.user ?? []).length > 0 || (values.fault ?? []).length > 0 || (values['fail-replication'] ?? []).length > 0;
}

export async function emulatorFromOptions(values: EmulatorOptionValues, now?: () => number): Promise<Emulator> {
  const { Emulator, loadStateFile, parseFault, parseUserSpec } = await import('../emulator/index.ts');
  const emulator = new Emulator({
    now,
    state: values.state ? await loadStateFile(values.state) : undefined,
    users: (values.user ?? []).map(parseUserSpec),
    faults: (values.fault ?? []).map(parseFault),
  });
  for (const spec of values['fail-replication'] ?? []) {
    const [name, ...message] = spec.split('=');
    if (!emulator.state.databases.some((d) => d.name === name)) {
      throw new UsageError('BAD_ARGUMENTS', `--fail-replication ${name}: no such database`, {
        hint: `databases: ${emulator.state.databases.map((d) => d.name).join(', ')}`,
      });
    }
    emulator.failReplication(name!, message.length ? message.join('=') : undefined);
  }
  return emulator;
}
