// Where a site of the emulator is served (sites.ts): /sites/NAME/ of its URL, the site named
// `default` at the root. Apart, so a client finds a site without loading the emulator.
export const DEFAULT_SITE = 'default';

/** A surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The base URL of the site `name` of the sites served at `url` (a lone surrogate, which no URL can carry, as U+FFFD). */
export function siteUrl(url: string, name: string): string {
  return name === DEFAULT_SITE ? url : `${url}/sites/${encodeURIComponent(name.replace(LONE_SURROGATE, '\uFFFD'))}`;
}
