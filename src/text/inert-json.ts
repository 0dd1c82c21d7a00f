// A JSON value as text a CI log and a terminal only show, that parses to the very same value: what
// neutralise() breaks with a zero-width space (and so changes) is written here as JSON escapes
// inside the strings, the only place JSON text can hold it. `jq` reads the server's exact values.
// JSON.stringify already escapes the C0 controls; DEL, the C1 controls (a terminal's CSI, OSC),
// the bidirectional controls and the line and paragraph separators are escaped here too.

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** JSON of `value` (pretty-printed by `indent` spaces, on one line with 0) whose lines command no CI system and no terminal. */
export function inertJson(value: unknown, indent = 2): string {
  return (
    JSON.stringify(value, null, indent)
      // Outside a string JSON has no `::` nor `#`: each is in a string, where an escape reads the same.
      .replace(/::/g, ':\\u003a')
      .replace(/##/g, '#\\u0023')
      .replace(/section_(start|end):/g, 'section\\u005f$1:')
      .replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g, escaped)
  );
}
