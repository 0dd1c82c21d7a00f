// The emulator's options, shared by `enginectl emulator`, `run --emulator` and `plan --live
// --emulator`: the states of its sites, users, faults and failing replicas it starts with.
import type { Emulator, Sites } from '../emulator/index.ts';
import { faultUsageLines } from '../emulator/faults/docs.ts';
import { withSampleEnv } from '../emulator/sample-env.ts';
import { UsageError } from '../errors.ts';

export const EMULATOR_OPTIONS = {
  state: { type: 'string', multiple: true },
  user: { type: 'string', multiple: true },
  fault: { type: 'string', multiple: true },
  'fail-replication': { type: 'string', multiple: true },
} as const;

const INDENT = ' '.repeat(31);

export const EMULATOR_OPTIONS_HELP = `  --state [SITE=]FILE          start from this state (JSON) instead of the sample state; SITE=FILE
                               is the state of that site (a server of the pipeline) alone (repeatable)
  --user NAME:PASSWORD:SCOPES  add a user; SCOPES separated by commas, * for all (repeatable)
  --fault "[METHOD] PATH SETTINGS"
                               inject a fault, e.g. "POST /api/devops/v1/update/vfs status=503 times=1"
${faultUsageLines(100 - INDENT.length)
  .map((line) => `${INDENT}${line}\n`)
  .join('')}${INDENT}(each in docs/emulator.md; repeatable)
  --fail-replication DATABASE[=MESSAGE]
                               make replications to that target database fail (repeatable)`;

export interface EmulatorOptionValues {
  state?: string[] | undefined;
  user?: string[] | undefined;
  fault?: string[] | undefined;
  'fail-replication'?: string[] | undefined;
}

/** Whether any emulator option was given (they need --emulator on run). */
export function hasEmulatorOptions(values: EmulatorOptionValues): boolean {
  return (
    (values.state ?? []).length > 0 ||
    (values.user ?? []).length > 0 ||
    (values.fault ?? []).length > 0 ||
    (values['fail-replication'] ?? []).length > 0
  );
}

/**
 * The environment a command sees under --emulator: with the sample state (no --state), its sample
 * secrets fill what the environment leaves unset.
 */
export function emulatorEnv(
  values: EmulatorOptionValues & { emulator?: boolean | undefined },
  env: Readonly<Record<string, string | undefined>>,
): Readonly<Record<string, string | undefined>> {
  return values.emulator && (values.state ?? []).length === 0 ? withSampleEnv(env) : env;
}

/**
 * The state files read before the pipeline is: with --state the sample's secrets are not filled in,
 * so a path that cannot be read must be told as such, not as the secrets the sample would have given.
 */
export async function checkStateFiles(
  values: EmulatorOptionValues & { emulator?: boolean | undefined },
): Promise<void> {
  if (!values.emulator || stateFiles(values).length === 0) return;
  const { loadStateFile } = await import('../emulator/index.ts');
  for (const file of stateFiles(values)) await loadStateFile(file);
}

/** `body` with the sites the options set up, served on 127.0.0.1 for its length (loaded only then). */
export async function withEmulatedSites<T>(
  values: EmulatorOptionValues,
  now: (() => number) | undefined,
  body: (url: string) => Promise<T>,
): Promise<T> {
  const { serve } = await import('../emulator/index.ts');
  const running = await serve(await sitesFromOptions(values, now), { port: 0 });
  try {
    return await body(running.url);
  } finally {
    await running.close();
  }
}

/** A --state value: the site it is for (none: every site) and its file. */
function stateSpec(spec: string): { site: string | undefined; file: string } {
  const m = /^([A-Za-z_][\w-]*)=(.+)$/.exec(spec);
  return m ? { site: m[1]!, file: m[2]! } : { site: undefined, file: spec };
}

/** The state files the options name (read when the emulator starts). */
export function stateFiles(values: EmulatorOptionValues): string[] {
  return (values.state ?? []).map((spec) => stateSpec(spec).file);
}

/** The sites of the emulator as the options set them up; `onStart` is told of each site started. */
export async function sitesFromOptions(
  values: EmulatorOptionValues,
  now?: () => number,
  onStart?: (name: string, site: Emulator) => void,
): Promise<Sites> {
  const { Sites, loadStateFile, parseFault, parseUserSpec } = await import('../emulator/index.ts');
  let shared: Awaited<ReturnType<typeof loadStateFile>> | undefined;
  const states: Record<string, Awaited<ReturnType<typeof loadStateFile>>> = {};
  for (const spec of values.state ?? []) {
    const { site, file } = stateSpec(spec);
    if (site !== undefined) {
      if (states[site])
        throw new UsageError('BAD_ARGUMENTS', `--state ${spec}: the site ${site} has a state already`, {
          hint: 'give one --state SITE=FILE per site',
        });
      states[site] = await loadStateFile(file);
    } else {
      if (shared)
        throw new UsageError('BAD_ARGUMENTS', `--state ${spec}: a state for every site is given twice`, {
          hint: 'give one --state FILE, and --state SITE=FILE for a site of its own',
        });
      shared = await loadStateFile(file);
    }
  }
  const failReplication = new Map<string, string | undefined>();
  for (const spec of values['fail-replication'] ?? []) {
    const [name, ...message] = spec.split('=');
    failReplication.set(name!, message.length ? message.join('=') : undefined);
  }
  const sites = new Sites({
    now,
    state: shared,
    states,
    users: (values.user ?? []).map(parseUserSpec),
    faults: (values.fault ?? []).map(parseFault),
    failReplication,
    onStart,
  });
  // A database no site has is a mistake to say now, not a rule that never applies.
  const known = new Set(
    [sites.site('default'), ...Object.keys(states).map((n) => sites.site(n))].flatMap((site) =>
      site.state.databases.map((d) => d.name),
    ),
  );
  for (const name of failReplication.keys()) {
    if (!known.has(name))
      throw new UsageError('BAD_ARGUMENTS', `--fail-replication ${name}: no such database`, {
        hint: `databases: ${[...known].join(', ')}`,
      });
  }
  return sites;
}
