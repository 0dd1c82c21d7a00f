// A response whose status is not a success, as the typed error that says what it means and what
// to do: a redirect never followed, 401/403/404 with the scope or resource, a gateway's page.
import { ApiError, htmlGist, isHtml, serverMessage, trimBody } from './errors.ts';
import { requiredScopes } from './scopes.ts';
import type { HttpRequest, HttpResponse, Transport } from './transport.ts';

/** The call an error is about: its method and path, and what the path names ("Engine abc"). */
type Call = Pick<HttpRequest, 'method' | 'path'> & { resource?: string | undefined };

/** How a message names the call: `GET /api/... on https://server`. */
export function where(spec: Call, transport: Transport): string {
  return `${spec.method} ${spec.path} on ${transport.server}`;
}
import { inApiShape } from './fate.ts';

/** The typed error of a response whose status is not a success. */
export function statusError(spec: Call, response: HttpResponse, transport: Transport): ApiError {
  // Secrets are masked in the server's text before it is folded and trimmed.
  const text = transport.redact(response.text);
  const details = {
    method: spec.method,
    path: spec.path,
    status: response.status,
    body: trimBody(text),
    attempts: response.attempts,
  };
  const html = isHtml(text, response.contentType);
  const said = !text ? '' : html ? ` with ${htmlGist(text)}` : `: ${serverMessage(text)}`;
  const at = where(spec, transport);
  const viaProxy =
    'an HTML page usually comes from a proxy, load balancer or login page in front of the API: check the server URL and the proxy; ';
  // 300, 304 (to a conditional request enginectl never makes) and 305 point nowhere to follow.
  if ([300, 304, 305].includes(response.status))
    return new ApiError('API_HTTP_STATUS', `${at}: HTTP ${response.status}, no answer of the API`, {
      ...details,
      hint: 'a cache or proxy in front of the API answered: check the server URL and what stands before the API',
    });
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.location;
    return new ApiError(
      'API_REDIRECT',
      `${at}: the server redirects (HTTP ${response.status})${location ? ` to ${location}` : ''}; enginectl does not follow redirects`,
      {
        ...details,
        hint: `a redirect could carry the credentials to another host, so it is not followed: ${location ? 'if that address is the API, use it as the server URL' : 'set the server URL to the address the API answers on'} (a login page or an http:// to https:// redirect often means the URL is not the API's base_url)`,
      },
    );
  }
  switch (response.status) {
    case 401:
      return new ApiError('API_UNAUTHORIZED', `${at}: authentication failed (401)${said}`, {
        ...details,
        hint: "check the user name and password of the server (ENGINE_USERNAME / ENGINE_PASSWORD, in an action the username and password inputs, or the server's username and password)",
      });
    case 403: {
      const scopes = requiredScopes(spec.path);
      const user = transport.username ? `user ${transport.username}` : 'the user';
      const need =
        scopes.length > 0
          ? `; this call requires the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' and ')}`
          : '';
      return new ApiError('API_FORBIDDEN', `${at}: forbidden (403)${need}${said}`, {
        ...details,
        hint: `ask the system's administrator to grant ${user} ${scopes.length > 0 ? scopes.join(' and ') : 'access to this call'}`,
      });
    }
    case 404:
      return new ApiError('API_NOT_FOUND', `${at}: ${spec.resource ?? 'the resource'} was not found (404)${said}`, {
        ...details,
        hint: 'check the key or id, and that it exists on this server',
      });
    default:
      return new ApiError(
        'API_HTTP_STATUS',
        `${at}: the server answered HTTP ${response.status}${said || ' with no body'}`,
        {
          ...details,
          hint: `${html ? viaProxy : ''}${
            response.status >= 500
              ? 'the server failed; its logs say why'
              : response.status === 408
                ? 'the server or a proxy in front of it stopped waiting (408), and may have acted on it: check on the server before sending it again'
                : inApiShape(response.status, response.contentType, response.text)
                  ? 'the server refused the request; its message says why'
                  : "the answer is not the API's (its body is not JSON): something in front of the API may have answered, after the server acted; check on the server before sending it again"
          }`,
        },
      );
  }
}
