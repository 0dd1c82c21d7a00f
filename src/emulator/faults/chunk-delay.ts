// The `chunk-delay` fault: a slow body. The head comes at once, then the body in up to 16 chunks,
// each after the delay.
import type { FaultKind } from './kind.ts';
import { jsonInteger, textDuration } from './values.ts';
import { delay } from './wire.ts';

export const chunkDelay: FaultKind = {
  name: 'chunk-delay',
  settings: [
    {
      keyword: 'chunk-delay',
      field: 'chunkDelayMs',
      usage: 'chunk-delay=100ms',
      effect:
        'send the headers, then the body in up to 16 chunks, each after this delay (an empty body ends after one delay)',
      fromText: (value) => textDuration(value, 'chunk-delay'),
      fromJson: (value) => jsonInteger(value, 'chunkDelayMs'),
    },
  ],
  async send(rule, res, answer) {
    if (!rule.chunkDelayMs) return false;
    const body = Buffer.from(answer.body ?? '');
    res.writeHead(answer.status, { ...answer.headers, 'content-length': body.length });
    const size = Math.max(1, Math.ceil(body.length / 16));
    let i = 0;
    do {
      await delay(rule.chunkDelayMs, res);
      if (res.destroyed) return true;
      res.write(body.subarray(i, i + size));
      i += size;
    } while (i < body.length);
    res.end();
    return true;
  },
};
