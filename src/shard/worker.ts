// Longer than 250 lines: one worker's walk through the waves (claim, resume, barrier, election) is one protocol, read whole.
// One worker of a sharded run (run --shard I/N): wave by wave, it starts the sites it may (static:
// those whose hash is its index; queue: the next site of the wave no one claimed), each a start
// appended to the wave's log only while the wave's failures are within its budget; it resumes the
// sites an earlier attempt of its index left, and takes over those of a worker whose lease lapsed
// (the lease taken from it first, so that worker sends nothing more; its site's journal resumed,
// verify deciding its calls in doubt). Then it waits at the wave's barrier for every site's
// terminal record and the verdict one elected worker writes; its waits in all past its limit park it. The
// sites' runs, the analysis, the leases and the clock are the caller's.
import { shardOf, type Manifest } from './manifest.ts';
import { WaveLog, type WaveEntry, type WaveState } from './wave-log.ts';
import { writeTerminal } from './terminal.ts';
import {
  analysts,
  overBudget,
  readVerdict,
  standFor,
  writeVerdict,
  type Analysis,
  type Analyst,
  type Verdict,
} from './verdict.ts';
import type { RunStore } from '../store/store.ts';
import { windowTime } from '../schedule/window-time.ts';
import type { LeaseLoss } from '../store/lease.ts';
import { BarrierPoll } from './barrier-poll.ts';
import { barrierReason, barrierWaited, windowPark, type WindowWait } from './barrier-reason.ts';
import type { WaitBudget } from './wait-budget.ts';
import { ABORTED, abortHalt, abortedBy, abortOf, haltOf, type Abort } from './abort.ts';

export interface SiteEnd {
  /** `parked`: a write its window does not admit parked the site's run (not ended, not failed), until `window.until`. */
  outcome: 'success' | 'failure' | 'cancelled' | 'parked';
  /** Parked for its window: the next opening it fits in, and since when it waits (its run's first park), on the run's clock. */
  window?: { until: number; since: number } | undefined;
  /** The run lost the worker's lease (another worker took its sites over, or an operator released it): nothing more is recorded for it. */
  lost?: boolean;
  /** How it lost it, when its lease said. */
  loss?: LeaseLoss | undefined;
  detail?: string | undefined;
}

export interface WorkerDeps {
  store: RunStore;
  manifest: Manifest;
  /** This worker's index, 0-based. */
  index: number;
  /** This attempt's identity (the holder of the worker's lease). */
  holder: string;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** The real clock's later of `now` and the wall clock, which a site's window is waited for on (schedule/window-time.ts); absent, `now`. */
  latest?: (() => number) | undefined;
  signal: AbortSignal;
  /** The longest a worker waiting at a barrier sleeps between reads of the store (it starts shorter: barrier-poll.ts). */
  pollMs: number;
  /** What it may wait in all (--shard-wait), at barriers, on bakes and for windows (and isGone's confirmations), before it parks: the worker process's one budget. */
  waitBudget: WaitBudget;
  /**
   * Runs a site's steps: a new run of the store with that id, or the resume of it; `halting`: its
   * wave's failures passed its budget, so a run its window parked is not gone on with (it stays parked).
   */
  runSite(site: string, wave: number, siteRun: { id: string; resume: boolean; halting?: boolean }): Promise<SiteEnd>;
  /**
   * The analysis after a wave (its bake since `since`, then its gates) for the sites that passed;
   * `parked` when the bake outlasts what is left of its wait (a later job goes on); `cancelled` when the
   * worker was interrupted before a verdict.
   */
  analyse(
    wave: number,
    passed: string[],
    since: number,
    clock: Analyst['clock'],
  ): Promise<
    (Analysis & { steps?: string }) | { parked: string; since?: number; until?: number } | { cancelled: true }
  >;
  /** A server of the wave's clock against this worker's, as the first analyst keeps it with the bake's start (app/shard-bake-clock.ts). */
  serverClock?(sites: readonly string[]): Promise<Analyst['clock']>;
  /** Whether worker W's attempt `holder` is gone (its lease lapsed or was given up): true takes its lease, fencing it. */
  isGone(worker: number, holder: string): Promise<boolean>;
  newRunId(): string;
  say(line: string): void;
}

export type WorkerEnd =
  | { outcome: 'done' }
  /** `aborted`: the operator's abort that halted it (`reason` is its words), null for a wave's failures or analysis. */
  | { outcome: 'halted'; wave: number; reason: string; aborted: Abort | null }
  /** `until`: parked on the wave's bake, which ends then. */
  /** `open`: at the barrier, every site of the wave not ended (its reason names five). */
  /** `windows`: its sites whose run parked for their window (none opening within its wait), each with that opening. */
  | {
      outcome: 'parked';
      wave: number;
      waitingFor: string;
      since: number;
      until?: number;
      open?: readonly string[];
      windows?: readonly WindowWait[];
    }
  | { outcome: 'cancelled' }
  /** `loss`: how its lease was lost, when it said. */
  | { outcome: 'lost'; site: string; loss?: LeaseLoss | undefined };

export interface WorkerResult {
  end: WorkerEnd;
  /** The sites this worker ran (or resumed), with their outcome, in order. */
  ran: { site: string; wave: number; siteRun: string; outcome: SiteEnd['outcome'] }[];
  /** Whether it sent anything: a site started or resumed. */
  started: boolean;
}

type Owner = Extract<WaveEntry, { kind: 'start' | 'takeover' }>;

/** A site's run ended: what its entry in the wave's log and its terminal record say. */
interface Done {
  site: string;
  siteRun: string;
  outcome: 'success' | 'failure';
  at: number;
  detail?: string | undefined;
}

export async function runWorker(deps: WorkerDeps): Promise<WorkerResult> {
  const { manifest, index } = deps;
  const ran: WorkerResult['ran'] = [];
  const mine = (site: string) => manifest.assign === 'queue' || shardOf(site, manifest.shards) === index;
  let started = false;
  for (let wave = 1; wave <= manifest.waves.length; wave++) {
    const end = await walkWave(deps, wave, mine, (r) => {
      ran.push(r);
      started = true;
    });
    if (end) return { end, ran, started };
  }
  return { end: { outcome: 'done' }, ran, started };
}

/** One wave: its sites started, resumed or taken over, then its barrier; undefined once its verdict let the next start. */
async function walkWave(
  deps: WorkerDeps,
  wave: number,
  mine: (site: string) => boolean,
  record: (r: WorkerResult['ran'][number]) => void,
): Promise<WorkerEnd | undefined> {
  const { manifest, store, index } = deps;
  const sites = manifest.waves[wave - 1]!;
  const budget = manifest.budgets[wave - 1]!;
  const log = new WaveLog(store, manifest.run, wave);
  const running = new Set<string>();
  let lost: { site: string; loss?: LeaseLoss | undefined } | undefined;
  // The sites whose run parked for a window not opening within the wait: held (not ended), for this worker's park.
  const parkedSites = new Map<string, WindowWait>();
  let waitingSince: number | undefined;
  /** What the worker had waited in all when it began to wait here: the rest is this barrier's (its park says both). */
  let spentBefore: number | undefined;
  const poll = new BarrierPoll(deps.pollMs);
  // The sites' terminal records being written: only the reports read them (the wave's log says a
  // site ended), so a lane goes on to its next site meanwhile; all written before the barrier.
  const terminals: Promise<boolean>[] = [];

  /** Writes a site's terminal record, not waited for: only the reports read it (the wave's log says the site ended). */
  const writeTerminalOf = (done: Done): void => {
    const written = writeTerminal(store, manifest.run, {
      site: done.site,
      wave,
      outcome: done.outcome,
      worker: index,
      siteRun: done.siteRun,
      at: done.at,
      ...(done.detail ? { detail: done.detail } : {}),
    });
    // Thrown where the terminals are awaited (after the lanes), not as an unhandled rejection now.
    written.catch(() => undefined);
    terminals.push(written);
  };

  /** A site's end on its own entry of the wave's log, then its terminal record. */
  const recordEnd = async (done: Done): Promise<void> => {
    await log.append(
      { kind: 'ended', site: done.site, worker: index, outcome: done.outcome, at: done.at },
      (s) => !s.ended.has(done.site),
    );
    writeTerminalOf(done);
  };

  /**
   * Runs a site it owns now. A failure is recorded at once (it counts against the budget before
   * this lane starts anything else); a success is returned, for the lane's next start to record.
   */
  const run = async (owner: Owner): Promise<Done | undefined> => {
    running.add(owner.site);
    try {
      // Taken over in a wave past its budget: a run its window parked sends nothing more (the rollout halts there).
      const halting = owner.kind === 'takeover' && (await log.read()).failed.size > budget;
      let end = await deps.runSite(owner.site, wave, {
        id: owner.siteRun,
        resume: owner.kind === 'takeover',
        ...(halting ? { halting } : {}),
      });
      // Its run parked for its window: waited for on this worker's clock when it opens within the
      // wait, then the site's run goes on (the window judged again); else held, for the worker's park.
      // The time to the opening is read as the site's run judges its window (schedule/window-time.ts).
      for (let before = -Infinity; end.outcome === 'parked' && end.window && end.window.until > before;) {
        const { until } = end.window;
        if (deps.signal.aborted || until - windowTime(deps) > deps.waitBudget.left()) break;
        // Its wave's failures passed its budget meanwhile, or the operator aborted the rollout: its write is not sent.
        const stops = (s: WaveState) => s.failed.size > budget || s.aborted !== undefined;
        if (stops(await log.read())) break;
        deps.say(
          `${manifest.over} ${owner.site}: its write waits for its window (opens at ${iso(until)}): this worker waits for it`,
        );
        try {
          await deps.waitBudget.waiting(() => deps.sleep(Math.max(0, until - windowTime(deps)), deps.signal));
        } catch {
          break;
        }
        if (stops(await log.read())) break;
        before = until;
        end = await deps.runSite(owner.site, wave, { id: owner.siteRun, resume: true });
      }
      record({ site: owner.site, wave, siteRun: owner.siteRun, outcome: end.outcome });
      if (end.lost) lost ??= { site: owner.site, loss: end.loss };
      if (end.outcome === 'parked' && end.window) parkedSites.set(owner.site, { site: owner.site, ...end.window });
      if (end.lost || end.outcome === 'cancelled' || end.outcome === 'parked') return undefined;
      const done: Done = {
        site: owner.site,
        siteRun: owner.siteRun,
        outcome: end.outcome,
        at: deps.now(),
        detail: end.detail,
      };
      if (done.outcome === 'success') return done;
      await recordEnd(done);
      return undefined;
    } finally {
      running.delete(owner.site);
    }
  };

  /**
   * Takes over a site whose owner is gone (an earlier attempt of this index, or a worker whose
   * lease lapsed); `before` runs before its takeover is appended (the lane's success not yet recorded).
   */
  const takeOver = async (state: WaveState, before: () => Promise<void>): Promise<Owner | undefined> => {
    // Aborted by the operator: a site left is left as it stands (its calls for verify --store), not resumed.
    if (state.aborted) return undefined;
    // The sites started and not ended (a few per worker), not every site of the wave at every claim.
    for (const site of [...state.unended]) {
      const owner = state.owners.get(site);
      if (!owner || owner.holder === deps.holder || state.ended.has(site)) continue;
      // Static: a site stays with its shard (a retried shard resumes it); queue: anyone takes a gone worker's site.
      if (manifest.assign === 'static' && owner.worker !== index) continue;
      const gone = owner.worker === index || (await deps.isGone(owner.worker, owner.holder));
      if (!gone) continue;
      await before();
      const entry: Owner = {
        kind: 'takeover',
        site,
        worker: index,
        holder: deps.holder,
        siteRun: owner.siteRun,
        from: owner.worker,
        at: deps.now(),
      };
      // Judged again on the log as it stands: an abort recorded since (while the lease was read) stops it.
      const same = (s: WaveState) => {
        const now = s.owners.get(site);
        return !s.aborted && now?.holder === owner.holder && now.siteRun === owner.siteRun;
      };
      if (await log.append(entry, same)) {
        deps.say(
          `${manifest.over} ${site}: taken over from shard ${owner.worker + 1} (${owner.holder === deps.holder ? 'this attempt' : 'gone'}); its run ${owner.siteRun} is resumed, verify deciding its calls in doubt`,
        );
        return entry;
      }
    }
    return undefined;
  };

  // The first site of the wave that may still be unowned: a site once owned stays owned, so each claim
  // goes on from where the last one stopped, not from the wave's first site (a claim would cost the wave's size).
  // In queue mode the worker of index k (from 0) of N starts k/N of the way into the wave and goes
  // round: workers claiming at once seldom want the same site, so one that lost the race for the
  // log's next key still wants its site, and tries the key after with the entry it has written
  // (wave-log.ts), not a new one.
  const from = manifest.assign === 'queue' ? Math.floor((index * sites.length) / manifest.shards) : 0;
  const siteAt = (k: number) => sites[(from + k) % sites.length]!;
  let cursor = 0;
  const nextUnowned = (state: WaveState): string | undefined => {
    while (cursor < sites.length && (!mine(siteAt(cursor)) || state.owners.has(siteAt(cursor)))) cursor++;
    return cursor < sites.length ? siteAt(cursor) : undefined;
  };

  /**
   * Claims the next site this worker may start, within the budget; its entry records the lane's
   * previous site's success (`done`) too, one entry for both, unless that site's end is in the log already.
   */
  const claim = async (done: Done | undefined, read: WaveState): Promise<Owner | undefined> => {
    // The log as the lane has just read it, then as read again after each race lost.
    for (let first = true; ; first = false) {
      const state = first ? read : await log.read();
      if (state.failed.size > budget || state.aborted) return undefined;
      const site = nextUnowned(state);
      if (site === undefined) return undefined;
      // Ended already: this worker's lease was taken, and whoever took the site over ended it.
      const along = done && !state.ended.has(done.site) ? done : undefined;
      const entry: Owner = {
        kind: 'start',
        site,
        worker: index,
        holder: deps.holder,
        siteRun: deps.newRunId(),
        at: deps.now(),
        ...(along ? { ended: { site: along.site, outcome: 'success' as const, at: along.at } } : {}),
      };
      const still = (s: WaveState) =>
        !s.owners.has(site) && s.failed.size <= budget && !s.aborted && !(along && s.ended.has(along.site));
      if (await log.append(entry, still, true)) return entry;
    }
  };

  /**
   * A lane's fault (the store failing as it claims or records an end): no lane starts anything
   * more, and the worker stops with it only once every other lane's site ended. Its lease is given
   * up when it stops: given up under a call in flight, another worker would take that site over,
   * verify the call "not applied" before it arrived, and send it a second time.
   */
  let fault: { error: unknown } | undefined;

  /** One of the worker's lanes (rollout max-parallel of them): claims and runs until nothing is left to start. */
  const lane = async () => {
    let done: Done | undefined;
    // The last success, on an entry of its own when no start of this lane records it.
    const flush = async () => {
      if (done) await recordEnd(done);
      done = undefined;
    };
    try {
      while (!deps.signal.aborted && lost === undefined && fault === undefined) {
        const state = await log.read();
        const next = (await takeOver(state, flush)) ?? (await claim(done, state));
        if (!next) break;
        if (done) writeTerminalOf(done);
        done = await run(next);
      }
      await flush();
    } catch (error) {
      if (fault) return;
      fault = { error };
      if (running.size > 0)
        deps.say(
          `shard ${index + 1}: ${(error as Error).message}: it stops once the ${manifest.over}(s) it has in flight end (${[...running].join(', ')}), starting nothing more`,
        );
    }
  };

  // This barrier's wait, spent from the worker's budget while on: from when it first waits here
  // (waitingSince), but not in its lanes (a site taken over is run: work; a window waited for is
  // spent by itself) nor in the election (a bake is spent by itself; the gates' rounds are work).
  let atBarrier: (() => void) | undefined;
  const waitOff = () => {
    atBarrier?.();
    atBarrier = undefined;
  };
  const waitOn = () => {
    if (waitingSince !== undefined) atBarrier ??= deps.waitBudget.begin();
  };
  try {
    for (;;) {
      if (deps.signal.aborted) return { outcome: 'cancelled' };
      const verdict = await readVerdict(store, manifest.run, wave);
      if (verdict) return haltEnd(verdict);
      waitOff();
      await Promise.all(Array.from({ length: Math.max(1, manifest.parallel) }, lane));
      waitOn();
      if (fault) {
        await Promise.allSettled(terminals.splice(0));
        throw fault.error;
      }
      await Promise.all(terminals.splice(0));
      if (lost !== undefined) return { outcome: 'lost', ...lost };
      if (deps.signal.aborted) return { outcome: 'cancelled' };
      // The barrier: every site ended, or never to start (the budget spent) with every started one ended.
      const state = await log.read();
      // Aborted by the operator: this worker starts nothing more and ends, the others' sites ending as
      // they stand; with none of the wave running, its verdict (halted) is written now.
      if (state.aborted) {
        const running = sites.filter((s) => state.owners.has(s) && !state.ended.has(s) && !parkedSites.has(s));
        if (running.length === 0) await elect(deps, wave, sites, budget, state);
        return { outcome: 'halted', ...abortHalt(wave, state.aborted) };
      }
      const spent = state.failed.size > budget;
      // Its sites parked for their window: past the budget they never go on (the rollout halts
      // there), so they hold the wave's verdict no more than a site never started does.
      const open = sites.filter(
        (s) => !state.ended.has(s) && (state.owners.has(s) || !spent) && !(spent && parkedSites.has(s)),
      );
      // Within it, no other worker goes on with them while it lives, so it parks now, naming each
      // and its window (none opening within its wait); the same command goes on.
      if (parkedSites.size > 0 && !spent) return windowed(wave, manifest.over, [...parkedSites.values()]);
      const halt = (): WorkerEnd => {
        const failed = sites.filter((s) => state.failed.has(s));
        const reason = `${overBudget(manifest.over, failed, budget)} (its verdict is written once the wave's sites ended)`;
        return { outcome: 'halted', wave, reason, aborted: null };
      };
      if (open.length === 0) {
        waitOff();
        const decided = await elect(deps, wave, sites, budget, state);
        waitOn();
        if (decided && 'cancelled' in decided) return { outcome: 'cancelled' };
        if (decided && 'parked' in decided)
          return {
            outcome: 'parked',
            wave,
            waitingFor: decided.parked,
            // A bake's park is the bake's: since it began, until it ends (one process says so too).
            since: decided.since ?? waitingSince ?? deps.now(),
            ...(decided.until !== undefined ? { until: decided.until } : {}),
          };
        if (decided) return haltEnd(decided);
      }
      waitingSince ??= deps.now();
      spentBefore ??= deps.waitBudget.spent();
      waitOn();
      // Past its wait (this worker's waits in all, this one with them): parked, but with the wave's budget spent the
      // rollout halts here whatever is left to end, so this worker's job fails (exit 1); the verdict goes with the wave's last end.
      if (deps.waitBudget.over()) {
        if (spent) return halt();
        return {
          outcome: 'parked',
          wave,
          since: waitingSince,
          waitingFor: barrierReason(wave, manifest.over, open, waited(deps, spentBefore)),
          open,
        };
      }
      try {
        await deps.sleep(poll.next(state.seq), deps.signal);
      } catch {
        return { outcome: 'cancelled' };
      }
    }
  } finally {
    waitOff();
  }
}

/** A wave's verdict read: the worker's end when it halted the rollout, undefined to go on to the next wave. */
function haltEnd(verdict: Verdict): WorkerEnd | undefined {
  const halt = haltOf(verdict);
  return halt && { outcome: 'halted', ...halt };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A barrier's wait in words: the worker's waits since it began to wait there, in all, and its bound. */
function waited(deps: WorkerDeps, spentBefore: number): string {
  const all = deps.waitBudget.spent();
  return barrierWaited(all - spentBefore, all, deps.waitBudget.limitMs);
}

/** A worker parked for its sites' windows: what it waits for (the earliest opening first), since the first park, until the first opening. */
function windowed(wave: number, over: string, waits: WindowWait[]): WorkerEnd {
  const park = windowPark(wave, over, waits);
  return { outcome: 'parked', wave, waitingFor: park.reason, since: park.since, until: park.until, windows: waits };
}

/**
 * At a barrier: stands for analyst (first, or after one whose lease lapsed or was given up); the
 * analyst writes the verdict. Returns the verdict once there is one, undefined to wait, parked when
 * the bake outlasts the wait, cancelled when interrupted before its verdict (none written).
 */
async function elect(
  deps: WorkerDeps,
  wave: number,
  sites: readonly string[],
  budget: number,
  state: WaveState,
): Promise<Verdict | { parked: string; since?: number; until?: number } | { cancelled: true } | undefined> {
  const { store, manifest, index } = deps;
  const existing = await readVerdict(store, manifest.run, wave);
  if (existing) return existing;
  const list = await analysts(store, manifest.run, wave);
  const last = list.at(-1);
  // The first analyst's record starts the bake: with a server's clock as it read it then.
  const clock =
    list.length === 0 && manifest.analysis && wave < manifest.waves.length
      ? await deps.serverClock?.(sites)
      : undefined;
  const me = { worker: index, holder: deps.holder, at: deps.now(), ...(clock ? { clock } : {}) };
  const mineNow = last?.holder === deps.holder && !last.gaveUp;
  if (!mineNow) {
    // An analyst that gave its place up (interrupted, parked) is gone; one that stopped without a word, once its lease lapsed.
    if (last && !last.gaveUp && last.worker !== index && !(await deps.isGone(last.worker, last.holder)))
      return undefined;
    if (!(await standFor(store, manifest.run, wave, list.length + 1, me))) return undefined;
    // A verdict written (and the analyst gone) since it was read: not analysed again.
    const written = await readVerdict(store, manifest.run, wave);
    if (written) return written;
  }
  const [since, sinceClock] = list[0] ? [list[0].at, list[0].clock] : [me.at, me.clock];
  const failed = sites.filter((s) => state.failed.has(s));
  let verdict: Verdict;
  if (state.aborted)
    verdict = {
      wave,
      passed: false,
      // Its words for an earlier enginectl's readers (this one reads `aborted`).
      halted: abortedBy(state.aborted),
      aborted: abortOf(state.aborted),
      failed,
      text: ABORTED,
      worker: index,
      at: deps.now(),
    };
  else if (failed.length > budget)
    verdict = {
      wave,
      passed: false,
      halted: overBudget(manifest.over, failed, budget),
      failed,
      text: 'over budget',
      worker: index,
      at: deps.now(),
    };
  else if (manifest.analysis && wave < manifest.waves.length) {
    const passed = sites.filter((s) => !state.failed.has(s));
    // Its place given up at the key after its own (not when another stood there since: then it has
    // no place to give), for a worker waiting at the barrier (or a later job) to stand at its next read.
    // A bake that parks it is said in the record, for the merged report to tell what the rollout waits for.
    const giveUp = (bake?: { reason: string; until: number }) =>
      standFor(store, manifest.run, wave, (mineNow ? list.length : list.length + 1) + 1, {
        ...me,
        at: deps.now(),
        gaveUp: true,
        ...(bake ? { bake } : {}),
      }).catch(() => false);
    let analysed: Awaited<ReturnType<WorkerDeps['analyse']>>;
    try {
      analysed =
        passed.length === 0
          ? {
              passed: false,
              rounds: 0,
              failedRounds: 0,
              text: `no ${manifest.over} of the wave succeeded (${failed.join(', ')} failed): nothing to analyse`,
            }
          : await deps.analyse(wave, passed, since, sinceClock);
    } catch (error) {
      await giveUp();
      throw error;
    }
    if (!('passed' in analysed)) {
      await giveUp(
        'parked' in analysed && analysed.until !== undefined
          ? { reason: analysed.parked, until: analysed.until }
          : undefined,
      );
      return analysed;
    }
    verdict = {
      wave,
      passed: analysed.passed,
      ...(analysed.passed ? {} : { halted: `the analysis after it failed: ${analysed.text}` }),
      failed,
      text: analysed.text,
      analysis: {
        passed: analysed.passed,
        rounds: analysed.rounds,
        failedRounds: analysed.failedRounds,
        text: analysed.text,
      },
      ...(analysed.steps ? { steps: analysed.steps } : {}),
      worker: index,
      at: deps.now(),
    };
  } else verdict = { wave, passed: true, failed, text: 'no analysis', worker: index, at: deps.now() };
  // The stored verdict is the wave's: another worker may have stood and written it while this one
  // was paused past its lease (its own analysis, read-only, then counts for nothing).
  const written = await writeVerdict(store, manifest.run, verdict);
  const stored = (await readVerdict(store, manifest.run, wave)) ?? verdict;
  deps.say(
    `wave ${wave}: ${stored.halted ? `halted: ${stored.halted}` : `passed (${stored.text})`}${written ? '' : ` (the verdict of shard ${stored.worker + 1}, written while this worker was away: its own analysis counts for nothing)`}`,
  );
  return stored;
}
