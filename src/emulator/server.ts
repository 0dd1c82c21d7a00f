// Serves an Emulator on a socket (node:http) and applies the fault rule a request matches, stage by
// stage, through the hooks of the rule's fault kinds (faults/kinds.ts): before handling, instead of
// it, in place of the API's answer, rewriting the answer, after a 2xx, and in sending it.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Emulator } from './emulator.ts';
import type { Sites } from './sites.ts';
import { describeRule, kindsOf } from './faults/index.ts';
import { send } from './faults/wire.ts';
import { HttpProblem, type EmuRequest, type EmuResponse } from './http.ts';
import { MAX_REQUEST_BODY_BYTES } from '../api/exchange.ts';

export interface ServeOptions {
  port?: number;
  host?: string;
  /** Largest request body accepted; MAX_REQUEST_BODY_BYTES (16 MiB) by default, as enginectl api sends. */
  maxBodyBytes?: number;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
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

/** Serves one emulator, or several sites (sites.ts) at /sites/NAME/. */
export async function serve(target: Emulator | Sites, options: ServeOptions = {}): Promise<RunningEmulator> {
  const limit = options.maxBodyBytes ?? MAX_REQUEST_BODY_BYTES;
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
    const kinds = rule ? kindsOf(rule) : [];
    const record = { method, path, status: 0, at: emulator.now(), ...(rule ? { fault: describeRule(rule) } : {}) };
    // The answer's Date is the emulator's clock (the simulated one under a test or --clock), as a
    // server's is its own: what it stamps (an Engine's updatedAt) is read against it.
    res.setHeader('date', new Date(record.at).toUTCString());
    // The log holds the API requests received; the emulator's own control calls are not in it.
    if (!isControl) {
      emulator.requests.push(record);
      emulator.inFlight += 1;
      emulator.peakInFlight = Math.max(emulator.peakInFlight, emulator.inFlight);
      res.once('close', () => (emulator.inFlight -= 1));
    }
    try {
      const body = await readBody(req, limit);
      for (const kind of kinds) if (kind.before && (await kind.before(rule!, res))) return;
      if (res.destroyed) return;
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const emuReq: EmuRequest = { method, path, query: url.searchParams, headers, body: body ?? '' };
      let answer: EmuResponse | undefined;
      if (body === undefined)
        answer = new HttpProblem(
          413,
          'payload_too_large',
          `the request body is larger than ${limit} bytes`,
        ).toResponse();
      for (const kind of kinds) answer ??= kind.instead?.(rule!);
      if (answer === undefined) {
        answer = emulator.handle(emuReq);
        if (method !== 'GET' && answer.status >= 200 && answer.status < 300) Object.assign(record, { applied: true });
        for (const kind of kinds) if (kind.handled) answer = kind.handled(rule!, answer);
      }
      for (const kind of kinds) if (kind.rewrite) answer = kind.rewrite(rule!, answer, emuReq);
      if (answer.status < 300) for (const kind of kinds) kind.effect?.(rule!, emulator);
      record.status = answer.status;
      for (const kind of kinds) if (kind.send && (await kind.send(rule!, res, answer))) return;
      send(res, answer);
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
