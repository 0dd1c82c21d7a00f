// Test helpers: an emulator served on 127.0.0.1 with a fresh state per test, and clients of it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { EngineClient, type ClientDeps } from '../../src/api/index.ts';
import { Emulator, serve, type EmulatorOptions } from '../../src/emulator/index.ts';

/** Retries as in production, but with millisecond waits. */
export const FAST_RETRY = { retries: 3, baseDelayMs: 1, maxDelayMs: 5 };

export async function startEmulator(t: TestContext, options: EmulatorOptions = {}) {
  const emulator = new Emulator(options);
  const running = await serve(emulator, { port: 0 });
  t.after(() => running.close());
  const client = (user = 'admin', password = user, deps: ClientDeps = {}, timeoutMs?: number) => {
    const c = new EngineClient({ url: running.url, username: user, password, timeoutMs }, { retry: FAST_RETRY, ...deps });
    t.after(() => c.close());
    return c;
  };
  return { emulator, url: running.url, client };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago): connection refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The rejection of `promise`, which must reject. */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the promise to reject, but it resolved');
}
