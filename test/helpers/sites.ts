// A fleet of three sites for tests: one emulator per site, each with its own API password, and the
// secrets each site's job is given (pipelines/inventory/sites.yml names them).
import type { TestContext } from 'node:test';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import { startEmulator } from './emulator.ts';

export const SITES = ['test', 'staging', 'prod'] as const;
export type Site = (typeof SITES)[number];

/** One emulator per site, each with its own API password; `now`: their clock (their answers' Date), the real one by default. */
export async function startSites(t: TestContext, now?: () => number) {
  const urls = {} as Record<Site, string>;
  const emulators = {} as Record<Site, Awaited<ReturnType<typeof startEmulator>>['emulator']>;
  for (const site of SITES) {
    const { url, emulator } = await startEmulator(t, {
      users: [{ name: 'deploy', password: `${site}-api-pass`, scopes: new Set(ALL_SCOPES) }],
      ...(now ? { now } : {}),
    });
    urls[site] = url;
    emulators[site] = emulator;
  }
  return { urls, emulators };
}

/** What the job of one site is given: its server's URL and password, its target's credential. */
export function siteSecrets(site: Site, url: string): Record<string, string> {
  const upper = site.toUpperCase();
  const credential: Record<Site, Record<string, string>> = {
    test: { TEST_DEPLOY_PASSWORD: 'deploy-pass' },
    staging: { STAGING_TOKEN: 'staging-token' },
    prod: { PROD_TOKEN: 'prod-token' },
  };
  return { [`${upper}_ENGINE_URL`]: url, [`${upper}_ENGINE_PASSWORD`]: `${site}-api-pass`, ...credential[site] };
}
