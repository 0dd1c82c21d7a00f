// A test's own HTTP(S) servers on 127.0.0.1 (proxies, redirects, TLS), closed after the test, and
// the TLS certificates of test/fixtures/tls.
import type { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

export const tlsFixture = (name: string) => fileURLToPath(new URL(`../fixtures/tls/${name}`, import.meta.url));

/** Listens on a free port of 127.0.0.1; the server is closed after the test. */
export async function listen(t: TestContext, server: ReturnType<typeof createServer>): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}
