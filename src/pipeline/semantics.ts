// The semantic stage of loading: what no schema can say, as named rules (each a small function
// returning problems, collected, never thrown). Ids unique, servers and targets known (with
// did-you-mean), URLs callable, credentials complete, every `${{ }}` reference resolvable where it
// is written, vars the file fixes valid for the inputs reading them.
import type { DefaultServer } from '../api/server-env.ts';
import { insecureHttpError } from '../api/insecure-http.ts';
import { baseUrlProblem } from '../api/base-url.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { Diagnostic } from './diagnostics.ts';
import { at } from './located.ts';
import { checkString, checkValue, type RefScope, type RefStep, type RefWorld } from './references-check.ts';
import { leaseProblems } from './lease-check.ts';
import { rolloutProblems } from './rollout-check.ts';
import { scheduleProblems } from './schedule-check.ts';
import { varInputProblems } from './var-inputs-check.ts';
import { credentialProblems, stepTargetProblems } from './targets-check.ts';
import type { PipelineFile } from './schema.ts';
import type { Reach } from './model.ts';
import type { serverChoice } from './servers-check.ts';
import type { YamlSource } from './yaml-doc.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

type RawStep = PipelineFile['steps'][number];

export interface SemanticOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** The default server the edge read (an action's inputs); from `env` when absent. */
  defaultServer?: DefaultServer | undefined;
  vars?: Readonly<Record<string, unknown>> | undefined;
  emulator?: boolean | undefined;
  checkEnv?: boolean | undefined;
  /** What the selected instances reach; the environment is asked for nothing else. Everything when absent. */
  reach?: Reach | undefined;
  /** How a hint names where a var is given (the CLI's --var by default, an action's input vars). */
  ways?: WaysOn | undefined;
}

/** What every rule reads: the document, where each name is defined, and the steps by id. */
interface Checked {
  source: YamlSource;
  doc: PipelineFile & { steps: RawStep[] };
  options: SemanticOptions;
  /** The file a server, target or var is defined in: the pipeline, or an inventory it includes. */
  src(kind: 'servers' | 'targets' | 'vars' | 'windows' | 'freezes', name: string): YamlSource;
  ids: Map<string, RefStep>;
  targets: Record<string, unknown>;
  /** The servers of the file and the one each step names (servers-check.ts). */
  servers: ReturnType<typeof serverChoice>;
}

type Rule = (c: Checked) => Diagnostic[];

/** Step ids are unique. */
const uniqueIds: Rule = ({ source, doc }) => {
  const seen = new Map<string, number>();
  const out: Diagnostic[] = [];
  doc.steps.forEach((s, index) => {
    if (s.id === undefined) return;
    if (seen.has(s.id))
      out.push(
        at(
          source,
          ['steps', index, 'id'],
          `duplicate step id "${s.id}"`,
          `step ${seen.get(s.id)! + 1} has it too; ids are unique`,
        ),
      );
    else seen.set(s.id, index);
  });
  return out;
};

/** Each step's server exists (servers-check.ts decided it once). */
const knownServers: Rule = ({ servers }) => servers.problems;

/** A target has a token, or a username and a password. */
const targetCredentials: Rule = ({ doc, src }) =>
  Object.entries(doc.targets ?? {}).flatMap(([name, target]) =>
    credentialProblems(src('targets', name), ['targets', name], target),
  );

/** A server URL written literally can be called; credentials do not travel over plain HTTP unless allowed. */
const serverUrls: Rule = ({ doc, src, options }) =>
  Object.entries(doc.servers ?? {}).flatMap(([name, s]) => {
    if (typeof s?.url !== 'string' || s.url.includes('${{')) return [];
    const problem = baseUrlProblem(s.url);
    if (problem)
      return [
        at(
          src('servers', name),
          ['servers', name, 'url'],
          `the URL ${problem}`,
          'give the base_url of the API, e.g. https://erp.example.com',
        ),
      ];
    if (options.emulator) return [];
    const refused = insecureHttpError({
      url: s.url,
      credentials: s.username !== undefined,
      allowInsecureHttp: s['allow-insecure-http'] === true,
      where: `server "${name}"`,
      allowWith: 'set allow-insecure-http: true on the server',
    });
    return refused ? [at(src('servers', name), ['servers', name, 'url'], refused.message, refused.hint)] : [];
  });

/** Every `${{ }}` reference resolves where it is written: the name, vars, servers, targets, each step's fields. */
const references: Rule = ({ source, doc, options, src, ids, targets }) => {
  const out: Diagnostic[] = [];
  const world: RefWorld = {
    env: options.env,
    vars: new Set([...Object.keys(doc.vars ?? {}), ...Object.keys(options.vars ?? {})]),
    targets: new Set(Object.keys(targets)),
    steps: ids,
    ways: options.ways ?? CLI_WAYS,
  };
  const base = new Set(['env', 'secrets', 'vars', 'pipeline']);
  const skipEnv = options.checkEnv === false;
  const { reach } = options;
  const unreached = (kind: 'servers' | 'targets' | 'vars', name: string) =>
    reach !== undefined && !reach[kind].has(name);
  out.push(...checkValue(source, ['name'], doc.name, { allowed: new Set(['env', 'vars']) }, world));
  // A var reads env, secrets and the vars before it.
  const earlier = new Set<string>(Object.keys(options.vars ?? {}));
  for (const [name, value] of Object.entries(doc.vars ?? {})) {
    out.push(
      ...checkValue(
        src('vars', name),
        ['vars', name],
        value,
        { allowed: new Set(['env', 'secrets', 'vars']), skipEnv: skipEnv || unreached('vars', name) },
        { ...world, vars: earlier, allVars: world.vars },
      ),
    );
    earlier.add(name);
  }
  for (const [name, s] of Object.entries(doc.servers ?? {}))
    out.push(
      ...checkValue(
        src('servers', name),
        ['servers', name],
        s,
        { allowed: base, skipEnv: skipEnv || options.emulator === true || unreached('servers', name) },
        world,
      ),
    );
  for (const [name, t] of Object.entries(doc.targets ?? {}))
    out.push(
      ...checkValue(
        src('targets', name),
        ['targets', name],
        t,
        { allowed: base, skipEnv: skipEnv || unreached('targets', name) },
        world,
      ),
    );
  doc.steps.forEach((s, index) => {
    const scope: RefScope = {
      skipEnv: skipEnv || (reach !== undefined && !reach.steps.has(index)),
      allowed: new Set([...base, 'steps', 'targets', ...(s.matrix ? ['matrix'] : [])]),
      stepIndex: index,
      matrixKeys: Object.keys(s.matrix ?? {}),
    };
    const conditions = new Set(STEP_TYPES.get(s.uses)?.conditions ?? []);
    for (const [key, value] of Object.entries(s.with ?? {})) {
      if (!conditions.has(key)) out.push(...checkValue(source, ['steps', index, 'with', key], value, scope, world));
    }
    out.push(...checkValue(source, ['steps', index, 'name'], s.name, scope, world));
    if (typeof s.server === 'string')
      out.push(
        ...checkValue(
          source,
          ['steps', index, 'server'],
          s.server,
          { ...scope, allowed: new Set(['env', 'vars', ...(s.matrix ? ['matrix'] : [])]) },
          world,
        ),
      );
    if (typeof s.if === 'string') out.push(...checkString(source, ['steps', index, 'if'], s.if, scope, world, true));
    for (const name of conditions) {
      const value = s.with?.[name];
      if (typeof value === 'string')
        out.push(...checkString(source, ['steps', index, 'with', name], value, scope, world, true));
    }
  });
  return out;
};

/** An input that is exactly `${{ vars.NAME }}` of a var the file fixes is valid for the input. */
const varInputs: Rule = ({ source, doc, options }) =>
  doc.steps.flatMap((s, index) => varInputProblems(source, s, index, doc.vars ?? {}, options.vars, options.ways));

/** A target a step names exists (also each value of a matrix the target input reads); one written inline has credentials. */
const stepTargets: Rule = ({ source, doc, targets }) =>
  doc.steps.flatMap((s, index) => stepTargetProblems(source, s, index, targets));

/** A rollout splits steps by a matrix key they have, its waves and gates name what exists (rollout-check.ts). */
const rollout: Rule = ({ source, doc }) => rolloutProblems(source, doc);

/** A lease over a matrix key: the key is one of the steps' matrices, and each value's lease name fits the limit (lease-check.ts). */
const lease: Rule = ({ source, doc }) => leaseProblems(source, doc);

/** Windows and freezes: valid cron expressions, zones, durations and dates (schedule-check.ts). */
const schedule: Rule = ({ doc, src, source }) => scheduleProblems(doc, src, source);

/** The rules, by name, in the order their findings are read. */
export const RULES: Readonly<Record<string, Rule>> = {
  uniqueIds,
  knownServers,
  targetCredentials,
  serverUrls,
  references,
  varInputs,
  stepTargets,
  rollout,
  lease,
  schedule,
};

/** Every rule's problems, collected. `servers`: the loader's one decision of each step's server. */
export function semanticProblems(
  source: YamlSource,
  doc: PipelineFile,
  options: SemanticOptions,
  servers: ReturnType<typeof serverChoice>,
  origins: ReadonlyMap<string, YamlSource> = new Map(),
): Diagnostic[] {
  if (!Array.isArray(doc.steps)) return [];
  const ids = new Map<string, RefStep>();
  doc.steps.forEach((s, index) => {
    if (s.id !== undefined && !ids.has(s.id))
      ids.set(s.id, { index, uses: s.uses, matrix: s.matrix ? Object.keys(s.matrix) : undefined });
  });
  doc.steps.forEach(servers.serverOf);
  const checked: Checked = {
    source,
    doc: doc as Checked['doc'],
    options,
    src: (kind, name) => origins.get(`${kind}.${name}`) ?? source,
    ids,
    targets: doc.targets ?? {},
    servers,
  };
  return Object.values(RULES).flatMap((rule) => rule(checked));
}
