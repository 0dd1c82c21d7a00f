// Text made safe for where it goes: control characters made visible, HTML escaped, a Markdown
// table cell. Below every renderer and every log, so both use one definition.

/** Control characters (ESC, NUL, CR...) made visible: a report never carries a terminal escape. */
export function visibleControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B-\u001F\u007F\u009B]/g, (c) => (c === '\x1b' ? '␛' : c === '\r' ? '␍' : '�'));
}

export function escapeHtml(text: string): string {
  return visibleControls(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Text in a Markdown table cell or list item: no pipes, line breaks, HTML, links or controls. */
export function cell(text: string): string {
  return visibleControls(text.replace(/\r?\n|\r/g, ' ')).replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/[[\]]/g, '\\$&');
}
