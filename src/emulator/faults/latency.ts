// The `latency` fault: a slow server, which waits before it answers at all.
import type { FaultKind } from './kind.ts';
import { jsonInteger, textDuration } from './values.ts';
import { delay } from './wire.ts';

export const latency: FaultKind = {
  name: 'latency',
  settings: [
    {
      keyword: 'latency',
      field: 'latencyMs',
      usage: 'latency=2s',
      effect: 'wait before answering (`250ms`, `2s`, `1m`)',
      fromText: (value) => textDuration(value, 'latency'),
      fromJson: (value) => jsonInteger(value, 'latencyMs'),
    },
  ],
  async before(rule, res) {
    if (rule.latencyMs) await delay(rule.latencyMs, res);
    return res.destroyed;
  },
};
