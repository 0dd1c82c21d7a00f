// The `invalid-json` fault: the API handles the request, then the answer's body is JSON broken off
// after its first key.
import type { FaultKind } from './kind.ts';
import { jsonFlag } from './values.ts';
import { send } from './wire.ts';

export const invalidJson: FaultKind = {
  name: 'invalid-json',
  settings: [
    {
      keyword: 'invalid-json',
      field: 'invalidJson',
      usage: 'invalid-json',
      effect: 'handle, then send `{"broken": ` as the body',
      fromText: () => true,
      fromJson: (value) => jsonFlag(value, 'invalidJson'),
    },
  ],
  async send(rule, res, answer) {
    if (!rule.invalidJson) return false;
    send(res, { ...answer, headers: { 'content-type': 'application/json' }, body: '{"broken": ' });
    return true;
  },
};
