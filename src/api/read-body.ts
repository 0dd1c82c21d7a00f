// Reading an answer's body within the size limit the server's configuration sets.

/** The answer was larger than the limit: it was not read to its end. */
export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super('too large');
  }
}

/**
 * The body as text, decoded chunk by chunk: a 50 MB update report never sits in memory as chunks,
 * their concatenation and the string at once (body.text() holds all three). Past `limit` bytes it
 * stops (TooLarge); with `keep`, it reads on to the end but holds only the first `keep` bytes.
 */
export async function readText(body: AsyncIterable<Uint8Array>, limit: number, keep = Infinity): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit && keep === Infinity) throw new TooLarge(limit);
    if (size - chunk.length < keep) parts.push(decoder.decode(chunk.subarray(0, Math.max(0, keep - (size - chunk.length))), { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}
