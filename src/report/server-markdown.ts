// The server's Markdown reports as HTML, safely: raw HTML is shown as text, links keep only
// http(s), mailto and in-page targets, images are not loaded (the report works offline); and in
// bounded time: a page renders Markdown only within its budget of marked's worst case.
import { Lexer, Marked, type Tokens } from 'marked';
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

/**
 * What one page renders as Markdown, in marked's worst case. Its inline pass takes time growing
 * with the square of each text it is given (a paragraph, a heading, a table cell, a list item's
 * text) on hostile input: `_*a` repeated took 0.6 s for 8 KiB, 2.9 s for 16 KiB and 9.8 s for
 * 32 KiB (on 2 shared cores; `*a` took 1 s for 64 KiB), so a 1 MiB report could take hours. A
 * report is charged the squares of those texts' lengths (found by the block pass, about linear)
 * and rendered only if the page's charges stay within one 16 KiB paragraph's: about 3 s at worst,
 * whatever the reports hold. A report of short paragraphs (a table of 30,000 rows) costs little.
 */
export const INLINE_BUDGET = (16 * 1024) ** 2;

/** What is left of a page's budget (INLINE_BUDGET), charged by each report it renders. */
export interface MarkdownBudget {
  left: number;
}

export function markdownBudget(): MarkdownBudget {
  return { left: INLINE_BUDGET };
}

/** What marked's inline pass is charged for `markdown`: the sum of the squares of the texts it would be given. */
function inlineCost(markdown: string): number {
  const lexer = new Lexer({ gfm: true });
  lexer.blockTokens(markdown, lexer.tokens);
  let cost = 0;
  for (const { src } of lexer.inlineQueue) cost += src.length ** 2;
  return cost;
}

const asText = (note: string, text: string) =>
  `<p class="note">${note}</p><pre class="plain">${escapeHtml(text)}</pre>`;

/** A report as HTML: rendered from Markdown if `budget` holds what it costs (then charged), else shown as plain text. */
export function markdownToHtml(markdown: string, budget: MarkdownBudget): string {
  if (markdown.length > MARKDOWN_LIMIT) {
    const kib = (n: number) => `${Math.round(n / 1024)} KiB`;
    return asText(
      `This report is ${kib(markdown.length)}: its first ${kib(MARKDOWN_LIMIT)} are shown as plain text; the JSON report holds it whole (the step's <code>result.report</code>).`,
      markdown.slice(0, MARKDOWN_LIMIT),
    );
  }
  const text = visibleControls(markdown.replace(/\r\n/g, '\n'));
  try {
    const cost = inlineCost(text);
    if (cost > INLINE_BUDGET)
      return asText(
        'This report is shown as plain text: its paragraphs are too long to render as Markdown in a bounded time.',
        markdown,
      );
    if (cost > budget.left)
      return asText(
        'This report is shown as plain text: the reports above it used what this page renders as Markdown.',
        markdown,
      );
    budget.left -= cost;
    return marked.parse(text) as string;
  } catch {
    // marked recurses once per level of nesting: a report nested deeper than its stack (6,000
    // quotes in 12 KB) throws RangeError, which cost the whole HTML report. It is shown as text.
    return asText('This report is nested too deep to be shown as Markdown: it is shown as plain text.', markdown);
  }
}
