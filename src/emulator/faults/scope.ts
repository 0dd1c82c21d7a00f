// The settings that scope a rule rather than fault the answer: how many requests it applies to, and
// to which site's.
import type { FaultKind } from './kind.ts';
import { jsonInteger, jsonString, textInteger } from './values.ts';

export const scope: FaultKind = {
  name: 'scope',
  settings: [
    {
      keyword: 'times',
      field: 'times',
      usage: 'times=N',
      effect: 'apply to the next N matching requests only',
      fromText: (value) => textInteger(value, 'times'),
      fromJson: (value) => jsonInteger(value, 'times'),
    },
    {
      keyword: 'site',
      field: 'site',
      usage: 'site=NAME',
      effect: 'only the requests to that site (`/sites/NAME/`; the root is `default`)',
      fromText: (value) => value,
      fromJson: (value) => jsonString(value, 'site'),
    },
  ],
};
