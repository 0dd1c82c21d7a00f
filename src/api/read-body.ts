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
 * but holds only the first `keep` bytes. An answer of announced length is read into one buffer of
 * that size and decoded once: a 50 MB update report is then the bytes and one string, never
 * decoded pieces and their concatenation besides (which cost 45 MB more at its peak). Decoding is
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

async function readKnownLength(body: AsyncIterable<Uint8Array>, limit: number, length: number): Promise<string> {
  let bytes = Buffer.allocUnsafe(length);
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > limit) throw new TooLarge(limit);
    // More than announced (undici refuses that; a proxy might not): grow rather than lose bytes.
    if (size + chunk.length > bytes.length)
      bytes = Buffer.concat(
        [bytes.subarray(0, size)],
        Math.min(limit, Math.max(2 * bytes.length, size + chunk.length)),
      );
    bytes.set(chunk, size);
    size += chunk.length;
  }
  const text = bytes.toString('utf8', 0, size);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
