// What moved since a saved plan was made (app/saved-plan.ts), the plan made again now beside it:
// the files, vars, selection and servers, known before any request; then, read again with GET
// requests only, an instance added or gone, a gate's verdict, a write's calls or the state it acts
// on. A plan of another pipeline is told as such, not as everything moved.
import { observedChanges } from '../steps/observed.ts';
import { fileChanges } from '../pipeline/file-changes.ts';
import { serverChanges } from './plan-servers.ts';
import type { CurrentPlan, SavedPlan } from './saved-plan.ts';

/**
 * Whether the saved plan is of another pipeline than the one run now: another name, from another
 * file, and none of its instances in the run at the same place. Not stale, with every step listed
 * as gone: wrong. By place and text, not by key: another pipeline may well hold the same step
 * (the same content has the same key), and still be another pipeline.
 */
export function ofAnotherPipeline(saved: SavedPlan, now: CurrentPlan): boolean {
  const fresh = new Set(now.instances.map((i) => i.at));
  return (
    saved.pipeline.name !== now.pipeline.name &&
    saved.pipeline.file !== now.pipeline.file &&
    !saved.instances.some((i) => fresh.has(i.at))
  );
}

/**
 * What moved since the plan was saved: the files, vars or selection; an instance added or gone; a
 * gate's verdict (holds, would wait, fails now); a write's calls or the state it acts on (the
 * Engines' versions, an entity's fields, the licenses). What a read counted (sessions, warnings)
 * may move without making the plan stale.
 */
const STATES: Record<string, string> = {
  holds: 'held',
  'would-wait': 'would have waited',
  'fails-now': 'failed',
  'not-read': 'was not read',
};

/** Each file that changed since the plan, as a resume names them (journal/resume.ts): the pipeline file, then each include by its path. */
function filesChanged(saved: SavedPlan, now: CurrentPlan): string[] {
  const read = (files: readonly { path: string; sha256: string }[]) =>
    files.map((f) => ({ path: f.path, hash: f.sha256 }));
  const out = fileChanges(read(saved.pipeline.files), read(now.pipeline.files), now.pipeline.file);
  return out.length > 0 ? out : [`the pipeline's files changed (${saved.pipeline.file})`];
}

/** Each server the run calls now that is not the one the plan read under its name (app/plan-servers.ts). */
export function planServerChanges(saved: SavedPlan, now: CurrentPlan): string[] {
  return serverChanges(saved.servers, now.servers);
}

/** What moved that is known without reading anything: the files, vars, selection, servers. */
export function identityChanges(saved: SavedPlan, now: CurrentPlan): string[] {
  const out: string[] = [];
  if (saved.pipeline.sha256 !== now.pipeline.sha256) out.push(...filesChanged(saved, now));
  if (saved.varsHash !== now.varsHash) out.push('the --var values differ');
  if (JSON.stringify(saved.selection) !== JSON.stringify(now.selection)) out.push('--only or --skip differ');
  return [...out, ...planServerChanges(saved, now)];
}

export function staleness(saved: SavedPlan, now: CurrentPlan): string[] {
  const out = identityChanges(saved, now);
  const fresh = new Map(now.instances.map((i) => [i.key, i]));
  for (const was of saved.instances) {
    const is = fresh.get(was.key);
    const changes = is && was.observed && is.observed ? observedChanges(was.observed, is.observed) : [];
    if (!is) out.push(`${was.at}: planned, and not in the run now`);
    else if (changes.length > 0 && was.state !== is.state)
      out.push(
        `${was.at}: ${changes.join('; ')}: it ${STATES[was.state] ?? was.state} then, and ${STATES[is.state] ?? is.state} now`,
      );
    else if (changes.length > 0) out.push(...changes.map((c) => `${was.at}: ${c}`));
    else if (was.state !== is.state)
      out.push(`${was.at}: was "${was.state}: ${was.text}", now "${is.state}: ${is.text}"`);
    else if (was.write && JSON.stringify(was.calls) !== JSON.stringify(is.calls))
      out.push(`${was.at}: its calls changed (${is.calls.map((c) => `${c.method} ${c.path}`).join(', ')})`);
    else if (was.write && was.text !== is.text)
      out.push(`${was.at}: what it acts on moved: was "${was.text}", now "${is.text}"`);
  }
  const planned = new Set(saved.instances.map((i) => i.key));
  for (const is of now.instances) if (!planned.has(is.key)) out.push(`${is.at}: in the run now, and not planned`);
  return out;
}
