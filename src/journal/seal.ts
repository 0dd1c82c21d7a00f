// A journal sealed with a key the user holds (ENGINECTL_JOURNAL_KEY, a CI secret): each record
// carries `"mac"`, an HMAC-SHA-256 of the record's text without it, chained to the record before
// (the first to the empty string), so a record edited (its CRC recomputed), inserted, removed or
// moved is refused at its line. The CRC tells a torn line from a whole one; only the seal tells a
// record enginectl wrote from one written by whoever had the file. A journal read without the key
// is trusted as a file is: the reader's own disk, nothing from elsewhere.
import { createHmac } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { UsageError } from '../errors.ts';
import { crcMember } from './frame.ts';
import { CLI_WAYS, sealRefused } from '../ways-on.ts';

/** The environment variable that holds the key. */
export const JOURNAL_KEY_VARIABLE = 'ENGINECTL_JOURNAL_KEY';

const SEALED = /,"mac":"([0-9a-f]{64})","crc":"[0-9a-f]{8}"}$/;

/** The key of the environment, when one is set: at least 16 characters (a CI secret, not a word). */
export function journalKey(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const key = env[JOURNAL_KEY_VARIABLE];
  if (key === undefined || key === '') return undefined;
  if (key.length < 16)
    throw new UsageError(
      'BAD_ARGUMENTS',
      `${JOURNAL_KEY_VARIABLE} is ${key.length} characters long: a journal's key is at least 16`,
      { hint: 'set it to a random secret of the CI system (openssl rand -hex 32); nothing was run' },
    );
  return key;
}

function mac(key: string, previous: string, parts: readonly Buffer[]): string {
  const h = createHmac('sha256', key).update(previous);
  for (const p of parts) h.update(p);
  return h.update('}').digest('hex');
}

/**
 * A record's line (encodeLineBytes: the record without its closing brace in pieces, then its CRC
 * member) sealed: the MAC member inserted before the CRC, which then covers it too.
 */
export function sealLine(pieces: readonly Buffer[], key: string, previous: string): { pieces: Buffer[]; mac: string } {
  const payload = pieces.slice(0, -1);
  const sealed = mac(key, previous, payload);
  const member = Buffer.from(`,"mac":"${sealed}"`);
  let crc = 0;
  for (const p of payload) crc = crc32(p, crc);
  crc = crc32(member, crc);
  crc = crc32(Buffer.from('}'), crc);
  return { pieces: [...payload, member, crcMember(crc)], mac: sealed };
}

/** Whether the journal's first record is sealed (it was written with a key). */
export function isSealed(text: string): boolean {
  const end = text.indexOf('\n');
  return end > 0 && SEALED.test(text.slice(0, end));
}

/**
 * Checks every whole line's seal in order; returns the last MAC (what the next record chains to).
 * A line without a seal, or whose seal is not the key's, is refused at its line (exit 2).
 */
export function checkSeals(text: string, path: string, key: string, wholeBytes: number, ways = CLI_WAYS): string {
  let previous = '';
  let offset = 0;
  let n = 0;
  const whole = Buffer.from(text).subarray(0, wholeBytes).toString('utf8');
  while (offset < whole.length) {
    n++;
    const end = whole.indexOf('\n', offset);
    const line = whole.slice(offset, end < 0 ? whole.length : end);
    offset = end < 0 ? whole.length : end + 1;
    const m = SEALED.exec(line);
    const refuse = (why: string) =>
      new UsageError('JOURNAL_UNAUTHENTICATED', `${path}:${n}: ${why}`, {
        hint: `nothing was run: a journal sealed with ${JOURNAL_KEY_VARIABLE} is trusted only whole and unaltered; ${sealRefused(ways, n)}`,
      });
    if (!m)
      throw refuse(
        `a record without a seal, while ${JOURNAL_KEY_VARIABLE} is set (the journal was written without the key, or the record was added since)`,
      );
    const expected = mac(key, previous, [Buffer.from(line.slice(0, m.index))]);
    if (expected !== m[1])
      throw refuse('a record whose seal is not that of this key (altered, moved, or written with another key)');
    previous = m[1]!;
  }
  return previous;
}
