// An answer's body decodes the same whether its length is announced (read into one buffer) or
// chunked (decoded piece by piece): a byte order mark dropped, invalid bytes as U+FFFD, multi-byte
// characters split across chunks kept whole, and the size limit held either way.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { EngineClient } from '../../src/api/index.ts';
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
