// Entry of the single executable (Node SEA, built by build-exe.mjs as a start-up snapshot).
// Building the snapshot runs this file once: every command's modules are loaded (their schemas
// built) and a pipeline is validated, so the executable starts with all of that done and
// compiled. Only pure work happens then: no file, socket, clock or environment is read, and no
// state of the build machine is kept. Each run starts at runMain with its own argv and env.
// (Building the API's schemas and every step type's resolved inputs too made the snapshot
// bigger and a release slower, 170 vs 164 ms side by side: they are built at first use.)
import { startupSnapshot } from 'node:v8';
import { COMMAND_NAMES, loadCommand, runCommand } from './run-command.ts';
import { runMain } from './main.ts';

/** A pipeline with the common step types, validated while the snapshot is built. */
const WARM_UP = `version: 1
name: warm-up
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - { uses: monitoring/alerts, with: { fail-on: critical } }
  - { uses: monitoring/engines, with: { min-online: 1 } }
  - { uses: monitoring/sessions, with: { max-active: 0, wait: { timeout: 10m, interval: 2m } } }
  - { uses: transaction-log/clear }
  - { id: sync, uses: replication/sync, with: { config: 1 } }
  - { uses: update/vfs, if: "\${{ steps.sync.outputs.inserts >= 0 }}", with: { target: prod, files: [1001] } }
  - { uses: update/system, with: { target: prod, products: [1] } }
  - { uses: licensing/check, with: { min-days-left: 30 } }
  - { uses: assert, with: { that: "\${{ success() }}" } }
`;

async function warmUp(): Promise<void> {
  // Not `emulator` and `api`: they load Node's HTTP server, which a snapshot cannot hold.
  for (const name of COMMAND_NAMES) if (name !== 'emulator' && name !== 'api') await loadCommand(name);
  let said = '';
  const code = await runCommand(['validate', 'warm-up.yml', '--emulator'], {
    stdout: () => undefined,
    stderr: (text) => (said += text),
    stdoutIsTTY: false,
    env: {},
    cwd: '/',
    signal: new AbortController().signal,
    readFile: async () => WARM_UP,
    readStdin: async () => '',
  });
  // Warming up on errors would leave the valid path uncompiled: the build fails instead.
  if (code !== 0) throw new Error(`the warm-up pipeline is not valid: ${said}`);
}

if (startupSnapshot.isBuildingSnapshot()) {
  void warmUp();
  startupSnapshot.setDeserializeMainFunction(() => void runMain(process.argv.slice(2)));
} else {
  void runMain(process.argv.slice(2));
}
