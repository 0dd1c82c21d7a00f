// Test helpers: an emulator served on 127.0.0.1 with a fresh state per test, and clients of it.
import { connect } from 'node:net';
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
    const c = new EngineClient(
      { url: running.url, username: user, password, timeoutMs },
      { retry: FAST_RETRY, ...deps },
    );
    t.after(() => c.close());
    return c;
  };
  return { emulator, url: running.url, client };
}

/**
 * A port on 127.0.0.1 that nothing listens on: connection refused. Port 9 (discard), below the
 * ephemeral range: a port that was free a moment ago could be handed to the next server that
 * listens on port 0 (an emulator of a test running beside this one), which once made a
 * "connection refused" case talk to an emulator and succeed.
 */
export async function closedPort(): Promise<number> {
  const port = 9;
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once(
      'connect',
      () => (socket.destroy(), reject(new Error(`something listens on 127.0.0.1:${port}; the tests need it closed`))),
    );
    socket.once('error', () => resolve());
  });
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
