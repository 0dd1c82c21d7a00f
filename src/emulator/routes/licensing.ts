// Licensing area routes (enterprise-api.md 4.2). Licenses are keyed by their product's key.
import { z } from 'zod';
import type { RouteContext } from '../context.ts';
import { badRequest, empty, HttpProblem, intParam, json, jsonBody, notFound, text, type EmuRequest } from '../http.ts';
import { openLicenses, sealLicenses } from '../license-code.ts';
import { accept, licenseCreateBody, licenseType, type LicenseCreateBody } from '../request-bodies.ts';
import type { Router } from '../router.ts';
import { API_BASE } from '../../api/areas.ts';

const BASE = API_BASE.licensing;

const SealedPayload = z.object({ licenseVersion: z.int(), licenses: z.array(z.record(z.string(), z.unknown())) });

function product(ctx: RouteContext, key: number) {
  const found = ctx.state.products.find((p) => p.key === key);
  if (!found) throw notFound(`product ${key} does not exist`);
  return found;
}

function create(ctx: RouteContext, req: EmuRequest) {
  const body = accept<LicenseCreateBody>(licenseCreateBody, jsonBody(req), 'the license request is not valid');
  const current = ctx.state.licenser.licenseVersion;
  // Empty (absent, null or ""): the most current version (api 4.2). The versions are the integers 1 to the current one.
  const licenseVersion = body.licenseVersion === '' ? current : (body.licenseVersion ?? current);
  if (!Number.isInteger(licenseVersion) || licenseVersion < 1 || licenseVersion > current)
    throw badRequest('the license request is not valid', [
      {
        field: 'licenseVersion',
        message: `licenseVersion ${licenseVersion} is not a licensing version: the versions are the integers 1 to ${current} (the current one, used when licenseVersion is empty)`,
      },
    ]);
  const problems: { field: string; message: string }[] = [];
  const licenses = body.licenses.map((item, i) => {
    const prod = ctx.state.products.find((p) => p.key === item.productKey);
    if (!prod)
      problems.push({ field: `licenses[${i}].productKey`, message: `product ${item.productKey} does not exist` });
    for (const ext of item.extensions ?? []) {
      if (prod && !prod.extensions.includes(ext)) {
        problems.push({
          field: `licenses[${i}].extensions`,
          message: `extension ${ext} is not an extension of product ${item.productKey}`,
        });
      }
    }
    return {
      productName: prod?.name ?? '',
      productKey: item.productKey,
      type: licenseType(item.type)!,
      quantity: item.quantity,
      extensions: item.extensions ?? [],
      licenseeName: body.licenseeName,
      licenseeId: body.licenseeId,
      licenserKey: body.licenserKey ?? ctx.state.licenser.key,
      expiration: body.expiration,
    };
  });
  if (problems.length > 0) throw badRequest('the license request names unknown products or extensions', problems);
  return text(200, sealLicenses({ licenseVersion, licenses }));
}

function add(ctx: RouteContext, req: EmuRequest) {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'text/plain') {
    throw new HttpProblem(
      415,
      'unsupported_media_type',
      `send the license code as Content-Type: text/plain, not ${type || 'no Content-Type'}`,
    );
  }
  const payload = SealedPayload.safeParse(openLicenses(req.body));
  if (!payload.success)
    throw badRequest('the license code is not valid: it is damaged or was not issued by this licensing service');
  for (const license of payload.data.licenses) {
    const index = ctx.state.licenses.findIndex((l) => l.productKey === license.productKey);
    if (index >= 0) ctx.state.licenses[index] = license;
    else ctx.state.licenses.push(license);
  }
  return json(200, payload.data.licenses);
}

function remove(ctx: RouteContext, key: number) {
  product(ctx, key);
  const index = ctx.state.licenses.findIndex((l) => l.productKey === key);
  if (index < 0) return empty(204);
  const [removed] = ctx.state.licenses.splice(index, 1);
  return json(200, removed);
}

export function licensingRoutes(router: Router, ctx: () => RouteContext): void {
  const key = (p: { key?: string }) => intParam(p.key ?? '', 'key');
  router
    .on('GET', `${BASE}/licenses`, () => json(200, ctx().state.licenses))
    .on('POST', `${BASE}/licenses`, (req) => add(ctx(), req))
    .on('POST', `${BASE}/licenses/create`, (req) => create(ctx(), req))
    .on('GET', `${BASE}/licenses/{key}`, (_req, p) => {
      const k = key(p);
      const found = ctx().state.licenses.find((l) => l.productKey === k);
      if (!found) throw notFound(`no license for product ${k}`);
      return json(200, found);
    })
    .on('DELETE', `${BASE}/licenses/{key}`, (_req, p) => remove(ctx(), key(p)))
    .on('GET', `${BASE}/products`, () => json(200, ctx().state.products))
    .on('GET', `${BASE}/products/{key}`, (_req, p) => json(200, product(ctx(), key(p))))
    .on('GET', `${BASE}/products/{key}/extensions`, (_req, p) => {
      const prod = product(ctx(), key(p));
      return json(
        200,
        ctx().state.extensions.filter((e) => e.productKey === prod.key),
      );
    })
    .on('GET', `${BASE}/extensions`, () => json(200, ctx().state.extensions))
    .on('GET', `${BASE}/extensions/{key}`, (_req, p) => {
      const k = key(p);
      const found = ctx().state.extensions.find((e) => e.key === k);
      if (!found) throw notFound(`extension ${k} does not exist`);
      return json(200, found);
    });
}
