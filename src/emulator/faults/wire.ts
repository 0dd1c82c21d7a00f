// The bytes of an answer on the wire, for the fault kinds that send it their own way: a wait that
// ends when the client goes away, the answer sent whole, the answer as raw bytes, and a cut
// connection.
import type { ServerResponse } from 'node:http';
import { statusText } from './status-text.ts';
import type { EmuResponse } from '../http.ts';

/** Waits `ms`, or less when the client goes away first (so no timer outlives its connection). */
export const delay = (ms: number, res?: ServerResponse) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      res?.off('close', done);
      resolve();
    }
    res?.once('close', done);
  });

export function send(res: ServerResponse, answer: EmuResponse, body = answer.body ?? ''): void {
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body ?? '') });
  res.end(body);
}

/** The whole answer as bytes on the wire, for faults that cut it anywhere. */
export function wire(answer: EmuResponse, body: Buffer): Buffer {
  const head = [`HTTP/1.1 ${answer.status} ${statusText(answer.status) ?? ''}`];
  for (const [k, v] of Object.entries(answer.headers ?? {})) if (v !== undefined) head.push(`${k}: ${v}`);
  head.push(`content-length: ${body.length}`, 'connection: close', '', '');
  return Buffer.concat([Buffer.from(head.join('\r\n')), body]);
}

/** Writes these bytes, then drops the connection. */
export async function cut(res: ServerResponse, bytes: Buffer): Promise<void> {
  res.socket?.write(bytes);
  await delay(10);
  res.socket?.destroy();
}
