// monitoring/engines: a gate on the online Engines (count, version), optionally waiting.
import { z } from 'zod';
import type { EngineInfo } from '../api/schemas/monitoring.ts';
import { notMet, pollUntil } from './gate.ts';
import { waitInput, waitSpec } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) =>
  z.strictObject({
    'min-online': w(z.coerce.number().int().min(0)).optional(),
    version: w(z.coerce.string()).optional(),
    engine: w(z.string()).optional(),
    /** Only the Engines of this database (their mainDatabase): a check per target. */
    database: w(z.string()).optional(),
    wait: waitInput(w),
  });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'monitoring/engines',
  summary: 'Engines online',
  inputs,
  outputs: ['online', 'engines'],
  readOnly: true,
  needsServer: true,
  plan: (i) => [{ method: 'GET', path: i.engine ? `/api/monitoring/v1/engines/${encodeURIComponent(i.engine)}` : '/api/monitoring/v1/engines' }],
  async run(i, env) {
    const minOnline = i['min-online'] ?? 1;
    const want = [`at least ${minOnline} Engine(s)${i.database ? ` of ${i.database}` : ''} online`, i.version ? `all on ${i.version}` : ''].filter(Boolean).join(', ');
    const wait = waitSpec(i.wait);
    const observe = async () => {
      const api = env.client().monitoring;
      const all: EngineInfo[] = i.engine ? [await api.engine(i.engine, { signal: env.signal })] : await api.engines({ signal: env.signal });
      const engines = i.database ? all.filter((e) => e.mainDatabase === i.database) : all;
      const off = i.version ? engines.filter((e) => e.version !== i.version) : [];
      const state = `${engines.length} online${off.length ? `, ${off.map((e) => `${e.instanceId} on ${e.version}`).join(', ')}` : ''}`;
      return { met: engines.length >= minOnline && off.length === 0, state, value: engines };
    };
    const { observation, polls } = await pollUntil(env, want, wait, observe);
    const engines = observation.value.map((e) => ({ id: e.instanceId, version: e.version, mainDatabase: e.mainDatabase, hostName: e.hostName }));
    return {
      outputs: { online: engines.length, engines },
      result: observation.value,
      figures: observation.state,
      ...(observation.met ? {} : { failure: notMet(want, observation, wait, polls) }),
    };
  },
});
