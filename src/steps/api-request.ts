// api/request: any call to the API; fails unless the status is expected (default any 2xx).
import { z } from 'zod';
import { listOf, numberInput } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) =>
  z.strictObject({
    method: w(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])).optional(),
    path: w(z.string().startsWith('/', 'must be an API path starting with /')),
    query: w(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))).optional(),
    body: z.unknown().optional(),
    'content-type': w(z.string()).optional(),
    'expect-status': w(listOf(numberInput(z.number().int().min(100).max(599)))).optional(),
  });

type Inputs = z.infer<ReturnType<typeof inputs>>;

function requestBody(i: Inputs) {
  if (i.body === undefined) return undefined;
  const type = i['content-type'] ?? 'application/json';
  if (type === 'application/json' || type.endsWith('+json')) return { json: i.body };
  return { text: typeof i.body === 'string' ? i.body : JSON.stringify(i.body), contentType: type };
}

export default defineStep<Inputs>({
  uses: 'api/request',
  summary: 'API request',
  inputs,
  inputDocs: {
    method: 'HTTP method: GET (default), POST, PUT, PATCH or DELETE.',
    path: 'An API path, e.g. /api/monitoring/v1/engines.',
    query: 'Query parameters: { name: value }.',
    body: 'The request body: JSON, or text with content-type.',
    'content-type': 'Media type of the body; default application/json.',
    'expect-status':
      "The statuses that mean success, as a list ([200] or [200, 201]); default any 2xx. Only the API's own answer: a write answered one of them by a gateway's page (not the API's JSON) is in doubt all the same.",
  },
  outputs: ['status', 'body'],
  // A method written as an expression is not known to be GET: not read-only.
  readOnly: (i) => (i.method ?? 'GET') === 'GET',
  unprovable: 'what the server does with the request: only sending it tells',
  needsServer: true,
  async run(i, env) {
    const method = i.method ?? 'GET';
    const res = await env.client().request({ method, path: i.path, query: i.query, body: requestBody(i) }, env.call);
    const expected = i['expect-status'];
    const ok = expected ? expected.includes(res.status) : res.status >= 200 && res.status < 300;
    const unexpected = () => {
      const wanted = expected ? expected.join(' or ') : 'a 2xx status';
      if (res.status >= 200 && res.status < 300) {
        return {
          code: 'API_UNEXPECTED_STATUS' as const,
          message: `${method} ${i.path} on ${env.client().server}: answered HTTP ${res.status}; expected ${wanted}`,
          hint: 'change expect-status if this answer is right',
        };
      }
      // The error a typed call would give (API_NOT_FOUND, API_HTTP_STATUS...), with what was expected.
      const error = env.client().statusError({ method, path: i.path }, res);
      return { code: error.code, message: `${error.message}; expected ${wanted}`, hint: error.hint };
    };
    return {
      outputs: { status: res.status, body: res.body },
      result: res.body,
      figures: `HTTP ${res.status}`,
      ...(ok ? {} : { failure: unexpected() }),
    };
  },
});
