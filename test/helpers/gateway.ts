// A reverse proxy in front of a server, as operators run one (nginx, a load balancer): it forwards
// every request to the server and, for the paths it is told, answers its own error page instead
// of the server's answer once the server has answered (a read timeout shorter than the call, the
// upstream restarting). The server applied the request; the client hears only the gateway.
import { createServer, request, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

const page = (status: number) =>
  `<html>\r\n<head><title>${status} ${STATUS_CODES[status]}</title></head>\r\n<body>\r\n<center><h1>${status} ${STATUS_CODES[status]}</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n`;

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Serves the proxy on 127.0.0.1; `replace(method, path)` gives the status the gateway answers
 * instead, or undefined to pass the answer on; `before(method, path)` sees each request before it
 * is forwarded (what a test checks at the moment a request reaches the server); a promise it
 * returns holds the request until it settles. `after(method, path)` sees each request once the
 * server answered it (the change made); a promise it returns holds the answer until it settles.
 */
export async function gatewayInFront(
  t: TestContext,
  upstream: string,
  replace: (method: string, path: string, headers: IncomingMessage['headers']) => number | undefined,
  before?: (method: string, path: string) => void | Promise<void>,
  after?: (method: string, path: string) => void | Promise<void>,
): Promise<string> {
  const target = new URL(upstream);
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    await before?.(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x').pathname);
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      async (answer) => {
        // An answer the server cut (reset mid-answer, a body cut short) is cut for the client too.
        const text = await bodyOf(answer).catch(() => undefined);
        if (text === undefined) return void res.socket?.destroy();
        const status = replace(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x').pathname, req.headers);
        await after?.(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x').pathname);
        if (status === undefined) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(text);
          return;
        }
        res.writeHead(status, { 'content-type': 'text/html', server: 'nginx/1.24.0' });
        res.end(page(status));
      },
    );
    forwarded.on('error', () => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(page(502));
    });
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
