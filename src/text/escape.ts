// Text made safe for where it goes: control characters made visible, HTML escaped, a Markdown
// table cell, a regular expression. Below every renderer and every log, so both use one definition.

/**
 * Control characters made visible: every C0 control but tab and newline (ESC, NUL, CR...), DEL
 * and every C1 control (U+0080 to U+009F: a terminal reads U+009B as CSI, U+009D as OSC, U+0090
 * as DCS): a report or a log line never carries a terminal escape. The bidirectional embeddings,
 * overrides and isolates (U+202A to U+202E, U+2066 to U+2069) are shown as their code point,
 * `<U+202E>`: unseen, they make a line read as something it is not (Trojan Source). The marks
 * (U+200E, U+200F, U+061C) stay: Arabic and Hebrew text carries them, and they reorder nothing.
 */
export function visibleControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, (c) =>
    c === '\x1b' ? '␛' : c === '\r' ? '␍' : c > '\u009F' ? codePoint(c) : '�',
  );
}

/** Bidirectional controls only made visible, as visibleControls shows them (the JUnit report drops the others). */
export function visibleBidi(text: string): string {
  return text.replace(/[\u202A-\u202E\u2066-\u2069]/g, codePoint);
}

/** A character as its code point: `<U+202E>`. */
function codePoint(c: string): string {
  return `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

export function escapeHtml(text: string): string {
  return visibleControls(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * `@` and `#` as hexadecimal or named HTML references: a page shows them as the sign, where GitHub
 * finds mentions. A decimal one (`&#64;`) is broken by the `#` before its digits.
 */
const AT_REFERENCE = /&(?:#[xX]0*40|commat);(?=[A-Za-z0-9])/g;
const HASH_REFERENCE = /&(?:#[xX]0*23|num);(?=\d)/g;

/**
 * Text GitHub renders (summary, PR comment, annotations) that notifies no one and links nothing:
 * `@user`, `@org/team` and `#12`, `owner/repo#12`, `GH-12` get a zero-width space after their
 * sign, so a server's text mentions no one and adds no backlink to an issue. GitHub looks for them
 * in each text node of the rendered page: after a lone backtick, an emphasis mark (`_@user_` is a
 * node of its own) and as an HTML reference (`&#x40;user`, `&commat;user`) too. Only a letter or a
 * digit before `@` keeps it as it is: an e-mail address (`ops@example.com`).
 */
export function noMentions(text: string): string {
  return text
    .replace(/(?<![A-Za-z0-9])@(?=[A-Za-z0-9])/g, '@\u200B')
    .replace(AT_REFERENCE, '$&\u200B')
    .replace(/#(?=\d)/g, '#\u200B')
    .replace(HASH_REFERENCE, '$&\u200B')
    .replace(/\bGH-(?=\d)/g, 'GH-\u200B');
}

/**
 * Text in a Markdown table cell or list item: no pipes, line breaks, HTML, links, controls or
 * mentions. A backslash is escaped too: left as it is, the one before a pipe would escape the
 * pipe's own backslash (`\\|`), and the pipe would end the cell under GFM.
 */
export function cell(text: string): string {
  return noMentions(
    visibleControls(text.replace(/\r?\n|\r/g, ' '))
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/</g, '&lt;')
      .replace(/[[\]]/g, '\\$&'),
  );
}

/**
 * Text as a Markdown code span: shown as it is, never HTML or a link, whatever backticks it holds
 * (the fence is longer than any run of them); on one line, control characters made visible.
 */
export function codeSpan(text: string): string {
  const one = visibleControls(text.replace(/\r?\n|\r/g, ' '));
  const longest = Math.max(0, ...(one.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = one.startsWith('`') || one.endsWith('`') || longest > 0 ? ' ' : '';
  return `${fence}${pad}${one}${pad}${fence}`;
}

/** Text matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
