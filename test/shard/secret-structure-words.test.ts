// A secret whose value is a word of an instance's structure (`outcome`, `steps`, `name`) leaves a
// sharded run's analysis rounds, kept in the store for the merged report, whole: the rounds are
// masked through the model (runner/mask-model.ts), their data masked, their envelope never.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analysisClock, shardFleet } from './helpers.ts';
import { runCli } from '../helpers/cli.ts';
import { assertClean } from '../helpers/secrets.ts';

const ANALYSED = '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 2, interval: 2m }';

for (const word of ['outcome', 'name', 'round']) {
  test(`a secret "${word}" in the step names of a sharded run: its analysis rounds are kept whole, the merged report passes`, async (t) => {
    const f = await shardFleet(t, 4, ANALYSED);
    f.env.CREDS = JSON.stringify({ tag: 'tok-7f3a9c2e51b8d4', x: word });
    writeFileSync(
      f.file,
      readFileSync(f.file, 'utf8')
        .replace(/^vars:$/m, 'vars:\n  creds: "${{ fromJSON(secrets.CREDS) }}"')
        .replace(/^( +)name: "([^"]*)"/gm, '$1name: "$2 (${{ vars.creds.tag }})"'),
    );
    const run = (await f.shard('--shards', '2')).run;
    const clock = analysisClock();
    const workers = await Promise.all(
      ['1/2', '2/2'].map((s) =>
        runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', s, '--shard-ttl', '1h'], {
          env: f.env,
          clock,
        }),
      ),
    );
    for (const w of workers) assert.equal(w.code, 0, w.stdout + w.stderr);
    const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    assert.equal(merged.report?.outcome, 'success');
    const rounds = merged.report!.steps.filter((s) => s.round !== null);
    // The round's name is text: a secret "round" is masked in it.
    assert.deepEqual(
      rounds.map((s) => [s.name.replace(/, (round|\*\*\*) /, ', round '), s.outcome, s.round]),
      [
        ['No critical alert at site-0001 (***) (analysis after wave 1, round 1/2)', 'success', 1],
        ['No critical alert at site-0001 (***) (analysis after wave 1, round 2/2)', 'success', 2],
      ],
    );
    const keys = readdirSync(f.store, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const path of keys.map((e) => join(e.parentPath, e.name)))
      assertClean(path, readFileSync(path, 'latin1'), ['tok-7f3a9c2e51b8d4']);
  });
}
