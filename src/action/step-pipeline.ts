// A single-step action as a pipeline: its inputs become the `with:` of one step, credentials are
// read from the environment as secrets (never written into the text), and validation findings
// are told by input name.
import { stringify } from 'yaml';
import { UsageError } from '../errors.ts';
import type { Diagnostic } from '../pipeline/diagnostics.ts';
import type { ActionDef } from './definitions.ts';
import { booleanInput, listInput, type GetInput } from './inputs.ts';

const LISTS = new Set(['files', 'directories', 'products', 'recipients']);
const NOT_STEP_INPUTS = new Set(['url', 'username', 'password', 'dry-run', 'summary', 'pr-comment', 'deployment-environment', 'github-token']);
const CONNECTION: Record<string, string> = { server: 'server', database: 'database', token: 'token', username: 'username', password: 'password' };
const SECRET_FIELDS = new Set(['token', 'password']);

export interface StepPipeline {
  file: string;
  text: string;
  /** Secrets the text reads as ${{ secrets.NAME }}: to add to the run's environment. */
  env: Record<string, string>;
}

export function stepPipeline(def: ActionDef, get: GetInput): StepPipeline {
  const withBlock: Record<string, unknown> = {};
  const env: Record<string, string> = {};
  for (const [name, input] of Object.entries(def.inputs)) {
    if (NOT_STEP_INPUTS.has(name)) continue;
    const prefix = /^(target|source)-(.+)$/.exec(name);
    if (prefix) {
      const value = get(name).trim();
      if (value === '') continue;
      const [, which, field] = prefix as unknown as [string, 'target' | 'source', string];
      const block = (withBlock[which] ??= {}) as Record<string, unknown>;
      if (SECRET_FIELDS.has(field)) {
        const variable = `ENGINECTL_INPUT_${which}_${field}`.toUpperCase();
        env[variable] = value;
        block[CONNECTION[field]!] = `\${{ secrets.${variable} }}`;
      } else block[CONNECTION[field]!] = value;
      continue;
    }
    if (LISTS.has(name)) {
      const list = listInput(get, name);
      if (list !== undefined) withBlock[name] = list;
      continue;
    }
    if (input.default === 'false' || input.default === 'true') {
      const value = booleanInput(get, name, input.default === 'true');
      if (value !== (input.default === 'true')) withBlock[name] = value;
      continue;
    }
    const value = get(name).trim();
    if (value !== '') withBlock[name] = value;
  }
  if (def.uses?.startsWith('update/') && !withBlock.target) {
    throw new UsageError('BAD_INPUT', `${def.id}: target-server and target-database are required`, { hint: 'set target-server, target-database and target-token (or target-username and target-password)' });
  }
  const step: Record<string, unknown> = { id: def.id, uses: def.uses };
  if (Object.keys(withBlock).length > 0) step.with = withBlock;
  const text = stringify({ version: 1, name: def.name, steps: [step] }, { lineWidth: 0 });
  return { file: `${def.id} inputs`, text, env };
}

/** A finding on the generated text, told as the input it came from. */
export function inputDiagnostic(d: Diagnostic, text: string): Diagnostic {
  const byPath = /^steps\[0\]\.with\.([\w-]+)(?:\.([\w-]+))?[^:]*:\s*/.exec(d.message);
  if (byPath) {
    const [, key, sub] = byPath as unknown as [string, string, string | undefined];
    const name = (key === 'target' || key === 'source') && sub ? `${key}-${sub}` : key;
    return { ...d, message: `input ${name}: ${d.message.slice(byPath[0].length)}` };
  }
  const lines = text.split('\n');
  const key = /^\s*(?:-\s*)?([\w-]+):/.exec(lines[d.line - 1] ?? '')?.[1];
  if (!key) return d;
  let name = key;
  if (CONNECTION[key]) {
    for (let i = d.line - 2; i >= 0; i--) {
      const parent = /^\s*(target|source):\s*$/.exec(lines[i] ?? '')?.[1];
      if (parent) {
        name = `${parent}-${key}`;
        break;
      }
    }
  }
  return { ...d, message: `input ${name}: ${d.message}` };
}
