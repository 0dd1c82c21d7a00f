// Step outputs as CI variables (GitLab dotenv, Azure setvariable): STEPID_OUTPUT in upper case,
// a matrix instance's values after the id (SYSTEM_PROD_SUCCESS). Only steps with an id and
// single-line scalar outputs: lists, objects and Markdown reports stay in the JSON report.
import type { RunResult } from '../runner/result.ts';
import { MASK } from '../runner/masker.ts';

export interface CiVariable {
  name: string;
  value: string;
  /** The value was a secret (masked): CI systems that can, mark it secret. */
  secret: boolean;
}

const name = (...parts: string[]) => parts.join('_').toUpperCase().replace(/[^A-Z0-9_]/g, '_');

export function variablesOf(result: RunResult): CiVariable[] {
  const out: CiVariable[] = [];
  for (const run of result.steps) {
    if (!run.id || run.outcome === 'skipped') continue;
    const prefix = run.matrix ? [run.id, ...Object.values(run.matrix).map(String)] : [run.id];
    out.push({ name: name(...prefix, 'OUTCOME'), value: run.outcome, secret: false });
    for (const [key, value] of Object.entries(run.outputs)) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      const text = String(value);
      if (/[\r\n]/.test(text) || text.length > 1024) continue;
      out.push({ name: name(...prefix, key), value: text, secret: text.includes(MASK) });
    }
  }
  return out;
}

/** A dotenv file (GitLab artifacts:reports:dotenv): NAME=value, values single-quoted when needed. */
export function renderDotenv(variables: readonly CiVariable[]): string {
  return variables.map((v) => `${v.name}=${/^[\w.,:/@+-]*$/.test(v.value) ? v.value : `'${v.value.replace(/'/g, '')}'`}\n`).join('');
}
