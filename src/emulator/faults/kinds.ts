// Every fault kind the emulator injects, in the order the server applies them at each stage (the
// first kind that sends the answer its own way wins) and the help and the docs list their settings.
// A new fault kind is a file of its own, added here; the parsers, the help, the docs' table
// (`npm run emulator-docs`) and the fault matrix test read this list.
import { chunkDelay } from './chunk-delay.ts';
import { echoCredentials } from './echo-credentials.ts';
import { gateway } from './gateway.ts';
import { hang } from './hang.ts';
import { invalidJson } from './invalid-json.ts';
import type { FaultKind, FaultSetting } from './kind.ts';
import { latency } from './latency.ts';
import { reset } from './reset.ts';
import type { FaultRule } from './rule.ts';
import { scope } from './scope.ts';
import { siteEvents } from './site-events.ts';
import { status } from './status.ts';
import { truncate } from './truncate.ts';

export const FAULT_KINDS: readonly FaultKind[] = [
  latency,
  hang,
  reset,
  status,
  gateway,
  truncate,
  invalidJson,
  chunkDelay,
  echoCredentials,
  siteEvents,
  scope,
];

export const FAULT_SETTINGS: readonly FaultSetting[] = FAULT_KINDS.flatMap((k) => k.settings);

/** The kinds whose settings the rule has, in the order of FAULT_KINDS. */
export function kindsOf(rule: FaultRule): FaultKind[] {
  return FAULT_KINDS.filter((k) => k.settings.some((s) => rule[s.field] !== undefined));
}
