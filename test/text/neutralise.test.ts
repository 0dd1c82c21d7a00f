// neutralise() skips text that no rule acts on: whatever the text, what it returns is what every
// rule applied gives (a trigger its first search missed would let a workflow command through).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { everyRule, neutralise } from '../../src/text/neutralise.ts';

const PIECES = [
  ...['a', 'site-0001', ' ', '\t', '\n', '\r\n', ':', '::', '#', '##', '## ', 'vso[', 'VSO[', 'teamcity[', '[', '_'],
  ...['section_start:', 'section_end:', 'section_', '-', '--', '---', '+++', '+', '^^^', '^', '~~~', '~', 'é'],
  ...[
    '\u0000',
    '\u0007',
    '\u000b',
    '\u001b',
    '\u007f',
    '\u0085',
    '\u009f',
    '\u200b',
    '\u202a',
    '\u202e',
    '\u2066',
    '\u2069',
  ],
];

/** A deterministic sequence of texts built from the pieces every rule looks for (mulberry32). */
function* texts(count: number, seed = 48): Generator<string> {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  for (let i = 0; i < count; i++)
    yield Array.from({ length: 1 + Math.floor(next() * 8) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
}

test('neutralise gives what every rule gives, for any text built of what the rules act on', () => {
  let changed = 0;
  for (const text of texts(50_000)) {
    const inert = everyRule(text);
    assert.equal(neutralise(text), inert, JSON.stringify(text));
    if (inert !== text) changed++;
  }
  // The texts reach every rule: most are changed by one.
  assert.ok(changed > 25_000, `${changed} of 50,000 changed`);
});

test('a text no rule acts on is returned as it is', () => {
  for (const text of ['System update prod (site=site-0001)', 'a-b_c: d # e', '-- x', 'line\n  -- y', 'é ~~ ^^ ++'])
    assert.equal(neutralise(text), text);
});
