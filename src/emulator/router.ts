// A route table: `{name}` placeholders, 404 for unknown paths (a trailing slash or an empty
// segment included), 405 with Allow for known paths. What a route takes besides its path: the
// API's contract says the query string and the body are absent unless it states them.
import type { EmuRequest, EmuResponse } from './http.ts';

export type Params = Readonly<Record<string, string>>;
export type Handler = (req: EmuRequest, params: Params) => EmuResponse;

/** What a route takes: a query string (an entity list's filters), a body (GET and DELETE never do). */
export interface Takes {
  query?: boolean;
  body?: boolean;
}

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
  takes: Takes;
}

export type Match =
  | { kind: 'found'; handler: Handler; params: Params; takes: Takes }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

export class Router {
  private readonly routes: Route[] = [];

  /** `takes`: a query string (none by default), a body (by default when the method sends one). */
  on(methods: string | string[], pattern: string, handler: Handler, takes: Takes = {}): this {
    for (const method of Array.isArray(methods) ? methods : [methods]) {
      const body = takes.body ?? (method !== 'GET' && method !== 'DELETE');
      this.routes.push({ method, segments: pattern.split('/').filter(Boolean), handler, takes: { ...takes, body } });
    }
    return this;
  }

  match(method: string, path: string): Match {
    // The path as written: a trailing slash or an empty segment ("//") is a segment no route has, so
    // 404: no spelling of a path reaches a handler past the scope check made for the path as given.
    const parts = path.split('/').slice(1);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', handler: route.handler, params, takes: route.takes };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const part = parts[i]!;
    if (p.startsWith('{') && p.endsWith('}')) {
      if (part === '') return undefined;
      try {
        params[p.slice(1, -1)] = decodeURIComponent(part);
      } catch {
        return undefined;
      }
    } else if (p !== part) return undefined;
  }
  return params;
}
