// A server's base URL as a run calls it: server-url.ts's checks, and no @ after its host. A
// password holding a / written as is, before digits only, parses: https://deploy:12345/abc@host is
// host "deploy", port 12345, path "/abc@host" to the URL parser, so its password is no password
// (nothing masks it) and the requests go to host "deploy". Refused where a server's URL is checked:
// a pipeline's servers (semantics.ts), ENGINE_URL (server-env.ts), the single-step action's url
// input (step-pipeline.ts), and a URL an expression gives, as the run resolves it (callable-server.ts:
// the client's, and validate --check-env's; preflight.ts). A webhook's URL is not a server's.
import { UsageError } from '../errors.ts';
import { serverUrl, serverUrlProblem, shownUrl, type ServerUrl } from './server-url.ts';

/** The hint of a server URL refused. */
export const BASE_URL_HINT = 'give the base_url of the API, e.g. https://erp.example.com';

/** An @ after the host of a URL that parses (in its path, query or fragment), told with its user part hidden. */
function atAfterHost(url: string): string | undefined {
  const parsed = new URL(url);
  if (!`${parsed.pathname}${parsed.search}${parsed.hash}`.includes('@')) return undefined;
  return `${shownUrl(url)} holds an @ after its host: a password with a / written as is ends the host at that /, and the rest would be sent as the path (write a / in a password as %2F, an @ of a path as %40)`;
}

/** What is wrong with `url` as a server's base URL, or undefined. */
export function baseUrlProblem(url: string): string | undefined {
  return serverUrlProblem(url) ?? atAfterHost(url);
}

/** serverUrl (the URL checked, its credentials split off), a URL with an @ after its host refused first. */
export function baseServerUrl(
  config: { url: string; username?: string | undefined; password?: string | undefined },
  where: string,
): ServerUrl {
  const problem = serverUrlProblem(config.url) === undefined ? atAfterHost(config.url) : undefined;
  if (problem) throw new UsageError('BAD_SERVER_URL', `${where}: the URL ${problem}`, { hint: BASE_URL_HINT });
  return serverUrl(config, where);
}
