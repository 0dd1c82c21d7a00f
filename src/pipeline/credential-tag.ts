// A credential written literally whose value starts with `!`: YAML reads a tag there (`!Zq9pw…`),
// which enginectl refuses as it refuses every tag it does not read. Removing the tag would change
// the credential; the value is to be quoted, or better kept out of the file (a secret). The tag is
// the credential's start: never said (it is masked too, raw-credentials.ts), as an alias in its
// place is not (unresolved-alias.ts).
import { isPair, isScalar, visit, type Document } from 'yaml';
import { isCredentialKey } from './credential-keys.ts';

/** The credential key (as written) whose value carries the tag that ends at `tagEnd` in `text`, if any. */
export function taggedCredential(doc: Document.Parsed, text: string, tagEnd: number): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Pair(_key, pair) {
      const value = pair.value as { tag?: string; range?: [number, number, number] } | null;
      const start = value?.range?.[0];
      if (!isPair(pair) || !isScalar(pair.key) || !value?.tag || start === undefined || start < tagEnd) return;
      if (text.slice(tagEnd, start).trim() !== '') return;
      const key = String(pair.key.value);
      if (isCredentialKey(key)) found = key;
      return visit.BREAK;
    },
  });
  return found;
}

/** The finding at such a tag: what YAML read, and what to write instead. */
export function credentialTagFinding(key: string): { message: string; hint: string } {
  return {
    message: `the value of ${key} starts with !, so YAML reads it as a tag, not as the credential`,
    hint: `quote the value: ${key}: "!…" (a value that starts with !, *, &, { or # is quoted); better, keep it out of the file: ${key}: "\${{ secrets.NAME }}"`,
  };
}
