// The credentials a pipeline's text writes literally, found in its YAML as far as it parses: the
// file masker (runner/file-secrets.ts) learns them from a loaded pipeline, but a pipeline that
// failed to load shows its source lines under its findings, and its credentials must be masked
// there too. Read here from the YAML document itself, whatever the schema check said of it: every
// credential field (api/credentials.ts: token, password, ...) at any depth, the password in any
// `url`, and the secret inputs a known step type declares (a license code). A value holding an
// expression (`${{ secrets.X }}`) is no literal: its secret is the environment's. Then, as the
// YAML may give no text where a credential is written (a password `!X`, `&X`, `*X`, `{X` is a
// tag, an anchor, an alias, a flow mapping to it, and the file fails at that line), the values
// of the credential keys as the text writes them, line by line (raw-credentials.ts). A value the
// text writes over several lines is also learnt a line at a time: a finding shows one line of it.
import { isScalar, parseAllDocuments, visit } from 'yaml';
import { CREDENTIAL_FIELDS } from '../api/credentials.ts';
import { literalUrlPasswords } from '../api/url-logins.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { rawCredentials } from './raw-credentials.ts';
import { MAX_ALIAS_COUNT } from './yaml-doc.ts';

export interface LiteralCredential {
  value: string;
  /** Where it is, for a warning that names it (never its value): `servers.main.password`. */
  where: string;
}

/** Deeper than this, a document is refused anyway (yaml-doc.ts): its credentials are not looked for further down. */
const MAX_DEPTH = 64;

const literal = (value: unknown): string | undefined =>
  (typeof value === 'string' && !value.includes('${{')) || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;

/** The value at a dotted path of `value` (`target.token`), if any. */
function at(value: unknown, path: string): unknown {
  let here = value;
  for (const key of path.split('.'))
    here =
      here && typeof here === 'object' && Object.hasOwn(here, key) ? (here as Record<string, unknown>)[key] : undefined;
  return here;
}

function walk(value: unknown, where: string, out: LiteralCredential[], depth: number): void {
  if (depth > MAX_DEPTH || !value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, `${where}[${i}]`, out, depth + 1));
    return;
  }
  const record = value as Record<string, unknown>;
  const type = typeof record.uses === 'string' ? STEP_TYPES.get(record.uses) : undefined;
  for (const path of type?.secretInputs ?? []) {
    const found = literal(at(record.with, path));
    if (found !== undefined) out.push({ value: found, where: `${where}.with.${path}` });
  }
  for (const [key, v] of Object.entries(record)) {
    const here = where ? `${where}.${key}` : key;
    const found = CREDENTIAL_FIELDS.has(key) ? literal(v) : undefined;
    if (found !== undefined) out.push({ value: found, where: here });
    for (const inUrl of key === 'url' && typeof v === 'string' ? literalUrlPasswords(v) : [])
      out.push({ value: inUrl, where: here });
    walk(v, here, out, depth + 1);
  }
}

/**
 * The pieces, line by line, of each credential field's value the text writes over several lines
 * (a double-quoted scalar broken by an escaped line break, a plain one run onto the next line):
 * the value is the lines joined, and a finding on one of them shows that line as written.
 */
function foldedPieces(doc: ReturnType<typeof parseAllDocuments>[number], text: string, out: LiteralCredential[]) {
  visit(doc, {
    Pair(_, pair) {
      const { key, value } = pair;
      if (!isScalar(key) || !CREDENTIAL_FIELDS.has(String(key.value)) || !isScalar(value) || !value.range) return;
      const source = text.slice(value.range[0], value.range[1]);
      if (!/[\r\n]/.test(source) || source.includes('${{')) return;
      for (const line of source.split(/\r?\n|\r/)) {
        const piece = line.trim().replace(/^["']/, '').replace(/\\$/, '').replace(/["']$/, '').trim();
        if (piece) out.push({ value: piece, where: `${String(key.value)} (a line of its value)` });
      }
    },
  });
}

/** Every credential `text` writes literally (see above): from its YAML read as far as it parses, then from its lines. */
export function literalCredentials(text: string): LiteralCredential[] {
  const out: LiteralCredential[] = [];
  for (const doc of parseAllDocuments(text, { uniqueKeys: false })) {
    try {
      walk(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), '', out, 0);
    } catch {
      // a document that does not become data (an alias bomb, an alias no anchor names): its lines are read below
    }
    foldedPieces(doc, text, out);
  }
  const parsed = new Set(out.map((c) => c.value));
  return [...out, ...rawCredentials(text).filter((c) => !parsed.has(c.value))];
}
