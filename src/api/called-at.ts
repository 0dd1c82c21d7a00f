// Where a server's requests go: the origin and path of its base URL, without a trailing slash (the
// transport's base of every request, transport.ts). Two spellings of one server
// (`HTTP://Host:80/api/` and `http://host/api`) are one place; its credentials are not part of it.
// A URL that does not parse (a masked one whose host is a secret, `***`, parses) is itself.

/** The base every request to the server at `url` is sent under. */
export function calledAt(url: string): string {
  try {
    const base = new URL(url);
    return `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}
