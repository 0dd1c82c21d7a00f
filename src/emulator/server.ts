// Serves an Emulator on a socket (node:http) and applies its fault rules to each request:
// latency, status, dropped connections, truncated, garbled or slow bodies, no answer at all.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Emulator } from './emulator.ts';
import type { Sites } from './sites.ts';
import { echoCredentials } from './echo.ts';
import type { FaultRule } from './faults.ts';
import { HttpProblem, type EmuRequest, type EmuResponse } from './http.ts';

export interface ServeOptions {
  port?: number;
  host?: string;
  /** Largest request body accepted; 16 MiB by default. */
  maxBodyBytes?: number;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Waits `ms`, or less when the client goes away first (so no timer outlives its connection). */
const delay = (ms: number, res?: ServerResponse) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      res?.off('close', done);
      resolve();
    }
    res?.once('close', done);
  });

function describe(rule: FaultRule): string {
  const parts = Object.entries(rule)
    .filter(([k, v]) => k !== 'path' && k !== 'method' && k !== 'times' && v !== undefined)
    .map(([k, v]) => (v === true ? k : `${k}=${String(v)}`));
  return parts.join(' ');
}

async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, answer: EmuResponse, body = answer.body ?? ''): void {
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body ?? '') });
  res.end(body);
}

/** What nginx answers in front of an upstream that did not answer in time (or failed): its own HTML page. */
function gatewayPage(status: number): EmuResponse {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return {
    status,
    headers: { 'content-type': 'text/html' },
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  };
}

/** The whole answer as bytes on the wire, for faults that cut it anywhere. */
function wire(answer: EmuResponse, body: Buffer): Buffer {
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`];
  for (const [k, v] of Object.entries(answer.headers ?? {})) if (v !== undefined) head.push(`${k}: ${v}`);
  head.push(`content-length: ${body.length}`, 'connection: close', '', '');
  return Buffer.concat([Buffer.from(head.join('\r\n')), body]);
}

async function cut(res: ServerResponse, bytes: Buffer): Promise<void> {
  res.socket?.write(bytes);
  await delay(10);
  res.socket?.destroy();
}

async function respond(res: ServerResponse, answer: EmuResponse, rule: FaultRule | undefined): Promise<void> {
  const body = Buffer.from(answer.body ?? '');
  if (rule?.reset === 'after') {
    // Half of the answer, head included: an empty body is cut inside its headers.
    const bytes = wire(answer, body);
    return cut(res, bytes.subarray(0, Math.floor(bytes.length / 2)));
  }
  if (rule?.truncate) {
    // The whole head, then half of the body it announces; an empty body announces one byte.
    const announced = body.length > 0 ? body : Buffer.from(' ');
    const bytes = wire(answer, announced);
    return cut(res, bytes.subarray(0, bytes.length - announced.length + Math.floor(body.length / 2)));
  }
  if (rule?.invalidJson) {
    send(res, { ...answer, headers: { 'content-type': 'application/json' }, body: '{"broken": ' });
    return;
  }
  if (rule?.chunkDelayMs) {
    // The head at once, then the body in up to 16 chunks, each after the delay (an empty body
    // ends after one delay).
    res.writeHead(answer.status, { ...answer.headers, 'content-length': body.length });
    const size = Math.max(1, Math.ceil(body.length / 16));
    let i = 0;
    do {
      await delay(rule.chunkDelayMs, res);
      if (res.destroyed) return;
      res.write(body.subarray(i, i + size));
      i += size;
    } while (i < body.length);
    res.end();
    return;
  }
  send(res, answer);
}

/** Serves one emulator, or several sites (sites.ts) at /sites/NAME/. */
export async function serve(target: Emulator | Sites, options: ServeOptions = {}): Promise<RunningEmulator> {
  const limit = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const locate =
    target instanceof Emulator
      ? (path: string) => ({ site: target, path, name: undefined as string | undefined })
      : (path: string) => target.locate(path);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = req.method ?? 'GET';
    const { site: emulator, path, name } = locate(url.pathname);
    const isControl = path.startsWith('/_emulator/');
    const rule = isControl ? undefined : emulator.faults.take(method, path, name);
    const record = { method, path, status: 0, at: emulator.now(), ...(rule ? { fault: describe(rule) } : {}) };
    // The log holds the API requests received; the emulator's own control calls are not in it.
    if (!isControl) {
      emulator.requests.push(record);
      emulator.inFlight += 1;
      emulator.peakInFlight = Math.max(emulator.peakInFlight, emulator.inFlight);
      res.once('close', () => (emulator.inFlight -= 1));
    }
    try {
      const body = await readBody(req, limit);
      if (rule?.latencyMs) await delay(rule.latencyMs, res);
      if (res.destroyed) return;
      if (rule?.hang) return; // the socket stays open until the client gives up
      if (rule?.reset === 'before') {
        req.socket.destroy();
        return;
      }
      let answer: EmuResponse;
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const emuReq: EmuRequest = { method, path, query: url.searchParams, headers, body: body ?? '' };
      if (body === undefined)
        answer = new HttpProblem(
          413,
          'payload_too_large',
          `the request body is larger than ${limit} bytes`,
        ).toResponse();
      else if (rule?.status !== undefined) {
        answer =
          rule.body !== undefined
            ? {
                status: rule.status,
                headers: { 'content-type': rule.contentType ?? 'application/json' },
                body: rule.body,
              }
            : new HttpProblem(
                rule.status,
                'injected_fault',
                `fault injected by the emulator: HTTP ${rule.status}`,
              ).toResponse();
      } else {
        answer = emulator.handle(emuReq);
        if (method !== 'GET' && answer.status >= 200 && answer.status < 300) Object.assign(record, { applied: true });
        if (rule?.gateway !== undefined) answer = gatewayPage(rule.gateway);
      }
      if (rule?.echoCredentials) answer = echoCredentials(emuReq, answer);
      if (rule && answer.status < 300 && (rule.raiseAlert || rule.stopEngine)) emulator.sideEffects(rule);
      record.status = answer.status;
      await respond(res, answer, rule);
    } catch (error) {
      record.status = 500;
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ status: 500, error: 'internal', message: `emulator failure: ${(error as Error).message}` }),
      );
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
