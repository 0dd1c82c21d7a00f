// What a saved plan, a shard manifest and a journal's run record keep of a server whose URL holds a
// secret (url: ${{ secrets.PROD_URL }}, which reads *** masked whatever server it names): a
// fingerprint keyed by a key the user holds outside every file, ENGINECTL_JOURNAL_KEY
// (journal/seal.ts, a CI secret of 16 characters or more), so that the run, the worker, or verify
// reading a call in doubt (journal/sent-server.ts), given the same key, tells that server from
// another before any request.
//
// Not a hash under the file's salt alone (journal/hashing.ts): the salt is in the file, and whoever
// holds the file (a CI artifact) could then test guesses of a short secret in the URL offline. A
// fingerprint tests nothing without the key; the key itself, a random secret, is no more open to a
// guess here than it is by a sealed journal's MACs.
//
// The key of the fingerprints is derived from the journal's key and the file's salt under a label
// of its own (the saved plan's, which came first, for all three): a journal's seal is an HMAC under
// the journal's key itself, of a record's text (beginning with "{", or with the 64 hex digits of the
// seal before it), so no fingerprint or key check stands for a seal, nor a seal for them; the salt
// makes two files' fingerprints of one server differ (a journal's places have none, to be told
// across runs: journal/sent-server.ts).
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** The key of a file's fingerprints: the journal's key (ENGINECTL_JOURNAL_KEY) and the file's salt (hex). */
export interface FingerprintKey {
  key: string;
  salt: string;
}

const LABEL = 'enginectl saved plan: server fingerprints\n';

/** The last derived key, made once: a file fingerprints each of its servers under one. */
let last: { key: string; salt: string; derived: KeyObject } | undefined;

function derived({ key, salt }: FingerprintKey): KeyObject {
  if (last?.key !== key || last.salt !== salt)
    last = { key, salt, derived: createSecretKey(createHmac('sha256', key).update(LABEL).update(salt).digest()) };
  return last.derived;
}

function mac(of: FingerprintKey, text: string): string {
  return `hmac-sha256:${createHmac('sha256', derived(of)).update(text).digest('hex')}`;
}

/** The fingerprint of a server's URL (without credentials, unmasked) under the key. */
export function fingerprint(of: FingerprintKey, url: string): string {
  return mac(of, `server\n${url}`);
}

/** What tells the key a file's fingerprints were made with from another one, so a run with another key is not told it calls another server. */
export function keyCheck(of: FingerprintKey): string {
  return mac(of, 'key\n');
}

/** The fingerprint of what a saved plan pins beside its masked texts (app/plan-pins.ts) under the key. */
export function pinsFingerprint(of: FingerprintKey, text: string): string {
  return mac(of, `pins\n${text}`);
}
