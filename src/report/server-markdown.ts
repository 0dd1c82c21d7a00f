// The server's Markdown reports as HTML, safely: raw HTML is shown as text, links keep only
// http(s), mailto and in-page targets, images are not loaded (the report works offline).
import { Marked, type Tokens } from 'marked';
import { escapeHtml, visibleControls } from '../text/escape.ts';
import { MARKDOWN_LIMIT } from '../text/markdown-limit.ts';

const SAFE_URL = /^(https?:|mailto:|#)/i;

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, text, tokens }: Tokens.Link) {
      const label = tokens ? this.parser.parseInline(tokens) : escapeHtml(text);
      return SAFE_URL.test(href.trim())
        ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer">${label}</a>`
        : label;
    },
    image({ text }: Tokens.Image) {
      return `<span class="image">[image: ${escapeHtml(text)}]</span>`;
    },
  },
});

/**
 * Reports up to MARKDOWN_LIMIT are rendered as Markdown. A bigger one is shown as plain text, its
 * first MARKDOWN_LIMIT characters only: Markdown parsing costs many times its input (a 50 MB
 * report took 2 GB and 24 s), and a page of 50 MB is of no use in a browser. The JSON report
 * keeps every report whole.
 */
export { MARKDOWN_LIMIT };

export function markdownToHtml(markdown: string): string {
  if (markdown.length > MARKDOWN_LIMIT) {
    const kib = (n: number) => `${Math.round(n / 1024)} KiB`;
    return `<p class="note">This report is ${kib(markdown.length)}: its first ${kib(MARKDOWN_LIMIT)} are shown as plain text; the JSON report holds it whole (the step's <code>result.report</code>).</p><pre class="plain">${escapeHtml(markdown.slice(0, MARKDOWN_LIMIT))}</pre>`;
  }
  try {
    return marked.parse(visibleControls(markdown.replace(/\r\n/g, '\n'))) as string;
  } catch {
    // marked recurses once per level of nesting: a report nested deeper than its stack (6,000
    // quotes in 12 KB) throws RangeError, which cost the whole HTML report. It is shown as text.
    return `<p class="note">This report is nested too deep to be shown as Markdown: it is shown as plain text.</p><pre class="plain">${escapeHtml(markdown)}</pre>`;
  }
}
