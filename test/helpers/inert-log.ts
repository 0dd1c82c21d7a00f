// A CI log that carries no command it did not mean: whatever text from outside it shows (a
// server's, a pipeline file's from a pull request), no line makes GitHub, Azure, GitLab, TeamCity
// or Buildkite act.
/* eslint-disable no-control-regex -- it looks for control characters on purpose */
import assert from 'node:assert/strict';

/**
 * The part of a log line a CI system acts on (the command and its properties); what follows is
 * the message it only shows. GitHub `::cmd props::message`, Azure `##vso[cmd props]message` and
 * `##[cmd]message`, GitLab `section_start:TIME:NAME[options]` before its carriage return.
 */
const COMMAND =
  /^(::[^:]*::|::[a-z-]+$|##vso\[[^\]]*\]|##\[[a-z]+\]|\x1b\[0Ksection_(?:start|end):[^\r]*\r|section_(?:start|end):)/;

export function assertInertLog(channel: string, text: string) {
  for (const line of text.split('\n')) {
    const command = COMMAND.exec(line)?.[1];
    if (command) {
      // A command enginectl means may show the outside text in its message, never as the command itself.
      assert.doesNotMatch(
        command,
        /PWNED|set-output|stop-commands/i,
        `${channel}: outside text in a command: ${JSON.stringify(line.slice(0, 200))}`,
      );
      assert.doesNotMatch(
        line.slice(command.length),
        /^\s*PWNED/,
        `${channel}: a command of the outside text's: ${JSON.stringify(line.slice(0, 200))}`,
      );
    } else
      assert.doesNotMatch(
        line,
        /^\s*(::|##vso\[|##\[|section_(start|end):|(---|\+\+\+|~~~)[ \t]+\S|\^\^\^[ \t]+\+\+\+)/,
        `${channel}: outside text at the start of a line: ${JSON.stringify(line.slice(0, 200))}`,
      );
    // TeamCity acts on a service message wherever it is in a line; enginectl writes none.
    assert.doesNotMatch(
      line,
      /##teamcity\[/i,
      `${channel}: a TeamCity service message: ${JSON.stringify(line.slice(0, 200))}`,
    );
  }
  // Outside GitLab's own section markers, no escape sequence and no carriage return reach the log.
  const own = text.replace(/^\x1b\[0Ksection_(start|end):[^\n]*$/gm, '');
  assert.doesNotMatch(own, /\x1b|\r|\x07|\x00/, `${channel}: an escape sequence or control character reached the log`);
}
