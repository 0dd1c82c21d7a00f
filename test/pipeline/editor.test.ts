// An editor's view of pipeline files: yaml-language-server (what VS Code's YAML extension runs),
// driven over the Language Server Protocol with the committed schema/pipeline.schema.json. A
// good file has no diagnostic; broken ones are flagged on their line, an unknown step type with
// the list of types; hover shows what an input means; completion offers the step types.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/action.ts';
import { test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';

const SCHEMA = pathToFileURL('schema/pipeline.schema.json').href;

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
}

/** A minimal LSP client over stdio: Content-Length framed JSON-RPC. */
class Lsp {
  private buffer = Buffer.alloc(0);
  private next = 1;
  private readonly waiting = new Map<number, (m: Message) => void>();
  readonly diagnostics = new Map<string, { range: { start: { line: number } }; message: string }[]>();
  private readonly onDiagnostics: (() => void)[] = [];

  constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const head = this.buffer.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, head).toString())?.[1]);
        if (this.buffer.length < head + 4 + length) return;
        const message = JSON.parse(this.buffer.subarray(head + 4, head + 4 + length).toString()) as Message;
        this.buffer = this.buffer.subarray(head + 4 + length);
        this.receive(message);
      }
    });
  }

  private receive(m: Message): void {
    if (m.id !== undefined && m.method === undefined) this.waiting.get(m.id)?.(m);
    else if (m.method === 'textDocument/publishDiagnostics') {
      this.diagnostics.set(String(m.params!.uri), m.params!.diagnostics as never);
      for (const f of this.onDiagnostics.splice(0)) f();
    } else if (m.id !== undefined) {
      // A request of the server's (workspace/configuration): answer with the settings.
      this.send({ id: m.id, result: (m.params?.items as unknown[] | undefined)?.map(() => SETTINGS.yaml) ?? null });
    }
  }

  private send(message: object): void {
    const text = JSON.stringify({ jsonrpc: '2.0', ...message });
    this.child.stdin!.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, (m) => resolve(m.result));
      this.send({ id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  /** Opens a document and waits for its diagnostics. */
  async open(uri: string, text: string): Promise<{ range: { start: { line: number } }; message: string }[]> {
    const published = new Promise<void>((resolve) => {
      const check = () => (this.diagnostics.has(uri) ? resolve() : this.onDiagnostics.push(check));
      this.onDiagnostics.push(check);
    });
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    await published;
    return this.diagnostics.get(uri)!;
  }
}

const SETTINGS = { yaml: { validate: true, hover: true, completion: true, schemas: { [SCHEMA]: ['*.yml'] } } };

async function start(t: TestContext): Promise<Lsp> {
  const child = spawn('node_modules/.bin/yaml-language-server', ['--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  t.after(() => child.kill());
  const lsp = new Lsp(child);
  await lsp.request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL('.').href,
    capabilities: {
      textDocument: {
        hover: { contentFormat: ['markdown', 'plaintext'] },
        completion: { completionItem: { snippetSupport: false } },
      },
      workspace: { configuration: true },
    },
  });
  lsp.notify('initialized', {});
  lsp.notify('workspace/didChangeConfiguration', { settings: SETTINGS });
  return lsp;
}

/** A document in the repository (a pipeline's `$schema` comment is relative to it). */
const doc = (path: string) => pathToFileURL(path).href;

test(
  'yaml-language-server: good files are clean; mistakes are flagged on their line, with the step types listed',
  { timeout: 60_000 },
  async (t) => {
    const lsp = await start(t);
    for (const file of readdirSync('pipelines').filter((f) => f.endsWith('.yml'))) {
      const diagnostics = await lsp.open(doc(`pipelines/${file}`), readFileSync(`pipelines/${file}`, 'utf8'));
      assert.deepEqual(
        diagnostics.map((d) => d.message),
        [],
        file,
      );
    }
    const broken = await lsp.open(
      doc('test/fixtures/editor/broken.yml'),
      [
        'version: 1',
        'steps:',
        '  - uses: update/vfss',
        '  - uses: update/vfs',
        '    with: { target: prod }',
        '  - uses: update/vfs',
        '',
      ].join('\n'),
    );
    const on = (line: number) =>
      broken
        .filter((d) => d.range.start.line === line)
        .map((d) => d.message)
        .join(' | ');
    assert.match(on(2), /update\/vfs.*update\/system|update\/system.*update\/vfs/s, 'an unknown type lists the types');
    assert.match(on(4), /files|directories/, 'update/vfs without files or directories');
    assert.match(on(5), /with/, 'update/vfs without with:');
    // A rollout's mistakes: an unknown key, a wave that is no list, count, percentage or rest.
    const rollout = await lsp.open(
      doc('test/fixtures/editor/rollout.yml'),
      [
        'version: 1',
        'rollout:',
        '  over: site',
        '  waves: [half]',
        '  max-failure: 1',
        'steps:',
        '  - uses: monitoring/alerts',
        '',
      ].join('\n'),
    );
    const at = (line: number) =>
      rollout
        .filter((d) => d.range.start.line === line)
        .map((d) => d.message)
        .join(' | ');
    assert.notEqual(at(3), '', 'a wave that is no list, count, percentage or rest');
    assert.match(at(4), /max-failure/, 'an unknown rollout key');
  },
);

test(
  'yaml-language-server: hover says what an input means; completion offers the step types',
  { timeout: 60_000 },
  async (t) => {
    const lsp = await start(t);
    const uri = doc('test/fixtures/editor/hover.yml');
    const text = [
      'version: 1',
      'steps:',
      '  - uses: update/vfs',
      '    with:',
      '      files: [1001]',
      '      tracking-id: CHG-1',
      '',
    ].join('\n');
    await lsp.open(uri, text);
    const hover = (await lsp.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 5, character: 8 },
    })) as { contents: { value?: string } | string } | null;
    assert.ok(hover, 'a hover');
    const shown = typeof hover.contents === 'string' ? hover.contents : (hover.contents.value ?? '');
    assert.match(shown, /Tracking id of the update/);
    const completion = (await lsp.request('textDocument/completion', {
      textDocument: { uri },
      position: { line: 2, character: 10 },
    })) as { items: { label: string }[] } | { label: string }[];
    const labels = (Array.isArray(completion) ? completion : completion.items).map((i) => i.label);
    for (const type of ['update/vfs', 'replication/sync', 'monitoring/engines', 'assert'])
      assert.ok(labels.includes(type), `completion offers ${type}: ${labels.join(', ')}`);
  },
);

test('yaml-language-server: inventory files are validated with their own schema', { timeout: 60_000 }, async (t) => {
  const lsp = await start(t);
  const good = await lsp.open(
    doc('pipelines/inventory/sites.yml'),
    readFileSync('pipelines/inventory/sites.yml', 'utf8'),
  );
  assert.deepEqual(
    good.map((d) => d.message),
    [],
  );
  const release = await lsp.open(
    doc('pipelines/three-site-release.yml'),
    readFileSync('pipelines/three-site-release.yml', 'utf8'),
  );
  assert.deepEqual(
    release.map((d) => d.message),
    [],
    'include: and a server expression are known to the pipeline schema',
  );
  const broken = await lsp.open(
    doc('pipelines/inventory/broken.yml'),
    [
      '# yaml-language-server: $schema=../../schema/inventory.schema.json',
      'targets:',
      '  prod: { server: p, database: PROD, tokn: t }',
      'steps: []',
      '',
    ].join('\n'),
  );
  const lines = broken.map((d) => d.range.start.line);
  assert.ok(lines.includes(2), `the unknown target key is flagged: ${JSON.stringify(broken)}`);
  assert.ok(lines.includes(3), 'steps: does not belong in an inventory');
});

test("the editor schemas compile in ajv's strict mode with its formats (a CI lint with ajv-cli), and the pipeline schema takes every form of an input the validator takes: a list as one string of values, a list holding an expression, a number as digits", async () => {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const addFormats = (await import('ajv-formats')).default;
  const ajv = new Ajv2020({ allowUnionTypes: true });
  addFormats.default(ajv);
  const read = (name: string) => JSON.parse(readFileSync(join(ROOT, 'schema', name), 'utf8')) as object;
  const validate = ajv.compile(read('pipeline.schema.json'));
  ajv.compile(read('inventory.schema.json'));
  ajv.compile(read('report.schema.json'));
  const file = parseYaml(`version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    with: { target: prod, files: "1001, 1002" }
  - uses: update/vfs
    with: { target: prod, files: [1001, "\${{ 1 }}"] }
  - uses: monitoring/alerts
    with: { ignore-codes: "disk_full;replica_lag" }
  - uses: update/system
    with: { target: prod, recipients: "ops@example.com" }
  - uses: monitoring/engines
    with: { min-online: "2" }
`) as unknown;
  const valid = validate(file);
  assert.ok(valid, JSON.stringify(validate.errors?.slice(0, 3)));
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-editor-forms-'));
  writeFileSync(join(dir, 'forms.yml'), stringifyYaml(file));
  const cli = await runCli(['validate', join(dir, 'forms.yml')]);
  assert.equal(cli.code, 0, cli.stdout + cli.stderr);
});

test(
  'yaml-language-server: a list item written as an expression is no problem; a target without its password, a license type no name or code, an empty files, if or that: are flagged on their line, saying what is wanted',
  { timeout: 60_000 },
  async (t) => {
    const lsp = await start(t);
    const text = [
      'version: 1',
      'vars: { license: { product: 2, quantity: 1, type: U } }',
      'targets:',
      '  prod: { server: p, database: PROD, username: deploy }',
      'steps:',
      '  - uses: licensing/create',
      '    with:',
      '      licensee-id: a',
      '      licensee-name: b',
      '      expiration: "2027-12-31"',
      '      licenses:',
      '        - "${{ vars.license }}"',
      '        - { product: 1, quantity: 1, type: u }',
      '  - uses: update/vfs',
      '    with: { target: prod, files: "" }',
      '  - uses: assert',
      '    if: ""',
      '    with: { that: "" }',
      '',
    ].join('\n');
    const diagnostics = await lsp.open(doc('test/fixtures/editor/mistakes.yml'), text);
    const on = (line: number) =>
      diagnostics
        .filter((d) => d.range.start.line === line)
        .map((d) => d.message)
        .join(' | ');
    assert.deepEqual(
      [...new Set(diagnostics.map((d) => d.range.start.line))].sort((a, b) => a - b),
      [3, 12, 14, 16, 17],
      JSON.stringify(diagnostics.map((d) => [d.range.start.line, d.message])),
    );
    assert.match(on(3), /password/, `a target with a username and no password: ${on(3)}`);
    assert.match(on(12), /"nominalUser".*"U"/, `a license type is told with the names and codes: ${on(12)}`);
    assert.match(on(14), /minimum length of 1/, `files: "" names no file: ${on(14)}`);
    assert.match(on(16), /minimum length of 1/, `if: "" is no condition: ${on(16)}`);
    assert.match(on(17), /minimum length of 1/, `that: "" is no condition: ${on(17)}`);
  },
);
