// What a saved plan pins beside its masked texts. The plan compares the pipeline's files and each
// write's calls masked: every secret's value hidden, so a secret that is an ordinary word (a
// database's name) reads alike wherever it stands. An edit of the file from one secret's value to
// another's, or a secret whose value moved since the plan (a write now sent to another database),
// would pass. Where the masks hide something (a file's text, a write's call outside its
// credential fields, whose value may change without moving the write), the plan keeps a fingerprint
// of the unmasked texts keyed by ENGINECTL_JOURNAL_KEY (journal/fingerprint.ts: it checks no guess
// without the key), which the run, given the same key, compares. Without the key plan --out says
// what it cannot pin in the writes (a file's literal password is hidden too, and says nothing new).
import { CREDENTIAL_FIELDS } from '../api/credentials.ts';
import type { PlannedCall } from '../steps/types.ts';
import { MASK } from '../text/mask.ts';
import { JOURNAL_KEY_VARIABLE } from '../journal/seal.ts';
import { pinsFingerprint, type FingerprintKey } from '../journal/fingerprint.ts';

/** plan --out's warning of writes whose masked calls hide a secret's value, without a key to pin them. */
export const UNPINNED_WARNING = `a secret's value is in what a write sends, masked (outside its credentials), and ${JOURNAL_KEY_VARIABLE} is not set: the saved plan cannot tell at run time whether that value moved (a write then sent elsewhere); set ${JOURNAL_KEY_VARIABLE} (a CI secret, the same for plan and run) and make the plan again`;

/** A call with each credential field's value hidden: a token that rotates does not move the write. */
function withoutCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCredentials);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, CREDENTIAL_FIELDS.has(k) ? MASK : withoutCredentials(v)]),
  );
}

const callsText = (calls: readonly PlannedCall[]) =>
  JSON.stringify(
    calls.map((c) => ({
      method: c.method,
      path: c.path,
      // A call without a query is written as before queries were kept: an older plan's pin holds.
      ...(c.query ? { query: withoutCredentials(c.query) } : {}),
      body: withoutCredentials(c.body ?? null),
    })),
  );

export interface Pinnable {
  /** The files the plan read, their text as written. */
  files: readonly { path: string; text: string }[];
  /** The masker of the files (every secret they hold). */
  maskFile: (text: string) => string;
  /** Each write of the live plan, its calls unmasked and as the plan shows them (masked). */
  writes: ReadonlyMap<string, { raw: readonly PlannedCall[]; masked: readonly PlannedCall[] }>;
}

/** What the masks hide: in the files, and in the writes outside their credential fields. */
export function hidden(of: Pinnable): { files: boolean; writes: boolean } {
  return {
    files: of.files.some((f) => of.maskFile(f.text) !== f.text),
    writes: [...of.writes.values()].some((w) => callsText(w.raw) !== callsText(w.masked)),
  };
}

/** The fingerprint of the unmasked files and writes, under the key; undefined when the masks hide nothing or there is no key. */
export function pins(of: Pinnable, key: () => FingerprintKey | undefined): string | undefined {
  const hides = hidden(of);
  const by = hides.files || hides.writes ? key() : undefined;
  if (!by) return undefined;
  const writes = [...of.writes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return pinsFingerprint(
    by,
    JSON.stringify({
      files: of.files.map((f) => [f.path, f.text]),
      writes: writes.map(([k, w]) => [k, callsText(w.raw)]),
    }),
  );
}
