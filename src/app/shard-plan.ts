// What a sharded run is made of: the pipeline's fleet (the rollout's key and its sites, in order),
// its waves and budgets, and the hashes a worker compares before it runs a site (another file,
// other --var values or another inventory is another run). `enginectl shard` writes it as the
// run's manifest; each worker reads it back.
import { UsageError } from '../errors.ts';
import { StoreError } from '../store/store.ts';
import type { ReportStep } from '../report/model.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { inRollout, matrixValues } from '../pipeline/selection.ts';
import { fileMasker } from '../runner/file-secrets.ts';
import { budgetOf, wavesOf } from '../runner/waves.ts';
import { inventoryHash, type Manifest } from '../shard/manifest.ts';
import { pipelineSha256, type Source } from './pipeline-input.ts';
import { fleetPlaces, workerServersRefusal } from './shard-servers.ts';

export interface Fleet {
  over: string;
  sites: string[];
  sha256: string;
  inventory: string;
  /** The --var values' hash (their secrets masked), '' without any: a plan job of a matrix is told from another by it. */
  vars: string;
  /** A plan's: the key's fingerprints of the servers whose URL holds a secret (shard-servers.ts fleetPlaces), '' without the key or such a server. */
  places?: string;
}

/** The pipeline's fleet: refused when it has no rollout, or a step outside it (each site's run would run it again). */
export function fleetOf(
  pipeline: Pipeline,
  sources: readonly Source[],
  vars: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): Fleet {
  // Hashed as the journal and the reports hash it: every secret the file holds masked first, every
  // site's (a static worker reaches its own sites alone, and hashes the file as shard did).
  const masker = fileMasker(pipeline, env);
  const rollout = pipeline.rollout;
  if (!rollout)
    throw new UsageError(
      'SHARD_REFUSED',
      `${pipeline.file}: a sharded run needs rollout: (its over: key names the sites)`,
      {
        hint: 'add rollout: { over: site, waves: [rest] } (one wave of every site), or more waves to roll out in waves',
      },
    );
  const outside = pipeline.steps.find((s) => !inRollout(rollout, s));
  if (outside)
    throw new UsageError(
      'SHARD_REFUSED',
      `${pipeline.file}:${outside.position.line}:${outside.position.col}: step ${outside.id ?? `${outside.index + 1} (${outside.uses})`} has no matrix over ${rollout.over}: each shard would run it again`,
      { hint: `give it matrix: { ${rollout.over}: ... }, or run it in a job of its own before the shards` },
    );
  // A sharded run's workers hold a lease of their own index each, never the pipeline's: they would write while another run holds it.
  const lease = pipeline.lease;
  if (lease)
    throw new UsageError(
      'SHARD_REFUSED',
      `${pipeline.file}${lease.position ? `:${lease.position.line}:${lease.position.col}` : ''}: lease: { name: ${lease.name}${lease.over ? `, over: ${lease.over}` : ''} } holds ${lease.over ? `each ${lease.over}` : 'the fleet'} for one run at a time, and a sharded run holds no lease of the pipeline's (each worker holds its index's own): its workers would write while another run holds it`,
      {
        hint: 'run it in one job (enginectl run --store URL takes the lease), or shard a pipeline without lease: and keep other runs off the fleet another way',
      },
    );
  // A decision parks a run in one job; a sharded run counts a failure against its wave's budget instead.
  // The rollout's (or the pipeline's) parks a wave past its budget or its analysis failed, whatever its steps say.
  const step = pipeline.steps.find((s) => s.onFailure === 'decide');
  const decides =
    rollout.onFailure === 'decide'
      ? ": the rollout's on-failure (or the pipeline's) is decide"
      : step &&
        `:${step.position.line}:${step.position.col}: step ${step.id ?? `${step.index + 1} (${step.uses})`} has on-failure: decide`;
  if (decides)
    throw new UsageError(
      'SHARD_REFUSED',
      `${pipeline.file}${decides}, which parks a run for an operator's decision: a sharded run does not park for decisions (its failures count against each wave's budget, and halt the rollout past it)`,
      {
        hint: 'shard it with on-failure: halt (or none), or run it in one job with --store to park for decisions (enginectl decide)',
      },
    );
  const sites = (matrixValues(pipeline)[rollout.over] ?? []).map(String);
  return {
    over: rollout.over,
    sites,
    sha256: pipelineSha256(sources, (t) => masker.mask(t), vars),
    inventory: inventoryHash(sites),
    vars: Object.keys(vars).length === 0 ? '' : pipelineSha256([], (t) => masker.mask(t), vars),
  };
}

/** The fleet a plan takes its slot and writes its manifest for: told by its secret servers' fingerprints too (a worker checks its run's servers itself). */
export function plannedFleet(...args: Parameters<typeof fleetOf>): Fleet {
  const [pipeline, , , env] = args;
  return { ...fleetOf(...args), places: fleetPlaces(pipeline, env) };
}

export function makeManifest(
  pipeline: Pipeline,
  fleet: Fleet,
  options: {
    run: string;
    shards: number;
    assign: 'static' | 'queue';
    at: number;
    by: string;
    servers?: Manifest['servers'];
  },
): Manifest {
  const rollout = pipeline.rollout!;
  const waves = wavesOf(rollout, fleet.sites);
  return {
    v: 2,
    run: options.run,
    name: typeof pipeline.name === 'string' ? pipeline.name : pipeline.file,
    file: pipeline.file,
    sha256: fleet.sha256,
    inventory: fleet.inventory,
    ...(fleet.places ? { places: fleet.places } : {}),
    over: fleet.over,
    shards: options.shards,
    parallel: rollout.maxParallel,
    assign: options.assign,
    waves,
    budgets: waves.map((w) => budgetOf(rollout.maxFailures, w.length)),
    analysis: rollout.analysis !== undefined,
    at: options.at,
    by: options.by,
    ...(options.servers === undefined ? {} : { servers: options.servers }),
  };
}

/**
 * A worker's pipeline against the run's manifest: the same files, --var values and inventory, and
 * the plan `enginectl shard` made of them (the waves, their budgets, max-parallel, the analysis),
 * or refused: a manifest changed in the store would run sites out of their waves, past a budget,
 * or twice (a site of a merged wave run again in its own).
 */
/** Hashed otherwise (another algorithm): another enginectl version wrote the manifest, not another pipeline; STORE_VERSION. */
export function refuseOtherHashing(manifest: Manifest, fleet: Fleet): void {
  const [theirs, ours] = [manifest.sha256, fleet.sha256].map((h) => h.slice(0, Math.max(0, h.indexOf(':'))));
  if (theirs !== ours)
    throw new StoreError(
      'STORE_VERSION',
      `run ${manifest.run}'s manifest hashes the pipeline's files with ${theirs || 'no named algorithm'}, this enginectl with ${ours}: another enginectl version wrote it`,
      {
        hint: 'run every worker of the run with the enginectl that ran enginectl shard (or plan the rollout again with this one); nothing was sent',
      },
    );
}

export function checkFleet(
  manifest: Manifest,
  fleet: Fleet,
  pipeline: Pipeline,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const planned = makeManifest(pipeline, fleet, manifest);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  refuseOtherHashing(manifest, fleet);
  const differs =
    manifest.sha256 !== fleet.sha256
      ? 'its files or --var values differ'
      : manifest.inventory !== fleet.inventory
        ? `its ${manifest.over}s differ (${fleet.sites.length}, the manifest has ${manifest.waves.flat().length})`
        : undefined;
  if (differs)
    throw new UsageError('SHARD_REFUSED', `run ${manifest.run} was sharded from another pipeline: ${differs}`, {
      hint: 'run each shard with the files and --var values enginectl shard was given',
    });
  const changed = (['over', 'waves', 'budgets', 'parallel', 'analysis'] as const).filter(
    (key) => !same(manifest[key], planned[key]),
  );
  if (changed.length > 0)
    throw new UsageError(
      'SHARD_REFUSED',
      `run ${manifest.run}'s manifest is not the one enginectl shard planned from this pipeline: its ${changed.join(', ')} differ (the manifest in the store was changed)`,
      { hint: 'nothing was sent; plan the rollout again with enginectl shard (a manifest is written by shard alone)' },
    );
  // The same file and sites, another environment's secret URL: another fleet (app/shard-servers.ts).
  const servers = workerServersRefusal(manifest, pipeline, env);
  if (servers)
    throw new UsageError('SHARD_REFUSED', `run ${manifest.run} is refused here: ${servers.why}`, {
      hint: servers.hint,
    });
}

/**
 * How the reports of a sharded run's sites merge: each site's run holds its site alone, so the
 * fleet and its order are the manifest's, and the pipeline was checked against the manifest by
 * the worker that ran it (not compared report by report); `covered`: the sites the merge answers for.
 */
export function fleetOptions(manifest: Manifest, covered: readonly string[]) {
  return {
    force: true,
    matrix: { [manifest.over]: manifest.waves.flat() },
    covers: { key: manifest.over, values: covered },
  };
}

/** Each site's steps given their wave (a site's own run knows no rollout); an analysis round keeps its own. */
export function placeInWaves(steps: ReportStep[], manifest: Manifest): void {
  const waveOf = new Map(manifest.waves.flatMap((sites, w) => sites.map((site) => [site, w + 1] as const)));
  for (const step of steps)
    if (step.round === null) step.wave = waveOf.get(String(step.matrix?.[manifest.over])) ?? null;
}
