// An alias (`*name`) that no anchor (`&name`) above it names. `yaml` parses it without an error
// and fails only as the document becomes data ("Unresolved alias"), with no position: found here
// in the Document, to be reported at the alias, not as a document that expands too far. A
// generated password that starts with `*` is one: the alias's name is then the password, never
// said (it is masked too, raw-credentials.ts), and the value is told to be quoted.
import { isAlias, isPair, isScalar, visit, type Document } from 'yaml';
import { isCredentialKey } from './credential-keys.ts';

export interface UnresolvedAlias {
  /** Where the alias starts in the text (its `*`). */
  offset: number;
  message: string;
  hint: string;
}

/** The first alias in `doc` that no anchor before it names, if any (an alias resolves to the last such anchor before it). */
export function unresolvedAlias(doc: Document.Parsed): UnresolvedAlias | undefined {
  const anchors = new Set<string>();
  let found: UnresolvedAlias | undefined;
  visit(doc, {
    Node(key, node, path) {
      if (!isAlias(node)) {
        if (node.anchor) anchors.add(node.anchor);
        return;
      }
      if (anchors.has(node.source)) return;
      const pair = path.at(-1);
      const credential = key === 'value' && isPair(pair) && isScalar(pair.key) ? String(pair.key.value) : undefined;
      found = {
        offset: node.range?.[0] ?? 0,
        ...(credential !== undefined && isCredentialKey(credential)
          ? {
              message: `the value of ${credential} starts with *, so YAML reads it as an alias, and it names no anchor`,
              hint: `quote the value: ${credential}: "*…" (a value that starts with *, !, &, { or # is quoted)`,
            }
          : {
              message: `the alias *${node.source} names no anchor: no &${node.source} is set above it`,
              hint: `set &${node.source} on the value it repeats, above it; or quote the value if it is text that starts with *`,
            }),
      };
      return visit.BREAK;
    },
  });
  return found;
}
