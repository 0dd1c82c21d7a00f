// The analysis after a wave of a sharded run, by the worker elected to run it: the bake left (a
// wait past what the worker has left to wait in all parks it, and a later job goes on), then the rollout's gates, round
// by round, over the sites of the wave that passed; the verdict is the caller's to write. The
// rounds' instances, as the report shows them, are kept in the store (`waves/K/rounds/HOLDER`,
// named by the verdict) for the merged report, which lists them as one process's report does.
import { formatDuration } from '../duration.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { expandMatrix } from '../pipeline/selection.ts';
import type { WaveAnalysis } from '../runner/rollout-result.ts';
import { bakeOf } from '../runner/waves.ts';
import { judgeBake, type ServerClockSeen } from '../runner/bake-clock.ts';
import { siteServerClock } from './shard-bake-clock.ts';
import { shardKeys, type Manifest } from '../shard/manifest.ts';
import type { ReportStep } from '../report/model.ts';
import { roundName } from '../runner/wave-analysis.ts';
import { runAndReport } from './run.ts';
import { StoreError } from '../store/store.ts';
import { gateRounds } from '../runner/gate-rounds.ts';
import { maskInstances } from '../runner/mask-model.ts';
import type { ShardWorkerRequest } from './shard-request.ts';

/** The analysis after a wave, by the elected worker: the bake left (parked past what is left of its wait), then the gates' rounds over the sites that passed. */
export async function analyse(
  request: ShardWorkerRequest,
  manifest: Manifest,
  wave: number,
  passed: string[],
  /** The bake's start, on the first analyst's clock, and a server's clock as it read it then (app/shard-bake-clock.ts). */
  start: { since: number; clock: ServerClockSeen | undefined },
  holder: string,
): Promise<
  (WaveAnalysis & { steps?: string }) | { parked: string; since: number; until: number } | { cancelled: true }
> {
  const rollout = request.pipeline.rollout!;
  const analysis = rollout.analysis!;
  const bakeMs = bakeOf(rollout, wave);
  const { since } = start;
  // Judged on this worker's clock and on the server's the start kept, as a one-job continue judges it
  // (runner/bake-clock.ts): a worker whose clock is hours ahead does not end it early.
  const here = bakeMs > 0 ? await siteServerClock(request, manifest, passed, start.clock?.server) : undefined;
  const judged = judgeBake(since, bakeMs, request.clock.now(), true, start.clock, here, 'run the workers again');
  if (judged.warning) request.say(`wave ${wave}: ${judged.warning}`);
  if (judged.held) request.say(`wave ${wave}: ${judged.evidence}`);
  const left = judged.left;
  if (judged.held || left > request.waitBudget.left())
    return { parked: `the ${formatDuration(bakeMs)} bake after wave ${wave}`, since, until: since + bakeMs };
  if (left > 0) {
    request.say(`wave ${wave}: baking ${formatDuration(left)} before its analysis`);
    try {
      await request.waitBudget.waiting(() => request.clock.sleep(left, request.signal));
    } catch (error) {
      if (request.signal.aborted) return { cancelled: true };
      throw error;
    }
  }
  // Each gate alone, a pipeline of one step made once (the runner indexes its instances by a step's
  // place), over the sites of the wave it has an instance for, each instance run whatever the others
  // gave, as one process's analysis runs them: no fail-fast in a round, and a gate that failed does
  // not skip the next; a gate with no site of the wave has nothing to run.
  const gates = request.pipeline.steps
    .filter((s) => s.id !== undefined && analysis.gates.includes(s.id))
    .map((gate) => {
      const has = new Set(expandMatrix(gate.matrix).map((c) => String(c[manifest.over])));
      const pipeline: Pipeline = {
        ...request.pipeline,
        rollout: undefined,
        steps: [{ ...gate, index: 0, failFast: false }],
      };
      return { gate, pipeline, sites: passed.filter((site) => has.has(site)) };
    })
    .filter((g) => g.sites.length > 0);
  // A round interrupted: thrown out of the rounds, and told as the analysis cancelled.
  const interrupted = new Error('interrupted');
  // Each round's instances as one process's report shows them: the gate's place in the file, the round named.
  const rounds: ReportStep[] = [];
  let round = 0;
  const runGate = async ({ gate, pipeline, sites }: (typeof gates)[number], round: number) => {
    const done = await runAndReport(
      {
        pipeline,
        env: request.env,
        selection: { only: { [manifest.over]: sites }, skip: {} },
        reports: {},
        emulatorUrl: request.emulatorUrl,
        sources: request.sources,
        // The manifest's hash, which this worker's files were checked against: not hashed again at each site.
        sha256: manifest.sha256,
        vars: request.vars,
      },
      {
        masker: request.masker,
        logger: request.logger,
        signal: request.signal,
        clock: request.clock,
        stopwatch: request.stopwatch,
      },
    );
    if (done.result.outcome === 'cancelled' && request.signal.aborted) throw interrupted;
    const ran: ReportStep[] = done.rendered.report.steps.map((s) => ({
      ...s,
      step: gate.index,
      name: roundName(s.name, wave, round, analysis.count),
      wave,
      round,
    }));
    return { ran, ended: done.result.outcome !== 'cancelled' };
  };
  const verdict = await gateRounds(
    analysis,
    (ms) => {
      request.say(
        `wave ${wave}: analysis round ${++round}/${analysis.count} of ${analysis.gates.join(', ')} in ${formatDuration(ms)}`,
      );
      return request.clock.sleep(ms, request.signal);
    },
    async (round) => {
      const failures: string[] = [];
      let ended = true;
      let ran = 0;
      for (const gate of gates) {
        const gateRun = await runGate(gate, round);
        rounds.push(...gateRun.ran);
        ended &&= gateRun.ended;
        ran += gateRun.ran.filter((s) => s.outcome !== 'skipped').length;
        failures.push(
          ...gateRun.ran
            .filter((s) => s.outcome === 'failure')
            .map((s) => `${s.name}: ${s.error?.message ?? 'failed'}`),
        );
      }
      // Ended before every gate ran, the worker not interrupted: a round that did not hold.
      if (!ended && failures.length === 0) failures.push("the gates' run ended before every gate ran");
      // A round in which no gate ran read nothing: it did not hold, as in one process (wave-analysis.ts).
      if (ended && ran === 0 && failures.length === 0)
        failures.push(
          `no gate ran (${analysis.gates.join(', ')}: ${gates.length === 0 ? "none has an instance among the wave's sites" : 'each skipped by its if:'}), so nothing was read`,
        );
      return failures;
    },
    // A failed round within the limit does not fail the run: the limit let it pass.
    (round) =>
      rounds.filter((s) => s.round === round && s.outcome === 'failure').forEach((s) => (s.continuedOnError = true)),
  ).catch((error: unknown) => {
    if (error === interrupted) return { cancelled: true as const };
    throw error;
  });
  // Interrupted before a verdict: no verdict is written; the worker ends as interrupted (its lease
  // given up, so that a worker waiting at the barrier stands in its place).
  if (verdict.cancelled) return { cancelled: true };
  // Masked whole once more, as a run's result is at its end (a secret learnt in a later round); kept
  // for the merged report only: a store that refuses it costs the report its rounds, not the verdict.
  const key = shardKeys(manifest.run).rounds(wave, holder);
  const kept =
    rounds.length > 0 &&
    (await request.store
      .create(key, Buffer.from(JSON.stringify(maskInstances(request.masker, rounds))))
      .catch((error) => {
        if (!(error instanceof StoreError)) throw error;
        request.say(`wave ${wave}: the analysis's rounds were not kept for the merged report: ${error.message}`);
        return false;
      }));
  return {
    passed: verdict.passed,
    rounds: verdict.rounds,
    failedRounds: verdict.failedRounds,
    text: verdict.text,
    ...(kept ? { steps: key } : {}),
  };
}
