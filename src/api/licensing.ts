// Licensing area (enterprise-api.md 4.2). Licenses are addressed by the key of their product:
// the License resource has no other key, and removal answers 204 "when the product no longer has
// a license".
import { z } from 'zod';
import { invalidResponse, type Caller, type CallOptions, type CallSpec } from './call.ts';
import { Extension, License, LicenseCreateRequest, Product } from './schemas/index.ts';
import { API_BASE } from './areas.ts';

const BASE = API_BASE.licensing;
/** The lists answers hold, built once (a schema built per call cost as much again as its parse). */
const LicenseList = z.array(License);
const ProductList = z.array(Product);
const ExtensionList = z.array(Extension);

export interface RemoveResult {
  /** 200 removed, 204 the product was already without license. */
  status: 200 | 204;
}

/** The calls of the area that steps make, as values the client sends. */
export const licensingCalls = {
  licenses: (): CallSpec => ({ method: 'GET', path: `${BASE}/licenses` }),
  products: (): CallSpec => ({ method: 'GET', path: `${BASE}/products` }),
  remove: (key: number): CallSpec => ({
    method: 'DELETE',
    path: `${BASE}/licenses/${key}`,
    resource: `license ${key}`,
  }),
  /** The encrypted license code, sent as text/plain. */
  add: (code: string): CallSpec => ({
    method: 'POST',
    path: `${BASE}/licenses`,
    body: { text: code, contentType: 'text/plain' },
  }),
  create: (body: LicenseCreateRequest): CallSpec => ({
    method: 'POST',
    path: `${BASE}/licenses/create`,
    body: { json: body },
    accept: 'text/plain',
  }),
};

export class LicensingApi {
  constructor(private readonly call: Caller) {}

  licenses(options?: CallOptions): Promise<License[]> {
    return this.call.json(licensingCalls.licenses(), LicenseList, options);
  }

  license(key: number, options?: CallOptions): Promise<License> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/licenses/${key}`, resource: `license ${key}` },
      License,
      options,
    );
  }

  async remove(key: number, options?: CallOptions): Promise<RemoveResult> {
    const response = await this.call.status(licensingCalls.remove(key), options);
    return { status: response.status === 204 ? 204 : 200 };
  }

  /** Adds the licenses held in an encrypted license code (sent as text/plain). */
  async add(code: string, options?: CallOptions): Promise<{ status: number }> {
    const response = await this.call.status(licensingCalls.add(code), options);
    return { status: response.status };
  }

  /** Asks the server for an encrypted license code (text/plain) to give to `add`. */
  async create(body: LicenseCreateRequest, options?: CallOptions): Promise<string> {
    const spec = licensingCalls.create(body);
    const response = await this.call.status(spec, options);
    const code = response.text.trim();
    if (code === '') {
      throw invalidResponse(spec, this.call.transport, response, 'the license code is empty');
    }
    // enterprise-api.md 4.2: the code comes as text/plain. Anything else (a JSON error, a proxy's
    // HTML page) is not a code, and must not be handed on to licensing/add as one.
    if (response.contentType !== '' && response.contentType !== 'text/plain') {
      throw invalidResponse(
        spec,
        this.call.transport,
        response,
        `expected the license code as text/plain but got ${response.contentType}`,
      );
    }
    return code;
  }

  products(options?: CallOptions): Promise<Product[]> {
    return this.call.json(licensingCalls.products(), ProductList, options);
  }

  product(key: number, options?: CallOptions): Promise<Product> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/products/${key}`, resource: `product ${key}` },
      Product,
      options,
    );
  }

  productExtensions(key: number, options?: CallOptions): Promise<Extension[]> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/products/${key}/extensions`, resource: `product ${key}` },
      ExtensionList,
      options,
    );
  }

  extensions(options?: CallOptions): Promise<Extension[]> {
    return this.call.json({ method: 'GET', path: `${BASE}/extensions` }, ExtensionList, options);
  }

  extension(key: number, options?: CallOptions): Promise<Extension> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/extensions/${key}`, resource: `extension ${key}` },
      Extension,
      options,
    );
  }
}
