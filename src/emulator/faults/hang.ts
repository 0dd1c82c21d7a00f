// The `hang` fault: a server that never answers, so the client's timeout or cancellation must end
// the call.
import type { FaultKind } from './kind.ts';
import { jsonFlag } from './values.ts';

export const hang: FaultKind = {
  name: 'hang',
  settings: [
    {
      keyword: 'hang',
      field: 'hang',
      usage: 'hang',
      effect: "never answer; the client's timeout or cancellation ends the call",
      fromText: () => true,
      fromJson: (value) => jsonFlag(value, 'hang'),
    },
  ],
  // The socket stays open until the client gives up.
  before: async (rule) => rule.hang === true,
};
