// An answer's body decodes the same whether its length is announced (read into one buffer) or
// chunked (decoded piece by piece): a byte order mark dropped, invalid bytes as U+FFFD, multi-byte
// characters split across chunks kept whole, and the size limit held either way.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { EngineClient } from '../../src/api/index.ts';
import { readText } from '../../src/api/read-body.ts';
import { listen } from '../helpers/http.ts';

const BODY = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from('[{"iclass":22,"ikey":1,"entidade":3001,"nome":"Jos'),
  Buffer.from([0xc3]),
  Buffer.from([0xa9, 0x20, 0xff]),
  Buffer.from(`","nota":"${'x'.repeat(70_000)}"}]`),
]);

async function served(t: import('node:test').TestContext, chunked: boolean, maxResponseBytes?: number) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': BODY.length }) });
    // Written in pieces that split the two-byte é between them.
    res.write(BODY.subarray(0, 33));
    setImmediate(() => res.end(BODY.subarray(33)));
  });
  const port = await listen(t, server);
  const client = new EngineClient({
    url: `http://127.0.0.1:${port}`,
    username: 'a',
    password: 'b',
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  });
  t.after(() => client.close());
  return client;
}

for (const chunked of [false, true]) {
  test(`a ${chunked ? 'chunked' : 'length-announced'} answer: BOM dropped, invalid bytes replaced, split characters whole`, async (t) => {
    const client = await served(t, chunked);
    const rows = (await client.classes.list(22, {})) as unknown as { nome: string; nota: string }[];
    assert.equal(rows[0]!.nome, 'José \uFFFD');
    assert.equal(rows[0]!.nota.length, 70_000);
  });

  test(`a ${chunked ? 'chunked' : 'length-announced'} answer over the size limit is refused, not read whole`, async (t) => {
    const client = await served(t, chunked, 1024);
    await assert.rejects(
      client.classes.list(22, {}),
      (error: Error & { code?: string }) => error.code === 'API_RESPONSE_TOO_LARGE',
    );
  });
}

// An announced length is a server's word, not bytes: a gateway's or a hostile server's
// `content-length: 200 MiB` over a body that never comes reserved all of it at once, in every call
// of a fleet at the same time (50 at once: 10 GiB asked of the machine before one byte came). What
// is held grows with what came, twice it at most, and the bytes that came are decoded whole.
test('an announced length is not reserved before its bytes come', async () => {
  const announced = 200 * 1024 * 1024;
  const first = Buffer.from('["' + 'x'.repeat(64 * 1024));
  let heldAfterFirst = 0;
  async function* body(): AsyncGenerator<Uint8Array> {
    yield first;
    // The reader has taken the first chunk: what does it hold now?
    heldAfterFirst = process.memoryUsage().arrayBuffers - before;
    yield Buffer.from('"]');
  }
  const before = process.memoryUsage().arrayBuffers;
  const text = await readText(body(), 256 * 1024 * 1024, Infinity, announced);
  assert.equal(text.length, first.length + 2, 'what came, decoded whole');
  assert.ok(heldAfterFirst < 16 * 1024 * 1024, `held ${heldAfterFirst} bytes after 64 KiB came`);
});

test('an announced length read in many pieces, before and after it is reserved, decodes as one text', async () => {
  const whole = Buffer.from(`["${'é€x'.repeat(600_000)}"]`);
  for (const announced of [whole.length, whole.length - 100]) {
    // Pieces of an odd size split the two- and three-byte characters between them.
    async function* body(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < whole.length; at += 65_537) yield whole.subarray(at, at + 65_537);
    }
    const text = await readText(body(), 256 * 1024 * 1024, Infinity, announced);
    assert.equal(text, whole.toString('utf8'), `announced ${announced} of ${whole.length}`);
  }
});
