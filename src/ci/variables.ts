// Step outputs as CI variables (GitLab dotenv, Azure setvariable): STEPID_OUTPUT in upper case,
// a matrix instance's values after the id (SYSTEM_PROD_SUCCESS). Only steps with an id and
// scalar outputs: lists and objects stay in the JSON report; each CI's writer leaves out what it
// cannot carry (multi-line or long values), and says so where the user reads it when it was asked for.
import type { Report } from '../report/model.ts';
import { MASK } from '../runner/masker.ts';

export interface CiVariable {
  name: string;
  value: string;
  /** The value was a secret (masked): CI systems that can, mark it secret. */
  secret: boolean;
}

const name = (...parts: string[]) =>
  parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9_]/g, '_');

export function variablesOf(report: Report): CiVariable[] {
  const out: CiVariable[] = [];
  for (const run of report.steps) {
    if (!run.id || run.outcome === 'skipped') continue;
    const prefix = run.matrix ? [run.id, ...Object.values(run.matrix).map(String)] : [run.id];
    out.push({ name: name(...prefix, 'OUTCOME'), value: run.outcome, secret: false });
    for (const [key, value] of Object.entries(run.outputs)) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      const text = String(value);
      out.push({ name: name(...prefix, key), value: text, secret: text.includes(MASK) });
    }
  }
  return out;
}

/** GitLab refuses a whole dotenv artifact over its variable limit: 20 on a default self-managed instance. */
export const DOTENV_LIMIT = 20;

export interface Dotenv {
  text: string;
  /** Variables not written, and why. */
  left: { name: string; why: string }[];
}

/**
 * A dotenv file as GitLab reads it (artifacts:reports:dotenv): `NAME=VALUE` per line, the value
 * taken as it is, with no quote handling; so values are written raw, and one GitLab cannot carry
 * (a line break) is left out, and said only when `only` named it. At most `limit` variables: `only`
 * names the ones later jobs read; without it the first ones are kept, and the rest said.
 */
export function renderDotenv(
  variables: readonly CiVariable[],
  options: { only?: readonly string[]; limit?: number } = {},
): Dotenv {
  const limit = options.limit ?? DOTENV_LIMIT;
  const left: Dotenv['left'] = [];
  const chosen = options.only?.length ? variables.filter((v) => options.only!.includes(v.name)) : variables;
  for (const name of options.only ?? [])
    if (!variables.some((v) => v.name === name)) left.push({ name, why: 'no such output' });
  const lines: string[] = [];
  // A value no one named that a dotenv file cannot carry (an update's Markdown report) is skipped
  // silently: only what was asked for is said.
  const asked = options.only?.length
    ? (why: string, v: CiVariable) => left.push({ name: v.name, why })
    : () => undefined;
  for (const v of chosen) {
    if (/[\r\n]/.test(v.value)) asked('a value with a line break, which a dotenv file cannot carry', v);
    else if (v.value.length > 1024) asked('a value longer than 1024 characters', v);
    else if (lines.length >= limit) left.push({ name: v.name, why: `over GitLab's limit of ${limit} variables` });
    else lines.push(`${v.name}=${v.value}\n`);
  }
  return { text: lines.join(''), left };
}
