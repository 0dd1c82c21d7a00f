// `run --resume JOURNAL`: what runs again, matched by identity (step id or content, and matrix
// values), never by position. Writes that succeeded are carried (their figures, update reports
// and outputs come back); read-only steps (the gates) always run again, since hours may have
// passed; failures run again. Refused (exit 2): a journal of another pipeline (even with --force);
// a changed file, include, vars or --only (unless --force: only instances whose inputs are unchanged
// are carried; a parked rollout's continue, never: parked-waves.ts); an in-doubt call the operator
// has not decided about; a step that would read an output the journal cannot give back.
import { canonicalSelection, describeSelection, type Selection } from '../pipeline/selection.ts';
import { compiledReferences } from '../expr/index.ts';
import { UsageError } from '../errors.ts';
import { doubtCall } from '../api/index.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Carried, ResumePlan } from '../runner/resume.ts';
import { instanceSet } from '../runner/instance-set.ts';
import { identityOf, newInstance, type InDoubtCall } from '../runner/instance.ts';
import type { Decision, StepRun } from '../runner/result.ts';
import { isReadOnly, STEP_TYPES } from '../steps/registry.ts';
import { inputsDigest } from './hashing.ts';
import type { JournalState } from './read.ts';
import { doubtOf, standingDecision } from './doubt.ts';
import type { WaysOn } from '../ways-on.ts';
import { selectionOf, type RunRecord } from './records.ts';
import { fileChanges } from '../pipeline/file-changes.ts';
import { checkParkedWaves } from './parked-waves.ts';

import type { InDoubtDecision } from './in-doubt-mode.ts';
export { IN_DOUBT_MODES, parseInDoubt, type InDoubtDecision, type InDoubtMode } from './in-doubt-mode.ts';

export interface ResumeRequest {
  /** Each file the pipeline reads now, hashed with the journal's salt (pipeline first). */
  files: { path: string; hash: string }[];
  varsHash: string;
  selection: Selection;
  force: boolean;
  /** The run goes on from its park (run --continue): what the operator left in doubt to go on without is carried, not asked again, and so is a failure the run went past. */
  goingOn?: boolean;
  /** The operator's decision for every undecided in-doubt call, or per instance (verify). */
  inDoubt: InDoubtDecision | ReadonlyMap<string, Decision> | undefined;
  /** Who decides: recorded with the decision. */
  by: string;
  now: number;
  /** How the operator's surface names the ways on (its flags or inputs). */
  ways: WaysOn;
}

export interface Resume {
  plan: ResumePlan;
  /** Decisions to record as the run starts, with the call each is about. */
  decisions: { key: string; decision: Decision; method: string; path: string }[];
  /** Said before the run: servers that moved, files that changed under --force. */
  warnings: string[];
}

/** The operator's decision this run brings for an instance: its own (verify's, per instance), or the one for every call in doubt. */
function toldFor(request: ResumeRequest, key: string): Decision | undefined {
  const { inDoubt } = request;
  if (typeof inDoubt !== 'string') return inDoubt?.get(key);
  return inDoubt ? { decision: inDoubt, by: request.by, at: request.now } : undefined;
}

function refuse(message: string, hint: string): never {
  throw new UsageError('RESUME_REFUSED', message, { hint });
}

function changes(last: RunRecord, request: ResumeRequest): string[] {
  const files = fileChanges(last.files, request.files, undefined, request.ways.pipelineFile);
  const selected = selectionOf(last);
  const same = (a: Selection, b: Selection) =>
    JSON.stringify(canonicalSelection(a)) === JSON.stringify(canonicalSelection(b));
  return [
    ...files,
    last.varsHash !== request.varsHash ? `the ${request.ways.vars} values changed` : '',
    same(selected, request.selection)
      ? ''
      : `${request.ways.selection} changed (${describeSelection(selected) ?? 'every instance'} then)`,
  ].filter(Boolean);
}

export function resumePlan(pipeline: Pipeline, journal: JournalState, request: ResumeRequest): Resume {
  const last = journal.runs.at(-1)!;
  const salt = journal.runs[0]!.salt;
  const { force } = request.ways;
  const now = instanceSet(pipeline, request.selection).keys;
  // Every instance of the release, from every run's plan (a resume with --only planned fewer): a
  // doubt left by an earlier run is never dropped because a later run did not plan its instance.
  const planned = new Map(journal.runs.flatMap((r) => r.instances).map((p) => [p.key, p]));
  const common = [...planned.values()].filter((p) => now.has(p.key));
  // Another pipeline has none of the journal's instances in its file; another --only or --skip has
  // them, not selected: a change of selection, refused unless --force as any other change.
  const whole = instanceSet(pipeline, { only: {}, skip: {} }).keys;
  if (common.length === 0 && ![...planned.keys()].some((key) => whole.has(key))) {
    refuse(
      `cannot resume: the journal is of another pipeline ("${last.name}", ${last.file}): none of its steps is in this file`,
      `resume with the pipeline that wrote the journal${force ? `; ${force} does not make another pipeline's journal apply` : ''}`,
    );
  }
  if (request.goingOn) checkParkedWaves(pipeline, journal, request.selection, request.ways);
  const warnings: string[] = [];
  const changed = changes(last, request);
  // A single-step action's inputs are its pipeline: no files besides them.
  const same = `${request.ways.pipelineFile ? '' : 'the same files '}with the same ${request.ways.same}`;
  if (changed.length > 0 && !request.force) {
    refuse(
      `cannot resume: ${changed.join(', ')} since the journal's run`,
      force
        ? `resume ${same}; or pass ${force}: only instances whose identity and inputs are unchanged are then carried, and every other one runs`
        : `resume ${same}: a run whose files or inputs changed is not resumed here (a new run, with a journal of its own, sends every step again)`,
    );
  }
  if (changed.length > 0)
    warnings.push(`resuming with --force although ${changed.join(', ')}: instances whose inputs changed run again`);

  const carried = new Map<string, Carried>();
  const retried = new Map<string, Decision>();
  const doubts = new Map<string, InDoubtCall>();
  const decisions: Resume['decisions'] = [];
  /** Outputs that cannot come back, by step id: masked ones, or all of an instance treated as applied without its result. */
  const lost = new Map<string, { names: Set<string> | 'all'; index: number }>();
  const undecided: string[] = [];
  for (const p of common) {
    const state = journal.instances.get(p.key);
    const type = STEP_TYPES.get(p.uses);
    const doubt = doubtOf(state);
    const ended = state?.ended?.run;
    if (doubt) {
      const told = toldFor(request, p.key);
      const decision: Decision | undefined = told ?? standingDecision(state, request.goingOn);
      if (!decision) {
        undecided.push(`"${state?.name ?? p.name}" (${doubtCall(doubt)})`);
        continue;
      }
      if (told) decisions.push({ key: p.key, decision, method: doubt.method, path: doubt.path });
      // The operator's retry replaces an earlier word that it was applied: said, as it sends the write again.
      const earlier = told?.decision === 'retry' ? standingDecision(state, request.goingOn) : undefined;
      if (earlier?.decision === 'skip')
        warnings.push(
          `"${state?.name ?? p.name}" (${doubtCall(doubt)}): ${earlier.verdict === 'applied' ? 'verify read it applied' : earlier.leftInDoubt ? 'left in doubt on the word to go on without it' : 'treated as applied'} (${earlier.by}); ${request.ways.inDoubt('retry')} sends it again`,
        );
      if (decision.decision === 'retry') {
        retried.set(p.key, decision);
        doubts.set(p.key, doubt);
        continue;
      }
      // Treated as applied: shown as the earlier run left it (or as far as the journal knows it), kept in doubt.
      // Not a success: skipped on the operator's word (counted as treated as applied), the doubt kept.
      const run: StepRun = ended
        ? { ...ended, outcome: 'skipped', decision, earlierRunAt: ended.earlierRunAt ?? state!.ended!.runAt }
        : newInstance(
            { ...identityOf(p), name: state?.name ?? p.name },
            {
              outcome: 'skipped',
              startedAt: state?.startedAt,
              attempts: 1,
              figures:
                decision.verdict === 'applied'
                  ? 'verify read it applied: not sent again'
                  : decision.leftInDoubt
                    ? "left in doubt by the operator's decision to go on without it: not sent again"
                    : 'treated as applied by the operator',
              inDoubt: doubt,
              decision,
              earlierRunAt: last.at,
            },
          );
      // The inputs its end holds are the call's only when a run of it ended with them: one carried
      // before without an end of its own (its runner died mid-call) ended with none, and their
      // digest is no sign the inputs changed: read so, the next resume sent the write again.
      // Without an end, the inputs the call was sent with (its send record): the operator's word is
      // about that call, and an instance whose inputs changed since (--force) is another call: it runs.
      const known = ended && (Object.keys(ended.inputs).length > 0 || ended.target !== undefined);
      const inputs = known ? state!.ended!.inputs : state?.call?.inputs;
      carried.set(p.key, { run, outputs: ended?.outputs ?? {}, inputs });
      if (p.id) lost.set(p.id, { names: ended ? new Set(state!.ended!.masked) : 'all', index: now.get(p.key)!.step });
      continue;
    }
    // The gates run again: hours may have passed since they held.
    if (type && isReadOnly(type, pipeline.steps[now.get(p.key)!.step]!.with ?? {})) continue;
    // Going on from its park, the run is the one that went past a failure (continue-on-error, a
    // wave's budget): it stands, never sent again unless the operator's word retries its value
    // (run-instance.ts). A resume after a failed run sends it again: that is what resuming is for.
    if (ended?.outcome === 'success' || (request.goingOn && ended?.outcome === 'failure')) {
      carried.set(p.key, {
        run: { ...ended, earlierRunAt: ended.earlierRunAt ?? state!.ended!.runAt },
        outputs: ended.outputs,
        inputs: state!.ended!.inputs,
        startedIn: state!.startedSeq,
      });
      if (p.id && state!.ended!.masked.length > 0)
        lost.set(p.id, { names: new Set(state!.ended!.masked), index: now.get(p.key)!.step });
    }
  }
  // In doubt and not in this run: another selection leaves it in doubt for a later run; a step
  // renamed, removed or moved (--force) cannot be matched, so it is decided here or the run refuses.
  const unmatched: string[] = [];
  for (const p of planned.values()) {
    if (now.has(p.key)) continue;
    const state = journal.instances.get(p.key);
    const doubt = doubtOf(state);
    if (!doubt || standingDecision(state, request.goingOn)) continue;
    const what = `"${state?.name ?? p.name}" (${doubtCall(doubt)})`;
    if (whole.has(p.key)) {
      warnings.push(
        `${what} stays in doubt: it is not selected in this run; a later run that selects it must decide it`,
      );
      continue;
    }
    const told = toldFor(request, p.key);
    if (told) decisions.push({ key: p.key, decision: told, method: doubt.method, path: doubt.path });
    else unmatched.push(what);
  }
  if (unmatched.length > 0) {
    refuse(
      `cannot resume: ${unmatched.length === 1 ? 'an in-doubt call of the journal is' : `${unmatched.length} in-doubt calls of the journal are`} no longer in the file (a step renamed, removed or moved): ${unmatched.join(', ')}; the request was sent and the server may have applied it`,
      `check on the server, then resume with ${request.ways.inDoubt('skip')} (it was applied) or ${request.ways.inDoubt('retry')} (it was not); either way the file's steps run as they are now${force ? `, and ${force} does not decide a call in doubt` : ''}`,
    );
  }
  if (undecided.length > 0) {
    refuse(
      `cannot resume: ${undecided.length === 1 ? 'an instance is' : `${undecided.length} instances are`} in doubt: ${undecided.join(', ')}; the request was sent and the server may have applied it`,
      `check on the server, then resume with ${request.ways.inDoubt('skip')} (it was applied: do not send it again) or ${request.ways.inDoubt('retry')} (it was not, or it is to be repeated: send it again)`,
    );
  }

  // A step that runs and reads an output that cannot come back: run its producer again when that
  // only reads (it does anyway); otherwise refuse, naming both.
  for (const step of pipeline.steps) {
    const willRun = [...now].some(([key, n]) => n.step === step.index && !carried.has(key));
    if (!willRun) continue;
    for (const ref of compiledReferences([step.with, step.name, step.if])) {
      const [context, id, field, name] = ref.path;
      const gone = context === 'steps' && id !== undefined && field === 'outputs' ? lost.get(id) : undefined;
      if (!gone || (name !== undefined && gone.names !== 'all' && !gone.names.has(name))) continue;
      const producer = pipeline.steps[gone.index]!;
      refuse(
        `cannot resume: step ${step.index + 1} (${JSON.stringify(String(step.name))}) reads ${ref.path.map((p, i) => (i === 0 ? p : /^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('')}, which the journal cannot give back (${gone.names === 'all' ? 'its call was treated as applied without its answer' : 'it is a secret, masked'}), and ${producer.uses} cannot simply be run again`,
        force
          ? `run the pipeline from the start, or resume with ${force} after changing the step that reads it`
          : 'run the pipeline from the start',
      );
    }
  }
  // The analyses that passed in the last run (or, a continue killed, the run that parked), with the wave's failures
  // then: the one after a halted wave did not, and runs again.
  const analysed = new Map(
    ((journal.rollout ?? journal.parked?.rollout)?.waves ?? []).flatMap((w) =>
      w.analysis?.passed ? [[w.wave, { values: w.values, failed: w.failed, analysis: w.analysis }] as const] : [],
    ),
  );
  return { plan: { carried, retried, doubts, digest: inputsDigest(salt), analysed }, decisions, warnings };
}
