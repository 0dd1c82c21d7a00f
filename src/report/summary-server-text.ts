// A server's own Markdown report inside the summary: still Markdown, but inert (no raw HTML, no
// images, safe links only), its headings below the summary's, a fence it leaves open closed. Its
// blocks are read as CommonMark reads them (marked's lexer, the HTML report's parser): a line that
// only looks like a closing fence (``` end of log), a fence in a list item, a setext heading, a
// link definition in a quote or with its label over two lines are what a renderer makes of them,
// never what a line-by-line guess makes of them.
import { Lexer, type Token, type Tokens, type TokensList } from 'marked';
import { neutralise } from '../text/neutralise.ts';
import { noMentions } from '../text/escape.ts';

/** Links the summary keeps: http(s), mailto and in-page; anything else (javascript:) goes. */
const SAFE_LINK = /^(https?:|mailto:|#)/i;
const UNSAFE_INLINE_LINK = /\]\(\s*<?(?!https?:|mailto:|#)[^)\s>]*>?/gi;
const UNSAFE_LINK_DEFINITION = /^(\s{0,3}\[[^\]\n]+\]:\s*)(?!https?:|mailto:|#)\S+/gim;
const REMOVED = '#unsafe-link-removed';

/**
 * Its blocks and link definitions, as CommonMark reads them; their inline text is not parsed (its
 * links are cut by pattern, above: the inline pass of a parser can take minutes on a few hundred
 * KB of `*a*a...`). marked's block pass is about linear (a MiB of deep lists: seconds), but
 * recursive: too deep a nesting of quotes throws RangeError, and the report is shown as text.
 */
function blocksOf(markdown: string): TokensList {
  const lexer = new Lexer({ gfm: true });
  const blocks = lexer.blockTokens(markdown, []);
  return Object.assign(blocks, { links: lexer.tokens.links });
}

/**
 * Server text inside the summary, still Markdown (headings, lists, tables render) but inert: raw
 * HTML is shown as text, so it cannot close <details>; images are not loaded; links to anything
 * but http(s), mailto and anchors are cut; control characters are made visible and CI commands
 * broken, so the file stays inert wherever it is printed.
 */
function serverMarkdown(text: string): string {
  return noMentions(neutralise(text.replace(/\r\n/g, '\n')))
    .replace(/</g, '&lt;')
    .replace(/!\[/g, '!\\[')
    .replace(UNSAFE_INLINE_LINK, `](${REMOVED}`)
    .replace(UNSAFE_LINK_DEFINITION, `$1${REMOVED}`);
}

/** A heading as an ATX one three levels down (at most h6): a setext heading's lines joined on one. */
function demoted(heading: Tokens.Heading): string {
  const text = heading.text.replace(/[ \t]*\n[ \t]*/g, ' ').trim();
  // Text ending in ` #` would be read as a closing sequence and lost: a closing sequence of ours keeps it.
  const close = /(^|[ \t])#+$/.test(text) ? ' #' : '';
  return `${'#'.repeat(Math.min(6, heading.depth + 3))} ${text}${close}${/\n*$/.exec(heading.raw)![0]}`;
}

/**
 * The fence that closes a fenced code block left open, per CommonMark: the same character, at
 * least as long, nothing after it but spaces. An open one runs to the end: it is the last block.
 */
function closingFence(block: Token | undefined): string {
  if (block?.type !== 'code') return '';
  const lines = block.raw.replace(/\n+$/, '').split('\n');
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0]!)?.[1];
  if (!open) return ''; // indented code: the next line that is not indented ends it
  const closing = new RegExp(`^ {0,3}\\${open[0]}{${open.length},}[ \\t]*$`);
  if (lines.length > 1 && closing.test(lines.at(-1)!)) return '';
  return `${block.raw.endsWith('\n') ? '' : '\n'}${open}\n`;
}

/**
 * A server's report held inside its section: its top-level headings (ATX or setext) demoted below
 * the summary's, a code fence it leaves open closed, so nothing after it (the next step's report,
 * the errors) is swallowed into it; and every label it defines with an unsafe destination, in a
 * quote, a list or over two lines, defined first as a harmless anchor (the first definition of a
 * label is the one its references take).
 */
function contained(markdown: string): string {
  const blocks = blocksOf(markdown);
  const body = blocks.map((b) => (b.type === 'heading' ? demoted(b as Tokens.Heading) : b.raw)).join('');
  const overrides = Object.entries(blocks.links)
    .filter(([, link]) => !SAFE_LINK.test(link.href.trim()))
    .map(([label]) => `[${label}]: ${REMOVED}\n`);
  return `${overrides.length ? `${overrides.join('')}\n` : ''}${body}${closingFence(blocks.at(-1))}`;
}

/** The text as a code block, shown as it is: a fence longer than any run of backticks in it. */
function asText(text: string): string {
  const shown = noMentions(neutralise(text.replace(/\r\n/g, '\n')));
  const fence = '`'.repeat(Math.max(3, ...(shown.match(/`+/g) ?? []).map((run) => run.length + 1)));
  return `${fence}\n${shown}\n${fence}`;
}

/** A server's report as the summary holds it: its Markdown made inert, or its text when it cannot be read as Markdown. */
export function serverReportMarkdown(text: string): string {
  try {
    return contained(serverMarkdown(text));
  } catch {
    return asText(text);
  }
}
