// The default server from the environment (pipeline-format.md section 1): ENGINE_URL,
// ENGINE_USERNAME, ENGINE_PASSWORD (and ENGINE_ALLOW_INSECURE_HTTP) define a server named
// `default`. The one reading of those variables: `enginectl api`, the pipeline loader, and the
// actions (whose url, username and password inputs override them as values, not as variables).
import type { ServerConfig } from './client.ts';
import { baseUrlProblem } from './base-url.ts';
import { UsageError } from '../errors.ts';

/** The default server as the environment gives it; its URL is absent without ENGINE_URL. */
export interface DefaultServer {
  url: string | undefined;
  username: string | undefined;
  password: string | undefined;
  allowInsecureHttp: boolean;
}

export function defaultServerOf(env: Readonly<Record<string, string | undefined>>): DefaultServer {
  return {
    url: env.ENGINE_URL || undefined,
    username: env.ENGINE_USERNAME,
    password: env.ENGINE_PASSWORD,
    allowInsecureHttp: env.ENGINE_ALLOW_INSECURE_HTTP === 'true',
  };
}

/**
 * The server ENGINE_URL names, or undefined without it. `check` (default): a URL that cannot be
 * called is refused now (BAD_SERVER_URL); a pipeline checks it later, with every other server.
 */
export function serverFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  { check = true } = {},
): ServerConfig | undefined {
  const server = defaultServerOf(env);
  if (!server.url) return undefined;
  const problem = check ? baseUrlProblem(server.url) : undefined;
  if (problem)
    throw new UsageError('BAD_SERVER_URL', `ENGINE_URL: the URL ${problem}`, {
      hint: 'set ENGINE_URL to the base_url of the API, e.g. https://erp.example.com',
    });
  return { ...server, url: server.url };
}
