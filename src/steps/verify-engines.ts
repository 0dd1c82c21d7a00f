// Reading the Engines back to decide an update/system whose fate is unknown: a system update
// makes the Engines whose mainDatabase is the target report the source's Engine version. The
// journal records the Engines just before the call; monitoring lags up to 2 minutes, so an
// Engine still on its old version is "not applied" only once 2 minutes have passed since the call
// (its verdict says the lag: journal/not-applied.ts counts it, on the run's clock through the
// server's, as it counts the step's longest:), and only against the version of a source database
// the step names.
import { z } from 'zod';
import type { EngineClient } from '../api/index.ts';
import type { EngineVersion } from '../api/monitoring.ts';
import { engineFacts } from './observed.ts';
import type { Verdict, Verifier } from './types.ts';

/** Monitoring data is refreshed about every 2 minutes (enterprise-api.md 4.3). */
export const MONITORING_LAG_MS = 2 * 60_000;

const Seen = z.array(
  z.object({ instanceId: z.string(), version: z.string(), mainDatabase: z.string(), updatedAt: z.number().optional() }),
);
type Seen = z.infer<typeof Seen>;
const Body = z.looseObject({
  targetDBName: z.string(),
  sourceDBName: z.string().optional(),
  disableEngineUpdate: z.boolean().optional(),
  disableEngineRestart: z.boolean().optional(),
});

const seen = (e: EngineVersion): Seen[number] => ({
  instanceId: String(e.instanceId),
  version: String(e.version),
  mainDatabase: String(e.mainDatabase),
  ...(typeof e.updatedAt === 'number' ? { updatedAt: e.updatedAt } : {}),
});

async function engines(client: EngineClient, signal: AbortSignal): Promise<Seen> {
  return (await client.monitoring.engineVersions({ signal })).map(seen);
}

const versions = (list: Seen) => [...new Set(list.map((e) => e.version))];
/** Orders versions such as 26.10.3 and 26.11.0 by their numbers. */
const byVersion = (a: string, b: string) => {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};
const named = (list: Seen) => list.map((e) => `${e.instanceId} ${e.version}`).join(', ');

/**
 * The source's Engine version: that of the Engines of the source database when the step names
 * one; otherwise (the source is the database the API runs on) that of the Engines of every
 * other database, when they agree. Undefined when it cannot be known.
 */
function sourceVersion(all: Seen, body: z.infer<typeof Body>): string | undefined {
  const source = all.filter((e) =>
    body.sourceDBName ? e.mainDatabase === body.sourceDBName : e.mainDatabase !== body.targetDBName,
  );
  const found = versions(source);
  return found.length === 1 ? found[0] : undefined;
}

export const enginesUpdated: Verifier = {
  snapshot: (client, _call, signal) => engines(client, signal),
  async preview(client, call, signal) {
    const body = Body.safeParse(call.body);
    if (!body.success) return { text: 'the target database is known only at run time' };
    const all = await engines(client, signal);
    const target = body.data.targetDBName;
    const onTarget = all.filter((e) => e.mainDatabase === target);
    const observed = engineFacts(onTarget);
    if (onTarget.length === 0) return { text: `no online Engine has mainDatabase ${target}`, observed };
    // The source is named, or the database the API runs on, which the API does not name: then the
    // other databases' Engines agree on its version, or the newest of theirs is taken, and said so.
    const strict = sourceVersion(all, body.data);
    const others = versions(all.filter((e) => e.mainDatabase !== target)).sort(byVersion);
    const source = strict ?? others.at(-1);
    const guessed =
      strict === undefined && source !== undefined
        ? ` (the newest of the other databases' Engines: ${others.join(', ')}; the API does not name its own database)`
        : '';
    if (source === undefined)
      return { text: `the Engines of ${target}: ${named(onTarget)}; the source's version is not told`, observed };
    if (onTarget.every((e) => e.version === source))
      return { text: `the Engines of ${target} run ${source} already: ${named(onTarget)}`, observed };
    return {
      text: `the Engines of ${target}: ${onTarget.map((e) => `${e.instanceId} ${e.version} -> ${source}`).join(', ')}${guessed}`,
      observed,
    };
  },
  async check(client, call, snapshot, now, signal): Promise<Verdict> {
    const body = Body.safeParse(call.body);
    if (!body.success)
      return { verdict: 'cannot-tell', evidence: "the journal did not keep the update's target database readable" };
    const { targetDBName: target, disableEngineUpdate, disableEngineRestart } = body.data;
    const dated = await client.monitoring.engineVersionsDated({ signal });
    const all = dated.engines.map(seen);
    // When an Engine last reported, on this machine's clock: its age by the server's own clock (the
    // answer's Date, whole seconds: one more counted), never its stamp against this clock.
    const reported = (e: Seen[number]) =>
      e.updatedAt === undefined || Number.isNaN(dated.date) ? -Infinity : now - (dated.date - e.updatedAt) - 1_000;
    const onTarget = all.filter((e) => e.mainDatabase === target);
    if (onTarget.length === 0)
      return { verdict: 'cannot-tell', evidence: `no online Engine has mainDatabase ${target}` };
    const before = Seen.safeParse(snapshot);
    const was = new Map((before.success ? before.data : []).map((e) => [e.instanceId, e.version]));
    const moved = onTarget.filter((e) => was.has(e.instanceId) && was.get(e.instanceId) !== e.version);
    const source = sourceVersion(before.success ? before.data : all, body.data);
    const reached = onTarget.every((e) => e.version === source);
    if (moved.length > 0 && (source === undefined || reached)) {
      return {
        verdict: 'applied',
        evidence: `the Engines of ${target} moved since just before the call: ${moved.map((e) => `${e.instanceId} ${was.get(e.instanceId)} -> ${e.version}`).join(', ')}`,
      };
    }
    if (moved.length > 0)
      return {
        verdict: 'cannot-tell',
        evidence: `some Engines of ${target} moved since the call and others not: ${named(onTarget)}, the source's ${source}`,
      };
    if (disableEngineUpdate || disableEngineRestart) {
      return {
        verdict: 'cannot-tell',
        evidence: `the update was sent with ${disableEngineUpdate ? 'disableEngineUpdate' : 'disableEngineRestart'}: the Engines' versions do not show it (${named(onTarget)})`,
      };
    }
    if (source === undefined) {
      return {
        verdict: 'cannot-tell',
        evidence: `the source's Engine version is not known (the Engines of other databases report ${versions(all.filter((e) => e.mainDatabase !== target)).join(', ') || 'nothing'}); name the source database in the step's source input for verify to compare`,
      };
    }
    if (reached) {
      return {
        verdict: 'cannot-tell',
        evidence: `the Engines of ${target} report the source's version ${source}${moved.length === 0 && before.success ? ', as they did before the call' : ''}: the Engine versions cannot tell whether the update ran`,
      };
    }
    // Without the read from just before the call (it failed; the run warned and sent the write) the
    // source's version at the call is not known: the source read now may have moved since (the next
    // release installed there), and Engines the update did move read "other than the source's".
    if (!before.success) {
      return {
        verdict: 'cannot-tell',
        evidence: `the journal holds no read of the Engines from just before the call (it could not be made): ${named(onTarget)} against the source's ${source} now tells nothing of the update, for the source's version at the call is not known`,
      };
    }
    // Not applied needs proof: Engines that did not move prove it only against the version of a
    // source the step names. Without one the source is the database the API runs on, which the API
    // does not name: the other databases' Engines agreeing is a guess (its own may be offline).
    if (!body.data.sourceDBName) {
      return {
        verdict: 'cannot-tell',
        evidence: `${named(onTarget)} did not move, and the step names no source database: the source is the database the API runs on, which the API does not name (the other databases' Engines report ${source}, no proof of its version); name it in the step's source input for verify to compare`,
      };
    }
    // Engines newer than the source's would not move to it: their version proves nothing of the update.
    const ahead = onTarget.filter((e) => byVersion(e.version, source) > 0);
    if (ahead.length > 0) {
      return {
        verdict: 'cannot-tell',
        evidence: `${named(ahead)} run a version newer than the source's ${source}: the Engine versions cannot tell whether the update ran`,
      };
    }
    // Within 2 minutes of the latest the call can have left, whatever is read below is no proof.
    const lag = {
      ms: MONITORING_LAG_MS,
      read: `${named(onTarget)} against the source's ${source}`,
      why: 'monitoring lags up to 2 minutes',
    };
    // What monitoring says is as old as the Engines' last report: one from before the call proves
    // nothing of it (an Engine is listed 5 minutes after it stopped reporting).
    const behind = onTarget.filter((e) => e.version !== source);
    const asOf = Math.min(...behind.map(reported));
    const stale = behind.filter((e) => !(reported(e) > call.leftBy));
    if (stale.length > 0)
      return {
        verdict: 'cannot-tell',
        lag,
        evidence: `${named(behind)} against the source's ${source}, but the monitoring data of ${stale.map((e) => e.instanceId).join(', ')} ${asOf === -Infinity ? 'does not say when it was sent' : `was sent before the call could have left (the oldest at ${new Date(asOf).toISOString()})`}: it tells nothing of the update; verify again once they report`,
      };
    return {
      verdict: 'not-applied',
      asOf,
      lag,
      evidence: `${named(behind)} still report${onTarget.length === 1 ? 's' : ''} a version other than the source's ${source}`,
    };
  },
};
