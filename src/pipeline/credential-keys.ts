// The keys whose value is a credential wherever a pipeline writes them: the credential fields
// (api/credentials.ts: password, token, ...) and the last part of each step type's secret inputs
// (a license's `code`). A value under one is masked though YAML gives no text for it
// (raw-credentials.ts), and a message about such a value never quotes it (unresolved-alias.ts).
import { CREDENTIAL_FIELDS } from '../api/credentials.ts';
import { STEP_TYPES } from '../steps/registry.ts';

export const CREDENTIAL_KEYS: readonly string[] = [
  ...new Set([
    ...CREDENTIAL_FIELDS,
    ...[...STEP_TYPES.values()].flatMap((type) => (type.secretInputs ?? []).map((path) => path.split('.').at(-1)!)),
  ]),
];

const LOWER = new Set(CREDENTIAL_KEYS.map((k) => k.toLowerCase()));

/** Whether a mapping's key holds a credential, in any case (`Password` too). */
export function isCredentialKey(key: string): boolean {
  return LOWER.has(key.toLowerCase());
}
