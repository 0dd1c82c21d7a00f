// What a run reaches: the steps with an instance selected (--only, --skip), the servers and targets
// those instances call, the vars they (and those servers and targets) read. The loader asks the
// environment for what is reached, and the run resolves nothing else: a job of one site needs that
// site's secrets only, a pipeline calling one server of an inventory that server's only. Where a name cannot be known at load (an expression over a step's
// outputs, a secret), every server or target counts as reached: asking for too much is safe.
import {
  compileCondition,
  compiledReferences,
  compileString,
  compileValue,
  conditionText,
  Expression,
  isStatic,
  resolveDeep,
  toText,
} from '../expr/index.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { Reach } from './model.ts';
import type { PipelineFile } from './schema.ts';
import { expandMatrix, selects, type Selection } from './selection.ts';

type RawStep = PipelineFile['steps'][number];

/** `choice`: the servers there are (the file's, or the default one) and the one each step names (servers-check.ts). */
export function reachOf(
  doc: PipelineFile,
  choice: { names: string[]; serverOf: (step: RawStep, index: number) => string | undefined },
  selection: Selection,
  known: { env: Readonly<Record<string, string | undefined>>; vars?: Readonly<Record<string, unknown>> | undefined },
): Reach {
  const allServers = choice.names;
  const allTargets = Object.keys(doc.targets ?? {});
  const fileVars = doc.vars ?? {};
  // What a name can be computed from at load: the matrix, the environment, the vars with no
  // expression and --var values.
  const fixed: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(fileVars))
    if (isStatic(safeCompile(v)))
      Object.defineProperty(fixed, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of Object.entries(known.vars ?? {}))
    Object.defineProperty(fixed, k, { value: v, enumerable: true, writable: true, configurable: true });

  const steps = new Set<number>();
  const servers = new Set<string>();
  const targets = new Set<string>();
  const read: unknown[] = [doc.name];
  /** The names an instance's field gives: its text, or its expression evaluated with the instance's matrix (compiled once). */
  const names = (
    raw: unknown,
    combos: Record<string, unknown>[],
    candidates: ReadonlySet<string>,
    into: Set<string>,
  ) => {
    if (typeof raw !== 'string') return;
    const compiled = safeCompile(raw) as ReturnType<typeof compileString> | undefined;
    for (const combo of combos) {
      const name =
        compiled === undefined ? undefined : nameOf(compiled, { matrix: combo, vars: fixed, env: known.env });
      if (name !== undefined && candidates.has(name)) into.add(name);
      else return candidates.forEach((k) => into.add(k));
    }
  };
  const serverNames = new Set(allServers);
  const targetNames = new Set(allTargets);
  (doc.steps ?? []).forEach((step, index) => {
    const combos = expandMatrix(step.matrix).filter((c) => selects(c, selection));
    if (combos.length === 0) return;
    steps.add(index);
    names(choice.serverOf(step, index), combos, serverNames, servers);
    const type = STEP_TYPES.get(step.uses);
    if (type?.targetInput) names(step.with?.[type.targetInput], combos, targetNames, targets);
    // A condition (a step's if:, an input its type takes as one) is an expression bare too: its vars are read.
    read.push(step.name, step.with, safeCondition(step.if), step.server);
    for (const input of type?.conditions ?? []) read.push(safeCondition(step.with?.[input]));
  });
  // targets.NAME read in an expression; every target when the name is computed.
  for (const ref of references(read))
    if (ref.path[0] === 'targets')
      (ref.path[1] === undefined ? allTargets : [ref.path[1]]).forEach((t) => targets.add(t));
  for (const name of servers) read.push(doc.servers?.[name]);
  for (const name of targets) read.push(doc.targets?.[name]);
  return { steps, servers, targets, vars: varsRead(read, fileVars) };
}

/**
 * What verify reaches: the servers named (those of the instances in doubt, as the journal
 * recorded them) and the vars they and the pipeline's name read; no step's inputs and no target
 * (its GET requests send neither). A name the pipeline does not define is left out (verify says it
 * cannot read that instance).
 */
export function readBackReach(doc: PipelineFile, names: readonly string[], servers: Iterable<string>): Reach {
  const known = new Set(names);
  const reached = new Set([...servers].filter((name) => known.has(name)));
  const read = [doc.name, ...[...reached].map((name) => doc.servers?.[name])];
  return { steps: new Set(), servers: reached, targets: new Set(), vars: varsRead(read, doc.vars ?? {}) };
}

/** The vars `values` read, and the vars those read, in turn. */
function varsRead(values: unknown[], fileVars: Record<string, unknown>): Set<string> {
  const vars = new Set<string>();
  const queue = [...values];
  while (queue.length > 0) {
    for (const ref of references([queue.pop()])) {
      if (ref.path[0] !== 'vars') continue;
      for (const name of ref.path[1] === undefined ? Object.keys(fileVars) : [ref.path[1]]) {
        if (vars.has(name)) continue;
        vars.add(name);
        if (Object.hasOwn(fileVars, name)) queue.push(fileVars[name]);
      }
    }
  }
  return vars;
}

function references(values: unknown[]) {
  return compiledReferences(values.map((v) => (v instanceof Expression ? v : safeCompile(v))));
}

/** A condition compiled, bare or in one ${{ }}; undefined when it is none or does not parse (refused by the semantic stage). */
function safeCondition(raw: unknown): Expression | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    return compileCondition(conditionText(raw).text);
  } catch {
    return undefined;
  }
}

/** A value compiled, or undefined where an expression does not parse (refused by the semantic stage). */
function safeCompile(value: unknown): unknown {
  try {
    return compileValue(value);
  } catch {
    return undefined;
  }
}

/** A name written as text or as an expression over what is known at load; undefined when it reads anything else. */
function nameOf(compiled: ReturnType<typeof compileString>, contexts: Record<string, unknown>): string | undefined {
  if (typeof compiled === 'string') return compiled;
  try {
    return toText(resolveDeep(compiled, { contexts }) as never);
  } catch {
    return undefined;
  }
}
