// The servers' clock a sharded run's bake is judged on besides the analyst's own (runner/bake-clock.ts):
// the bake starts on the clock of the worker that first stood as the wave's analyst, and is judged by
// whichever worker stands next, often a later job on another runner whose clock may be hours off.
// The first analyst keeps, with its start, the clock of a server of the wave as it read it (one GET
// of its Engines: a read only); a later analyst reads that server's again, and the bake ends only
// once both clocks say it elapsed, as a one-job continue judges it.
import type { Manifest } from '../shard/manifest.ts';
import type { ServerClockSeen } from '../runner/bake-clock.ts';
import { Masker } from '../runner/masker.ts';
import { plannedInstances } from '../runner/planned.ts';
import { prepareRun } from '../runner/scope.ts';
import { clientFactory } from './clients.ts';
import type { ShardWorkerRequest } from './shard-request.ts';

/**
 * A server's clock against this worker's: `prefer`'s (the server the bake's start kept), else that of
 * the first server of `sites` that answers with a Date; undefined when none does.
 */
export async function siteServerClock(
  request: ShardWorkerRequest,
  manifest: Manifest,
  sites: readonly string[],
  prefer?: string,
): Promise<ServerClockSeen | undefined> {
  const { servers } = prepareRun(request.pipeline, request.env, request.masker);
  const wanted = new Set(sites);
  const names =
    prefer !== undefined
      ? [prefer]
      : [
          ...new Set(
            plannedInstances(request.pipeline, request.env, new Masker()).flatMap((i) =>
              i.server !== undefined && wanted.has(String(i.matrix?.[manifest.over])) ? [i.server] : [],
            ),
          ),
        ];
  const make = clientFactory({
    env: request.env,
    masker: request.masker,
    emulatorUrl: request.emulatorUrl,
    readOnly: true,
    now: request.clock.now,
  });
  for (const name of names.slice(0, 3)) {
    const server = servers.get(name);
    if (!server) continue;
    try {
      const client = make(server);
      await client.monitoring.engineVersions({ signal: request.signal });
      const seen = client.serverClock();
      if (seen) return { server: name, ...seen };
    } catch {
      // not read: the next server of the wave, else no server's clock
    }
  }
  return undefined;
}
