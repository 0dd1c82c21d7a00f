// The parks of a journal's release as its records tell them, in order: one reader for the park a
// run goes on from (run --continue, decide, runs --parked) and for every park (a wave's earlier
// words). Each park keeps the decisions recorded while it stood, each with its record's place in the
// journal (never a clock), each run that went on from it, and the rollout of the run that parked
// there. A run that went on and parked again on the same wait on time alone (a bake, a window not
// over) keeps the timed word it did not act on.
import type { RolloutResult } from '../runner/result.ts';
import type { OperatorDecision, Park } from '../runner/rollout-result.ts';

/** A run that went on from a park: when it started, and how many of the park's decisions came before it. */
export interface WentOn {
  at: number;
  decided: number;
}

export interface ParkedState {
  park: Park;
  at: number;
  decided: OperatorDecision[];
  /** Each decision's record's place in the journal: the journal's order, never a clock. */
  seqOf: Map<OperatorDecision, number>;
  /** The rollout as the run that parked here ended it. */
  rollout?: RolloutResult | undefined;
  wentOn?: WentOn[] | undefined;
}

/**
 * Whether two parks wait for the same thing, whenever it comes: a bake by its reason ("the 12h bake
 * after wave 1"); a window by the write it holds back (runner/window-park.ts), a later night for the
 * same write the same wait. A park a release's earlier version wrote names its write only in its
 * reason (`the next window "NAME" fits in, at ISO`): read without its time.
 */
const sameWaited = (a: Park, b: Park) =>
  a.for !== 'window'
    ? a.reason === b.reason
    : a.write !== undefined && b.write !== undefined
      ? a.write === b.write
      : withoutWhen(a.reason) === withoutWhen(b.reason);
const withoutWhen = (reason: string) => reason.replace(/, at \S+$/, '');

/**
 * A park that waits on the same time as the one the run went on from: the same wave, for the same
 * bake, or the same write's window, and no value waited on now (a value's new failure or doubt, a
 * retry refused again, is new evidence: a word said before it is not carried to it; a value decided
 * at the first park is not waited on again).
 */
const sameTimeWait = (from: Park, now: Park) =>
  from.for === now.for &&
  from.wave === now.wave &&
  sameWaited(from, now) &&
  (now.for === 'bake' || now.for === 'window') &&
  now.waits.every((w) => w.value === null);

/**
 * The decision of a park the run that went on from it (`run`) did not act on: the last word when it
 * started, with a timeout not yet due. (No decision is recorded while a run of it is under way: decide waits for its lease.)
 */
const notActedOn = (from: ParkedState, run: WentOn): OperatorDecision[] =>
  from.decided.filter((d, i) => d.after !== undefined && d.after > run.at && i === run.decided - 1);

/** Reads a release's records in order (journal/read.ts feeds it); `parks` and `parked` after the last. */
export class ParkReader {
  readonly parks: ParkedState[] = [];
  /** The last park while it stands: the run that parked there, or one that went on from it, has not ended otherwise. */
  private standing: ParkedState | undefined;
  /** The current run parked (its rollout is the park's). */
  private parkedNow = false;
  /** The current run's rollout, as its record says: before its park, or after (a window's park of a step after the rollout). */
  private rolledOut: RolloutResult | undefined;

  run(at: number): void {
    const last = this.parks.at(-1);
    if (last) (last.wentOn ??= []).push({ at, decided: last.decided.length });
    this.parkedNow = false;
    this.rolledOut = undefined;
  }

  park(park: Park, at: number): void {
    const from = this.standing;
    const run = from?.wentOn?.at(-1);
    const carried = from && run && sameTimeWait(from.park, park) ? notActedOn(from, run) : [];
    const seqOf = new Map(carried.map((d) => [d, from!.seqOf.get(d)!]));
    this.parks.push({ park, at, decided: carried, seqOf, ...(this.rolledOut ? { rollout: this.rolledOut } : {}) });
    this.standing = this.parks.at(-1);
    this.parkedNow = true;
  }

  decide(decision: OperatorDecision, seq: number): void {
    const last = this.parks.at(-1);
    if (!last) return;
    last.decided.push(decision);
    last.seqOf.set(decision, seq);
  }

  rollout(result: RolloutResult): void {
    this.rolledOut = result;
    if (this.parkedNow) this.parks.at(-1)!.rollout = result;
  }

  /** The run ended: parked where it parked, or (it did not park) parked nowhere. */
  finish(): void {
    if (!this.parkedNow) this.standing = undefined;
  }

  /** Where the release is parked: the last park, unless a run went on from it and ended (a killed continue is still parked there). */
  get parked(): ParkedState | undefined {
    return this.standing;
  }
}
