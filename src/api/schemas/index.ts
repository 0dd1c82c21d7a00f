// Zod schemas of every resource of the enterprise API, by area.
export * from './classes.ts';
export * from './licensing.ts';
export * from './monitoring.ts';
export * from './devops.ts';
