// Zod schemas of every resource of the enterprise API, by area. Each is built at its first use
// (z.lazy): building them all took every start-up about 6 ms, and a command reads few resources.
export * from './classes.ts';
export * from './licensing.ts';
export * from './monitoring.ts';
export * from './devops.ts';
