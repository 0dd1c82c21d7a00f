// A server as a client calls it, checked before anything is sent: its URL (base-url.ts: http(s),
// a valid port, no white space, no @ after its host), the credentials in its user part split off
// (given twice, with a username too, refused), and Basic credentials refused over plain http:// to
// another machine (insecure-http.ts). The one check: the client's (client.ts) as it is made, and
// validate --check-env's of the servers a run would call (app/check-env.ts), so both say the same.
import { baseServerUrl } from './base-url.ts';
import { insecureHttpError } from './insecure-http.ts';

/** What the check reads of a server (client.ts ServerConfig has it): its name for messages, its URL and login, and whether plain http:// is allowed. */
export interface ServerToCall {
  name?: string | undefined;
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  allowInsecureHttp?: boolean | undefined;
}

/** `given` with its URL checked and its credentials split off; a UsageError (BAD_SERVER_URL, INSECURE_HTTP) when it cannot be called. */
export function callableServer<T extends ServerToCall>(given: T): T {
  const config = { ...given, ...baseServerUrl(given, given.name ? `server "${given.name}"` : 'the server') };
  const insecure = insecureHttpError({
    url: config.url,
    credentials: config.username !== undefined,
    allowInsecureHttp: config.allowInsecureHttp,
    where: config.name ? `server "${config.name}"` : config.url.replace(/\/\/[^@/]*@/, '//***@'),
    allowWith: 'allow insecure HTTP for this server (allow-insecure-http: true, or ENGINE_ALLOW_INSECURE_HTTP=true)',
  });
  if (insecure) throw insecure;
  return config;
}
