// The fault kinds are one list (src/emulator/faults/kinds.ts): every field of a rule belongs to one
// kind's setting, each setting reads the same value from `--fault` text and from a posted rule
// object, a wrong one is refused (exit 2 from the CLI, 400 from the control route), and the table
// of docs/emulator.md is the one the kinds write.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Emulator, type FaultRule } from '../../src/emulator/index.ts';
import { FAULT_SETTINGS, parseFault, ruleFromJson, withFaultTable } from '../../src/emulator/faults/index.ts';

test('docs/emulator.md: the table of fault settings is the one the fault kinds write (npm run emulator-docs)', () => {
  const doc = readFileSync('docs/emulator.md', 'utf8');
  assert.equal(doc, withFaultTable(doc), 'the table is stale: run npm run emulator-docs');
});

test('every field of a fault rule is the setting of exactly one fault kind, with a keyword of its own', () => {
  // Required<FaultRule>: the compiler makes this list every field of the rule's JSON.
  const every: Required<FaultRule> = {
    method: 'GET',
    path: '/x',
    latencyMs: 1,
    hang: true,
    reset: 'before',
    status: 503,
    body: '',
    contentType: 'text/plain',
    gateway: 504,
    truncate: true,
    invalidJson: true,
    chunkDelayMs: 1,
    echoCredentials: true,
    raiseAlert: { severity: 'critical', code: 'x' },
    stopEngine: 'e',
    afterMs: 1,
    times: 1,
    site: 's',
  };
  const fields = Object.keys(every).filter((f) => f !== 'method' && f !== 'path');
  assert.deepEqual(FAULT_SETTINGS.map((s) => s.field).sort(), fields.sort());
  assert.equal(new Set(FAULT_SETTINGS.map((s) => s.keyword)).size, FAULT_SETTINGS.length);
  assert.deepEqual(ruleFromJson(every), every, 'a rule object of every field is taken as it is');
});

/** The usage of a setting as text that parses: `reset=before|after` is two, `times=N` a number. */
const examples = (usage: string) => {
  const [key, value] = usage.split('=');
  return value === undefined ? [key!] : value.split('|').map((v) => `${key}=${v === 'N' ? '2' : v}`);
};

test('each setting of the help reads from --fault text and from its rule object alike', () => {
  for (const setting of FAULT_SETTINGS)
    for (const example of examples(setting.usage)) {
      const rule = parseFault(`POST /api/* ${example}`);
      assert.notEqual(rule[setting.field], undefined, example);
      assert.deepEqual(ruleFromJson(JSON.parse(JSON.stringify(rule))), rule, example);
    }
});

test('wrong values are refused from text (exit 2) and over the control route (400), naming the setting', () => {
  for (const [spec, says] of [
    ['/x latency=soon', /latency=soon: not a duration/],
    ['/x status=9000', /status=9000: not an HTTP status/],
    ['/x gateway=200', /gateway=200: a gateway's error status/],
    ['/x reset=during', /reset=during: say reset=before or reset=after/],
    ['/x raise-alert=loud', /raise-alert=loud: write raise-alert=critical:CODE/],
    ['/x times=many', /times=many: not a whole number/],
  ] as const)
    assert.throws(
      () => parseFault(spec),
      (e: Error & { exitCode: number }) => e.exitCode === 2 && says.test(e.message),
    );

  const emulator = new Emulator();
  const post = (body: unknown) =>
    emulator.handle({
      method: 'POST',
      path: '/_emulator/faults',
      query: new URLSearchParams(),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  for (const [body, says] of [
    [{ path: '/x', status: 'busy' }, /status must be a whole number/],
    [{ path: '/x', status: 42 }, /status 42 is not an HTTP status/],
    [{ path: '/x', reset: 'during' }, /reset must be "before" or "after"/],
    [{ path: '/x', colour: 'red' }, /unknown field colour/],
    [{ status: 503 }, /path must be a path/],
  ] as const) {
    const answer = post(body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.match((JSON.parse(answer.body!) as { message: string }).message, says);
  }
  assert.equal(emulator.faults.list().length, 0, 'no wrong rule was added');
  const added = post({ method: 'GET', path: '/api/monitoring/*', status: 503, times: 2 });
  assert.equal(added.status, 201);
  assert.deepEqual(JSON.parse(added.body!), [{ method: 'GET', path: '/api/monitoring/*', status: 503, times: 2 }]);
});
