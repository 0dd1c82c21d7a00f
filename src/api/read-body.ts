// Reading an answer's body within the size limit the server's configuration sets.
import { Buffer } from 'node:buffer';

/** The answer was larger than the limit: it was not read to its end. */
export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super('too large');
  }
}

/**
 * The body as text. Past `limit` bytes it stops (TooLarge); with `keep`, it reads on to the end
 * but holds only the first `keep` bytes. An answer of announced length is read into one buffer,
 * reserved whole once a sixteenth of it has come (readKnownLength), and decoded once: a 50 MB
 * update report is then the bytes and one string, never decoded pieces and their concatenation
 * besides (which cost 45 MB more at its peak). Decoding is
 * TextDecoder's: invalid bytes become U+FFFD and a leading byte order mark is dropped.
 */
export async function readText(
  body: AsyncIterable<Uint8Array>,
  limit: number,
  keep = Infinity,
  length = NaN,
): Promise<string> {
  if (keep === Infinity && Number.isSafeInteger(length) && length >= 0 && length <= limit)
    return readKnownLength(body, limit, length);
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit && keep === Infinity) throw new TooLarge(limit);
    if (size - chunk.length < keep)
      parts.push(decoder.decode(chunk.subarray(0, Math.max(0, keep - (size - chunk.length))), { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** An announced length this short is reserved at once. */
const RESERVED_AT_ONCE = 1024 * 1024;

/**
 * The announced length is a server's word, not bytes (a gateway's, a hostile server's 200 MiB over
 * a body that never comes, in each call of a fleet at once): until a sixteenth of it has come, the
 * chunks are kept as they came; then the whole length is reserved and they are copied in, once. What
 * is held stays within sixteen times what came, and a 50 MB answer costs 3 MB more at its peak.
 * More than announced (undici refuses that; a proxy might not) grows on rather than lose bytes.
 */
async function readKnownLength(body: AsyncIterable<Uint8Array>, limit: number, length: number): Promise<string> {
  let bytes: Buffer | undefined = length <= RESERVED_AT_ONCE ? Buffer.allocUnsafe(length) : undefined;
  const early: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    const need = size + chunk.length;
    if (need > limit) throw new TooLarge(limit);
    if (bytes === undefined) {
      early.push(chunk);
      size = need;
      if (16 * need >= length) bytes = joined(early, Math.max(length, need));
      continue;
    }
    if (need > bytes.length)
      bytes = joined([bytes.subarray(0, size)], Math.min(limit, Math.max(2 * bytes.length, need)));
    bytes.set(chunk, size);
    size = need;
  }
  const text = (bytes ?? joined(early, size)).toString('utf8', 0, size);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `parts` copied into a buffer of `capacity` bytes, the rest not filled. */
function joined(parts: readonly Uint8Array[], capacity: number): Buffer {
  const bytes = Buffer.allocUnsafe(capacity);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
