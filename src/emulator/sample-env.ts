// The environment the sample state's databases answer to: under `run --emulator` (with the sample
// state), a variable the environment does not set takes this value, so the demo runs with the
// command alone. A real server never sees these.
export const SAMPLE_ENV: Readonly<Record<string, string>> = {
  PROD_TOKEN: 'prod-token',
  STAGING_TOKEN: 'staging-token',
  PROD_DEPLOY_PASSWORD: 'deploy-pass',
  TEST_DEPLOY_PASSWORD: 'deploy-pass',
};

/** `env` with the sample values under what it sets itself. */
export function withSampleEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return { ...SAMPLE_ENV, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
}
