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

type ReportStep = Report['steps'][number];

/**
 * Each instance once, where it is first listed: a rollout's analysis runs a gate instance again
 * between waves (a round each), and its rounds are that instance's, not outputs of their own: its
 * last round that ran (the JSON report lists the rounds after it, in their order) stands for it.
 */
function instancesOf(report: Report): ReportStep[] {
  const by = new Map<string, ReportStep>();
  const later = (a: ReportStep, b: ReportStep) => (b.round ?? 0) >= (a.round ?? 0);
  for (const run of report.steps) {
    if (run.outcome === 'skipped') continue;
    const key = `${run.step}:${JSON.stringify(run.matrix)}`;
    const kept = by.get(key);
    // Set again in place: a Map keeps the order of the first set.
    if (!kept || later(kept, run)) by.set(key, run);
  }
  return [...by.values()];
}

/** Every output as a variable, and what it is ("step a-b's status"), clashing names included. */
function everyVariable(report: Report): (CiVariable & { of: string })[] {
  const out: (CiVariable & { of: string })[] = [];
  for (const run of instancesOf(report)) {
    if (!run.id) continue;
    const values = run.matrix ? Object.values(run.matrix).map(String) : [];
    const prefix = [run.id, ...values];
    const step = `step ${run.id}${values.length ? ` (${values.join(', ')})` : ''}`;
    out.push({ name: name(...prefix, 'OUTCOME'), value: run.outcome, secret: false, of: `${step}'s outcome` });
    for (const [key, value] of Object.entries(run.outputs)) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      const text = String(value);
      out.push({ name: name(...prefix, key), value: text, secret: text.includes(MASK), of: `${step}'s ${key}` });
    }
  }
  return out;
}

/** Names that outputs share: none of them is written (a later job would read one under the other's name). */
function shared(variables: readonly (CiVariable & { of: string })[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const v of variables) by.set(v.name, [...(by.get(v.name) ?? []), v.of]);
  return new Map([...by].filter(([, of]) => of.length > 1));
}

/**
 * The outputs a CI variable carries, each under a name no other output has; and each name outputs
 * share, left out, with why: said as a warning where the variables are written.
 */
export function ciVariablesOf(report: Report): { variables: CiVariable[]; clashes: { name: string; why: string }[] } {
  const every = everyVariable(report);
  const clashing = shared(every);
  return {
    variables: every.filter((v) => !clashing.has(v.name)).map(({ of: _of, ...v }) => v),
    clashes: [...clashing].map(([clash, of]) => ({
      name: clash,
      why: `the name of ${of.join(' and ')}: neither is written; give the steps ids (or the matrix values) that differ in more than punctuation or case`,
    })),
  };
}

/** GitLab refuses a whole dotenv artifact over its variable limit: 20 on a default self-managed instance. */
export const DOTENV_LIMIT = 20;
/** And over its size limit (`dotenv_size`), 5 KiB on every plan: the file's bytes, line breaks included. */
export const DOTENV_SIZE = 5120;

export interface Dotenv {
  text: string;
  /** Variables not written, and why. */
  left: { name: string; why: string }[];
}

/**
 * A dotenv file as GitLab reads it (artifacts:reports:dotenv): `NAME=VALUE` per line, the value
 * taken as it is, with no quote handling; so values are written raw but for each `$`, written `$$`
 * (GitLab expands variables in them where a later job reads them), and one GitLab cannot carry
 * (a line break) is left out, and said only when `only` named it. At most `limit` variables: `only`
 * names the ones later jobs read; without it the first ones are kept, and the rest said. At most
 * DOTENV_SIZE bytes too: a line that would take the file past it is left out and said (a shorter
 * one after it may still fit).
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
  let bytes = 0;
  // A value no one named that a dotenv file cannot carry (an update's Markdown report) is skipped
  // silently: only what was asked for is said.
  const asked = options.only?.length
    ? (why: string, v: CiVariable) => left.push({ name: v.name, why })
    : () => undefined;
  for (const v of chosen) {
    // GitLab expands `$NAME` in a value in the jobs that read it (`$$` is a `$`): a server's text
    // holding `$CI_JOB_TOKEN` would reach them as that token. Each `$` is written as `$$`, and
    // GitLab keeps the value as written: its length is counted so.
    const value = v.value.replace(/\$/g, () => '$$');
    if (/[\r\n]/.test(v.value)) asked('a value with a line break, which a dotenv file cannot carry', v);
    else if (value.length > 1024) asked('a value longer than 1024 characters as written (each $ doubled)', v);
    else if (lines.length >= limit) left.push({ name: v.name, why: `over GitLab's limit of ${limit} variables` });
    else {
      const line = `${v.name}=${value}\n`;
      const size = Buffer.byteLength(line);
      if (bytes + size > DOTENV_SIZE)
        left.push({
          name: v.name,
          why: `over GitLab's limit of 5 KiB (${DOTENV_SIZE.toLocaleString('en-US')} bytes) for a dotenv file`,
        });
      else {
        lines.push(line);
        bytes += size;
      }
    }
  }
  return { text: lines.join(''), left };
}
