// zod's locales with English only: build.mjs bundles this in place of zod's locales index, which
// holds every language zod has (a quarter of zod in the bundle).
export { default as en } from 'zod/v4/locales/en.js';
