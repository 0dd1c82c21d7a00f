// The base path of each area of the API (enterprise-api.md): the one place they are written. The
// client's calls, the emulator's routes and the examples in help texts are built from them.
export const API_BASE = {
  classes: '/api/classes/v1',
  devops: '/api/devops/v1',
  licensing: '/api/licensing/v1',
  monitoring: '/api/monitoring/v1',
} as const;
