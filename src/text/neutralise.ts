// Untrusted text (server reports, error bodies, names from files) made inert for every CI log
// parser at once, so a server cannot inject commands whichever CI prints it: GitHub workflow
// commands (`::error::`), Azure logging commands (`##vso[`, `##[group]`), TeamCity service
// messages (`##teamcity[`, acted on anywhere in a line), GitLab section markers, Buildkite's log
// groups (a line starting `--- `, `+++ `, `~~~ ` or `^^^ +++`) and any terminal escape sequence
// (ESC, CR) are broken with a zero-width space or made visible. Jenkins, CircleCI and Bitbucket
// act on no line of a log (Jenkins' console notes are escape sequences, made visible here).

import { visibleControls } from './escape.ts';

const ZWSP = '\u200B';

/**
 * What any rule below acts on: a control, `::`, `##`, `section_`, or a line that begins a
 * Buildkite marker. Text without any (a step's name, met twice at every instance of a fleet's
 * log) is inert as it is, and is searched once, not once per rule.
 */
const ACTED_ON =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|::|##|section_|^[ \t]*(?:---|\+\+\+|\^\^\^|~~~)/m;

export function neutralise(text: string): string {
  return ACTED_ON.test(text) ? everyRule(text) : text;
}

/** Every rule applied, whatever the text holds (neutralise skips text none acts on). */
export function everyRule(text: string): string {
  return (
    visibleControls(text)
      .replace(/::/g, `:${ZWSP}:`)
      .replace(/##(\s*)(vso|teamcity|\[)/gi, `#${ZWSP}#$1$2`)
      .replace(/section_(start|end):/g, `section_${ZWSP}$1:`)
      // Buildkite's agent reads `^(---|\+\+\+|~~~)\s` and `^\^\^\^\s\+\+\+` (indented too, to be safe).
      .replace(/^([ \t]*)(---|\+\+\+|\^\^\^)(?=[ \t])/gm, `$1${ZWSP}$2`)
      // `~~~ js` loses its space rather than gaining a character: still the same Markdown code fence.
      .replace(/^([ \t]*~~~)[ \t]+/gm, '$1')
  );
}

/**
 * Text from outside made inert, its further lines indented under the first (four spaces, or
 * `indent`): a line break in it (a step's name, a server's answer) starts no line of its own that
 * could pass for one the tool wrote, a verdict or a run entry. The run's log and every command
 * that prints such text use it.
 */
export function neutraliseLines(text: string, indent = '    '): string {
  return indentLines(neutralise(text), indent);
}

/** Text's further lines indented under its first, as neutraliseLines does, for text neutralised where it is printed (a plan's). */
export function indentLines(text: string, indent = '    '): string {
  return text.replace(/\r?\n/g, `\n${indent}`);
}
