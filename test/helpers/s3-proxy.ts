// A proxy in front of an S3 endpoint (RGW), headers untouched (the Host header is signed): a test
// sees each request with its body before it is forwarded (and may hold it) and once it was answered.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * An answer the proxy gives instead of RGW's: the request is not forwarded, unless `forwarded` (RGW
 * did it; its answer lost). `cut`: RGW's own answer, its status, headers and the first half of its
 * body, then the connection reset (a network cut mid-body; status and body are unused).
 */
export interface ProxyAnswer {
  status: number;
  body: string;
  forwarded?: boolean;
  cut?: boolean;
  /** RGW's own answer, its body rewritten by this (a listing that lags: keys left out); status and body are unused. */
  rewrite?: (body: string) => string;
}

/** RGW's answer with its body rewritten by `rewrite`. */
export const rewritten = (rewrite: (body: string) => string): ProxyAnswer => ({
  status: 0,
  body: '',
  forwarded: true,
  rewrite,
});

/** A ListObjectsV2 answer without its last `n` keys: a listing that lags the keys just created (an NFS client's cached directory, an eventually consistent S3). */
export function withoutNewest(xml: string, n = 1): string {
  const keys = [...xml.matchAll(/<Contents>[^]*?<\/Contents>/g)];
  const kept = keys.slice(0, Math.max(0, keys.length - n));
  const left = keys.slice(kept.length);
  let out = xml;
  for (const k of left) out = out.replace(k[0], '');
  return out.replace(/<KeyCount>\d+<\/KeyCount>/, `<KeyCount>${kept.length}</KeyCount>`);
}

/** RGW's answer cut mid-body: its headers (Content-Length the whole body's) and half its body, then the connection reset. */
export const CUT_MID_BODY: ProxyAnswer = { status: 0, body: '', forwarded: true, cut: true };

/** S3's own front end throttling: 503 SlowDown (the SDK retries it, then fails the request). */
export const SLOW_DOWN: ProxyAnswer = {
  status: 503,
  body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message><RequestId>tx-proxy</RequestId></Error>',
};

/**
 * A proxy in front of RGW, headers untouched (the Host header is signed): `answered` sees each
 * request with its body once RGW answered it, before the answer goes on; `before` sees it before it
 * is forwarded, and a promise it returns holds it until it settles; an answer it returns (or
 * settles with) is given instead, the request not forwarded (forwarded first when the answer says
 * `forwarded`: RGW did it, and its answer was lost). Its endpoint.
 */
export async function proxyInFront(
  t: TestContext,
  upstream: string,
  answered: (method: string, path: string, body: string) => void,
  before?: (
    method: string,
    path: string,
    body: string,
    query: URLSearchParams,
  ) => void | ProxyAnswer | Promise<void> | Promise<ProxyAnswer | undefined>,
): Promise<string> {
  const target = new URL(upstream);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await bodyOf(req);
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://x');
    const instead = await before?.(method, url.pathname, body.toString('utf8'), url.searchParams);
    const answerInstead = () => {
      res.writeHead(instead!.status, { 'content-type': 'application/xml' });
      res.end(instead!.body);
    };
    if (instead && !instead.forwarded) return answerInstead();
    const forwarded = request(
      { host: target.hostname, port: target.port, method, path: req.url, headers: req.headers },
      (answer) => void forward(answer).catch(() => res.destroy()),
    );
    const forward = async (answer: IncomingMessage) => {
      const text = await bodyOf(answer);
      answered(method, new URL(req.url ?? '/', 'http://x').pathname, body.toString('utf8'));
      if (instead?.cut) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.write(text.subarray(0, Math.floor(text.length / 2)));
        // Once the half is on the wire: the client reads it, then the reset.
        return void res.socket?.end(() => res.socket?.destroy());
      }
      if (instead?.rewrite) {
        // Its Content-Length the rewritten body's, as a proxy that rewrites bodies sends it.
        const body = Buffer.from(instead.rewrite(text.toString('utf8')));
        const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': body.length });
        return void res.end(body);
      }
      if (instead) return answerInstead();
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.end(text);
    };
    forwarded.on('error', () => (res.writeHead(502), res.end()));
    forwarded.end(body);
  };
  // A client gone mid-request (a CLI killed, or cut by its grace, as the test ends) rejects the
  // read of its body ("aborted"): its answer is dropped, never an unhandled rejection after the test.
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
