// monitoring/sessions: counts active sessions; with `max-active`, a gate (optionally waiting).
import { ENGINE, WAIT } from './input-docs.ts';
import { z } from 'zod';
import type { CallOptions } from '../api/index.ts';
import { notMet, pollUntil } from './gate.ts';
import { numberInput, waitInput, waitSpec } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) =>
  z.strictObject({
    'max-active': w(numberInput(z.number().int().min(0))).optional(),
    engine: w(z.string()).optional(),
    wait: waitInput(w),
  });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'monitoring/sessions',
  summary: 'Sessions',
  inputs,
  inputDocs: {
    'max-active': 'Wait until at most this many application sessions are active.',
    engine: ENGINE,
    wait: WAIT,
  },
  outputs: ['active'],
  readOnly: true,
  needsServer: true,
  async run(i, env) {
    const max = i['max-active'];
    const want =
      max === undefined ? 'sessions counted' : `at most ${max} active session(s)${i.engine ? ` on ${i.engine}` : ''}`;
    const wait = waitSpec(i.wait);
    const observe = async (call: CallOptions) => {
      const api = env.client().monitoring;
      const sessions = i.engine ? await api.engineSessions(i.engine, call) : await api.sessions(call);
      return { met: max === undefined || sessions.length <= max, state: `${sessions.length} active`, value: sessions };
    };
    const { observation, polls } = await pollUntil(env, want, wait, observe);
    return {
      outputs: { active: observation.value.length },
      result: observation.value,
      figures: observation.state,
      ...(observation.met ? {} : { failure: notMet(want, observation, wait, polls) }),
    };
  },
});
