// `run --resume JOURNAL`: what runs again. Instances that succeeded are carried (their outputs
// come back); the rest run. Refused (exit 2) when the file, the vars or --only changed (unless
// --force), while an instance is in doubt and the operator has not decided (--in-doubt), or when
// a step that will run reads an output that was masked in the journal and cannot come back.
import { compiledReferences } from '../expr/index.ts';
import { UsageError } from '../errors.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Carried, ResumePlan } from '../runner/resume.ts';
import { isReadOnly, STEP_TYPES } from '../steps/registry.ts';
import { doubtOf, type JournalState } from './journal-read.ts';

export type InDoubtDecision = 'retry' | 'skip';

export interface ResumeRequest {
  /** sha256 of the pipeline file now, and of the --var values now. */
  hash: string;
  varsHash: string;
  only: Readonly<Record<string, string>>;
  force: boolean;
  inDoubt: InDoubtDecision | undefined;
}

function refuse(message: string, hint: string): never {
  throw new UsageError('RESUME_REFUSED', message, { hint });
}

export function resumePlan(pipeline: Pipeline, journal: JournalState, request: ResumeRequest): ResumePlan {
  const last = journal.runs.at(-1)!;
  if (!request.force) {
    const changed = [
      last.hash !== request.hash ? `the pipeline file (${last.hash.slice(7, 19)}… then, ${request.hash.slice(7, 19)}… now)` : '',
      last.varsHash !== request.varsHash ? 'the --var values' : '',
      JSON.stringify(last.only) !== JSON.stringify(request.only) ? `--only (${JSON.stringify(last.only)} then)` : '',
    ].filter(Boolean);
    if (changed.length > 0) refuse(`cannot resume: ${changed.join(', ')} changed since the journal's run`, 'resume the same pipeline with the same --var and --only, or pass --force to resume by step position anyway');
  }

  const carried = new Map<string, Carried>();
  /** Outputs that cannot come back, by step id: masked ones, or all of an instance skipped in doubt. */
  const lost = new Map<string, { names: Set<string> | 'all'; index: number }>();
  const doubts: string[] = [];
  for (const p of last.instances) {
    const state = journal.instances.get(p.key);
    const doubt = doubtOf(state);
    if (doubt) {
      if (request.inDoubt === undefined) doubts.push(`"${state?.ended?.run.name ?? p.name}" (${doubt.method} ${doubt.path})`);
      if (request.inDoubt === 'skip') {
        carried.set(p.key, { outputs: state?.ended?.run.outputs ?? {} });
        if (p.id) lost.set(p.id, { names: state?.ended ? new Set(state.ended.masked) : 'all', index: p.step });
      }
      continue;
    }
    if (state?.ended?.run.outcome === 'success') {
      carried.set(p.key, { outputs: state.ended.run.outputs });
      if (p.id && state.ended.masked.length > 0) lost.set(p.id, { names: new Set(state.ended.masked), index: p.step });
    }
  }
  if (doubts.length > 0) {
    refuse(
      `cannot resume: ${doubts.length === 1 ? 'an instance is' : `${doubts.length} instances are`} in doubt: ${doubts.join(', ')}; the request was sent and the server may have applied it`,
      'check on the server, then resume with --in-doubt skip (it was applied: do not send it again) or --in-doubt retry (it was not: send it again)',
    );
  }

  // A step that runs and reads an output that cannot come back: run its producer again when that
  // only reads; otherwise refuse, naming both.
  for (const step of pipeline.steps) {
    const willRun = last.instances.some((p) => p.step === step.index && !carried.has(p.key));
    if (!willRun) continue;
    for (const ref of compiledReferences([step.with, step.name, step.if])) {
      const [context, id, field, name] = ref.path;
      const gone = context === 'steps' && id !== undefined && field === 'outputs' ? lost.get(id) : undefined;
      if (!gone || (name !== undefined && gone.names !== 'all' && !gone.names.has(name))) continue;
      const producer = pipeline.steps[gone.index]!;
      const type = STEP_TYPES.get(producer.uses);
      if (type && isReadOnly(type, producer.with ?? {})) {
        for (const p of last.instances) if (p.step === producer.index) carried.delete(p.key);
        continue;
      }
      refuse(
        `cannot resume: step ${step.index + 1} reads steps.${id}.outputs${name ? `.${name}` : ''}, which the journal cannot give back (${gone.names === 'all' ? 'the step was skipped in doubt' : 'it is a secret, masked'}), and ${producer.uses} cannot simply be run again`,
        'run the pipeline from the start, or resume with --force after changing the step that reads it',
      );
    }
  }
  return { carried };
}
