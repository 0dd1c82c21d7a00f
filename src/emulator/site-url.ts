// Where a site of the emulator is served (sites.ts): /sites/NAME/ of its URL, the site named
// `default` at the root. Apart, so a client finds a site without loading the emulator.
export const DEFAULT_SITE = 'default';

/** The base URL of the site `name` of the sites served at `url`. */
export function siteUrl(url: string, name: string): string {
  return name === DEFAULT_SITE ? url : `${url}/sites/${encodeURIComponent(name)}`;
}
