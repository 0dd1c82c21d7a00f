// The client of a pipeline's server, for a run and for verify alike: server text masked, retries
// logged; under run --emulator every server is a site of the embedded emulator, as admin/admin.
import { EngineClient } from '../api/index.ts';
import { formatDuration } from '../duration.ts';
import { siteUrl } from '../emulator/site-url.ts';
import type { Masker } from '../runner/masker.ts';
import type { Env, ResolvedServer } from '../runner/scope.ts';

export interface ClientSetup {
  env: Env;
  masker: Masker;
  /** Told of each retry, masked. */
  onRetry?: ((message: string) => void) | undefined;
  emulatorUrl?: string | undefined;
  /** GET requests only (plan --live): any other is refused before it leaves. */
  readOnly?: boolean;
  /** The clock the run (or verify) reads "since the call" on: each answer's Date, the server's clock, is read against it. */
  now?: (() => number) | undefined;
}

export function clientFactory(setup: ClientSetup): (server: ResolvedServer) => EngineClient {
  const { masker, emulatorUrl } = setup;
  return (server) =>
    new EngineClient(
      emulatorUrl
        ? {
            url: siteUrl(emulatorUrl, server.name),
            username: 'admin',
            password: 'admin',
            timeoutMs: server.timeoutMs,
            maxResponseBytes: server.maxResponseBytes,
          }
        : server,
      {
        env: setup.env,
        redact: (text) => masker.mask(text),
        readOnly: setup.readOnly,
        now: setup.now,
        onRetry: ({ attempt, delayMs, error }) =>
          setup.onRetry?.(masker.mask(`retry ${attempt} in ${formatDuration(delayMs)} after: ${error.message}`)),
      },
    );
}
