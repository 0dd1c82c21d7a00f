// monitoring/engines: a gate on the online Engines (count, version), optionally waiting. An Engine
// is online only if it reported within the last 5 minutes (enterprise-api.md 3, 8.2): the list
// route shows only those; the single-Engine route answers for any Engine that exists, so its
// updatedAt is checked here, against the answer's Date (the server's clock, which stamped it),
// never this machine's clock: minutes of skew would pass an offline Engine or fail a live one.
import { ENGINE, WAIT } from './input-docs.ts';
import { z } from 'zod';
import type { CallOptions } from '../api/index.ts';
import type { EngineInfo } from '../api/schemas/monitoring.ts';
import { formatDuration } from '../duration.ts';
import { notMet, pollUntil } from './gate.ts';
import { listOf, numberInput, textInput, waitInput, waitSpec } from './inputs.ts';
import { engineFacts } from './observed.ts';
import { defineStep, type Wrap } from './types.ts';

/** An Engine that has not reported for longer than this is offline. */
export const ONLINE_MS = 5 * 60_000;

const inputs = (w: Wrap) =>
  z.strictObject({
    'min-online': w(numberInput(z.number().int().min(0))).optional(),
    version: w(textInput(z.string())).optional(),
    engine: w(z.string()).optional(),
    /** Only the Engines of this database (their mainDatabase): a check per target. */
    database: w(z.string()).optional(),
    /** The Engines expected, by name or instanceId: each must be online (and on `version`). */
    engines: w(listOf(textInput(z.string()))).optional(),
    wait: waitInput(w),
  });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'monitoring/engines',
  summary: 'Engines online',
  inputs,
  inputDocs: {
    'min-online': 'At least this many Engines online (reported within the last 5 minutes); default 1.',
    version: 'Every online Engine runs this version.',
    engine: `${ENGINE} Online only if it reported within the last 5 minutes by the server's clock (its updatedAt against the answer's Date header); an answer without a Date header does not count it online.`,
    database: 'Only the Engines whose mainDatabase is this database.',
    engines:
      'The Engines expected, by instanceId, name or host name: each must be online (and on version, which then concerns them only); one that never came back is named in the output missing.',
    wait: WAIT,
  },
  outputs: ['online', 'engines', 'missing'],
  readOnly: true,
  observed: (o) => engineFacts((o.engines as { id: string; version: string }[] | undefined) ?? []),
  needsServer: true,
  async run(i, env) {
    const minOnline = i['min-online'] ?? 1;
    const expected = i.engines ?? [];
    const want = [
      expected.length
        ? `${expected.join(', ')} online`
        : `at least ${minOnline} Engine(s)${i.database ? ` of ${i.database}` : ''} online`,
      i.version ? `all on ${i.version}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const wait = waitSpec(i.wait);
    const observe = async (call: CallOptions) => {
      const api = env.client().monitoring;
      let stale = '';
      let all: EngineInfo[];
      if (i.engine) {
        const { engine, date } = await api.engineDated(i.engine, call);
        const silent = date - engine.updatedAt;
        // The Date header has whole seconds: the server's time may be up to 1s later, counted.
        all = silent + 1_000 <= ONLINE_MS ? [engine] : [];
        if (Number.isNaN(date))
          stale = `, ${i.engine} not counted online: the answer has no Date header, so how long ago it reported by the server's clock is unknown (this machine's clock is not the server's)`;
        else if (all.length === 0)
          stale = `, ${i.engine} offline (last reported ${formatDuration(Math.max(0, silent))} ago by the server's clock; online means within 5m)`;
      } else all = await api.engines(call);
      const engines = i.database ? all.filter((e) => e.mainDatabase === i.database) : all;
      // Named Engines: by instanceId, name or host name. An Engine that never came back is simply
      // absent from the list: named, it is missed. `version` then concerns the named ones.
      const is = (e: EngineInfo, name: string) => e.instanceId === name || e.name === name || e.hostName === name;
      const missing = expected.filter((name) => !engines.some((e) => is(e, name)));
      const checked = expected.length ? engines.filter((e) => expected.some((name) => is(e, name))) : engines;
      const off = i.version ? checked.filter((e) => e.version !== i.version) : [];
      const state = `${engines.length} online${stale}${missing.length ? `, missing: ${missing.join(', ')}` : ''}${off.length ? `, ${off.map((e) => `${e.instanceId} on ${e.version}`).join(', ')}` : ''}`;
      return {
        met: engines.length >= minOnline && off.length === 0 && missing.length === 0,
        state,
        value: { engines, missing },
      };
    };
    const { observation, polls } = await pollUntil(env, want, wait, observe);
    const engines = observation.value.engines.map((e) => ({
      id: e.instanceId,
      version: e.version,
      mainDatabase: e.mainDatabase,
      hostName: e.hostName,
    }));
    return {
      outputs: { online: engines.length, engines, missing: observation.value.missing },
      result: observation.value.engines,
      figures: observation.state,
      ...(observation.met ? {} : { failure: notMet(want, observation, wait, polls) }),
    };
  },
});
