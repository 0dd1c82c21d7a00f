// A parked rollout goes on (run --continue) with the selection and the waves it parked with: its
// park, its bakes, its analyses and the operator's decisions name its waves by number and its
// values by name. A continue that selects other values (--only, --skip), or whose file now forms
// other waves (waves:, the inventory, --force), would number its waves from what it has ("wave 1"
// another set of sites) and go around the park: it is refused before anything is sent.
import { UsageError } from '../errors.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { canonicalSelection, describeSelection, inRollout, type Selection } from '../pipeline/selection.ts';
import { instanceSet } from '../runner/instance-set.ts';
import { wavesOf } from '../runner/waves.ts';
import type { WaysOn } from '../ways-on.ts';
import type { JournalState } from './read.ts';
import { selectionOf } from './records.ts';

function refuse(message: string, hint: string): never {
  throw new UsageError('RESUME_REFUSED', message, { hint });
}

/** Refuses a continue of a rollout parked at a wave whose selection, or whose waves as the file forms them now, are not the park's. */
export function checkParkedWaves(pipeline: Pipeline, journal: JournalState, selection: Selection, ways: WaysOn): void {
  const parked = journal.parked;
  if (!parked || parked.park.wave < 1) return;
  const then = selectionOf(journal.runs.at(-1)!);
  const key = (s: Selection) => JSON.stringify(canonicalSelection(s));
  const where = `parked at wave ${parked.park.wave} (waiting for ${parked.park.reason})`;
  if (key(then) !== key(selection))
    refuse(
      `cannot go on: the run is ${where}, and a parked rollout goes on with the selection it parked with (${describeSelection(then) ?? 'every instance'}), not ${describeSelection(selection) ?? 'every instance'}: another selection would number its waves from its own values and go around the park`,
      `go on with the run's own ${ways.selection} (${describeSelection(then) ?? 'none'}); to go on without a value of the wave it waits on, decide --exclude VALUE. Nothing was sent`,
    );
  const recorded = parked.rollout?.waves.map((w) => w.values);
  if (!recorded) return;
  const rollout = pipeline.rollout;
  const set = instanceSet(pipeline, selection);
  const values = rollout
    ? [
        ...new Set(
          pipeline.steps
            .filter((s) => inRollout(rollout, s))
            .flatMap((s) => set.steps[s.index]!.map((i) => String(i.combination[rollout.over]))),
        ),
      ]
    : [];
  const now = rollout ? wavesOf(rollout, values) : [];
  const same = (a?: readonly string[], b?: readonly string[]) =>
    JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());
  const differs = Array.from({ length: Math.max(now.length, recorded.length) }, (_, i) => i).find(
    (i) => !same(now[i], recorded[i]),
  );
  if (differs === undefined) return;
  const list = (w?: readonly string[]) => (w?.length ? w.join(', ') : 'none');
  refuse(
    `cannot go on: the run is ${where}, and a parked rollout goes on with the waves it parked with: wave ${differs + 1} was ${list(recorded[differs])}, the file now makes it ${list(now[differs])}`,
    `go on with the rollout as it parked (undo the change to waves: or to its values); to roll out other waves, decide --abort and start a new run. Nothing was sent`,
  );
}
