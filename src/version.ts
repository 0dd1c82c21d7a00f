// The product version, from package.json (esbuild inlines it into the bundles).
import pkg from '../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
export const USER_AGENT = `enginectl/${VERSION}`;
