// The embedded emulator of the enterprise API.
export { Emulator, type EmulatorOptions, type RequestRecord } from './emulator.ts';
export { serve, type RunningEmulator, type ServeOptions } from './server.ts';
export { parseFault, type FaultRule } from './faults/index.ts';
export { loadStateFile, parseState } from './state-file.ts';
export { sampleState } from './sample-state.ts';
export { parseUserSpec, type User } from './users.ts';
export type { EmulatorState } from './state.ts';
export { Sites, type SitesOptions } from './sites.ts';
export { siteUrl, DEFAULT_SITE } from './site-url.ts';
