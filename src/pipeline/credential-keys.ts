// The keys whose value is a credential wherever a pipeline writes them: those whose name says so
// (api/credential-names.ts, the one rule: password, token, ipassword, apiToken, client_secret, ...)
// and the last part of each step type's secret inputs (a license's `code`, which names no
// credential elsewhere: an entity's `iproductcode` is none). A value under one is masked though
// YAML gives no text for it (raw-credentials.ts), and a message about such a value never quotes it
// (unresolved-alias.ts).
import { credentialNamed } from '../api/credential-names.ts';
import { STEP_TYPES } from '../steps/registry.ts';

/** The last part of each declared secret input, in lower case. */
const DECLARED: ReadonlySet<string> = new Set(
  [...STEP_TYPES.values()].flatMap((type) =>
    (type.secretInputs ?? []).map((path) => path.split('.').at(-1)!.toLowerCase()),
  ),
);

/** Whether a mapping's key holds a credential, in any case (`Password` too). */
export function isCredentialKey(key: string): boolean {
  return credentialNamed(key) || DECLARED.has(key.toLowerCase());
}
