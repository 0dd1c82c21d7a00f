// The recording client of the plan's walk (EngineClient.recording): each call is recorded as the
// plan shows it, and answered, never sent, by a placeholder shaped as the API's response would be
// (lenient schemas: the fields the client requires): empty lists, successful results, an entity
// of key 0, an Engine that has not reported, a placeholder license code. Enough for every step to
// go on to its next call; no step decides anything the plan shows from these values.
import { API_BASE } from './areas.ts';
import type { HttpRequest, HttpResponse } from './exchange.ts';

/** A call as the plan shows it: the request a step sends, its body as a value. */
export interface PlannedCall {
  method: string;
  path: string;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  contentType?: string | undefined;
}

/** The call a request sends, as the plan shows it. */
export function planned(req: Pick<HttpRequest, 'method' | 'path' | 'query' | 'body'>): PlannedCall {
  const call: PlannedCall = { method: req.method, path: req.path };
  if (req.query && Object.keys(req.query).length > 0) call.query = req.query as Record<string, unknown>;
  if (req.body && 'json' in req.body) call.body = req.body.json;
  else if (req.body) {
    call.body = req.body.text;
    call.contentType = req.body.contentType;
  }
  return call;
}

/** What licenses/create answers in the plan's walk. */
export const PLACEHOLDER_LICENSE_CODE = '<license code>';

type Answer = { json: unknown } | { text: string };

const { classes, licensing, monitoring, devops } = API_BASE;
const ID = '[^/]+';
const ENTITY = { json: { ikey: 0, iclass: 0 } };
const LIST = { json: [] };
/** A session's drop fields are present (null) in every answer: their types are not shown. */
const SESSION = {
  json: {
    sessionId: '',
    engineId: '',
    dropsAt: null,
    dropRequestedAt: null,
    dropRequesterKey: null,
    dropRequesterName: null,
    dropReason: null,
  },
};
const ENTITY_PATH = `${classes}/(?:classes/${ID}/)?entities/${ID}`;

/** Method, path (a regular expression over the whole path), answer; the first that matches answers. */
const ROUTES: readonly (readonly [RegExp, RegExp, Answer])[] = [
  [/^GET$/, RegExp(`^${classes}/classes/${ID}/schema$`), { json: { title: '', type: 'object', properties: {} } }],
  [/^GET$/, RegExp(`^${classes}/classes/${ID}/(?:children|descendants|entities)$`), LIST],
  [/^(?:GET|POST|PATCH|PUT)$/, RegExp(`^${ENTITY_PATH}$`), ENTITY],
  [/^POST$/, RegExp(`^${classes}/classes/${ID}/entities$`), ENTITY],
  [/^GET$/, RegExp(`^${licensing}/(?:licenses|products|extensions|products/${ID}/extensions)$`), LIST],
  [/^GET$/, RegExp(`^${licensing}/licenses/${ID}$`), { json: { productKey: 0, type: '' } }],
  [/^GET$/, RegExp(`^${licensing}/(?:products|extensions)/${ID}$`), { json: { key: 0, name: '' } }],
  [/^POST$/, RegExp(`^${licensing}/licenses/create$`), { text: PLACEHOLDER_LICENSE_CODE }],
  [/^GET$/, RegExp(`^${monitoring}/(?:engines|sessions|alerts|engines/${ID}/(?:sessions|alerts))$`), LIST],
  [/^GET$/, RegExp(`^${monitoring}/engines/${ID}$`), { json: { instanceId: '', version: '', updatedAt: 0 } }],
  [/^GET$/, RegExp(`^${monitoring}/(?:engines/${ID}/)?sessions/${ID}$`), SESSION],
  [/^GET$/, RegExp(`^${devops}/replication/configs$`), LIST],
  [/^GET$/, RegExp(`^${devops}/replication/configs/${ID}$`), { json: { key: 0, name: '', enabled: true } }],
  [/^POST$/, RegExp(`^${devops}/replication/(?:configs/${ID}/)?sync$`), LIST],
  [/^POST$/, RegExp(`^${devops}/update/(?:system|vfs)$`), { json: { success: true } }],
];

/**
 * The placeholder answer of a request: 200 with the route's placeholder, or with no body for a
 * call whose answer carries none (a delete, a license added, the transaction-log clear) and for
 * any other path (api/request). `attempts` 0: nothing was sent.
 */
export function placeholderAnswer(req: Pick<HttpRequest, 'method' | 'path'>): HttpResponse {
  const answer = ROUTES.find(([method, path]) => method.test(req.method) && path.test(req.path))?.[2];
  if (answer && 'json' in answer)
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      contentType: 'application/json',
      text: JSON.stringify(answer.json),
      attempts: 0,
    };
  if (answer)
    return {
      status: 200,
      headers: { 'content-type': 'text/plain' },
      contentType: 'text/plain',
      text: answer.text,
      attempts: 0,
    };
  return { status: 200, headers: {}, contentType: '', text: '', attempts: 0 };
}
