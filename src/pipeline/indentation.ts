// YAML's indentation errors told in the pipeline's terms, at the line of the mistake: which key is
// deeper or shallower than the keys it belongs with, and what to write. The YAML library reports
// them at the line before, in its own words ("Nested mappings are not allowed in compact
// mappings", "All mapping items must start at the same column").

export interface Located {
  line: number;
  col: number;
  message: string;
  hint: string;
}

const KEY = /^(\s*)(-\s+)?([A-Za-z_][\w-]*)\s*:/;

/** The key of a line and the column it starts at (after a list dash), if the line holds one. */
function keyAt(line: string): { key: string; col: number } | undefined {
  const m = KEY.exec(line);
  if (!m) return undefined;
  return { key: m[3]!, col: m[1]!.length + (m[2]?.length ?? 0) + 1 };
}

/** The nearest key above `index` that is a sibling candidate: the closest line with a key. */
function keyAbove(lines: readonly string[], index: number): { key: string; col: number; line: number } | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const k = keyAt(lines[i]!);
    if (k) return { ...k, line: i + 1 };
  }
  return undefined;
}

/**
 * For a YAML error at `line` (1-based), the indentation mistake it comes from, when it is one:
 * `code` is the YAML library's error code.
 */
export function indentationMistake(code: string, text: string, line: number): Located | undefined {
  const lines = text.split(/\r?\n/);
  if (code === 'BLOCK_AS_IMPLICIT_KEY' || code === 'MULTILINE_IMPLICIT_KEY') {
    // `uses: x` then `   with:` indented deeper: the mistake is on the next line with a key.
    const above = keyAt(lines[line - 1] ?? '');
    for (let i = line; i < lines.length && above; i++) {
      const k = keyAt(lines[i]!);
      if (!k) continue;
      if (k.col > above.col) {
        return {
          line: i + 1,
          col: k.col,
          message: `\`${k.key}:\` is indented deeper than \`${above.key}:\` above it (column ${k.col}, not ${above.col})`,
          hint: `keys of one mapping start at the same column: indent \`${k.key}:\` like \`${above.key}:\``,
        };
      }
      break;
    }
  }
  if (code === 'BAD_INDENT') {
    const k = keyAt(lines[line - 1] ?? '');
    const above = keyAbove(lines, line - 1);
    // Keys at one column are no indentation mistake between them: the error is another's (an unclosed `{`, unclosed-flow.ts).
    if (k && above && k.col !== above.col) {
      return {
        line,
        col: k.col,
        message: `\`${k.key}:\` starts at column ${k.col}, but \`${above.key}:\` above it at column ${above.col}`,
        hint: `keys of one mapping start at the same column: indent \`${k.key}:\` like \`${above.key}:\``,
      };
    }
  }
  return undefined;
}
