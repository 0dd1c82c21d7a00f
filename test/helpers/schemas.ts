// The ecosystem's reference schemas (../shared/schemas, vendored in test/fixtures/schemas so a
// clean clone has them; a test keeps the copies equal to the originals when those are present),
// and validators over them.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { validateXML } from 'xmllint-wasm';

export const VENDORED = fileURLToPath(new URL('../fixtures/schemas/', import.meta.url));
export const SHARED = fileURLToPath(new URL('../../../shared/schemas/', import.meta.url));

export function schemaPath(name: string): string {
  return `${VENDORED}${name}`;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** A validator for a draft-07 schema of the ecosystem (action.yml, workflows). */
export function draft07(name: string): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(readJson(schemaPath(name)));
}

/** A validator for a draft 2020-12 schema of the project (the report, the pipeline). */
export function draft2020(path: string): ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(readJson(path));
}

/**
 * Validates XML against the vendored junit-10.xsd with libxml2's xmllint (compiled to WebAssembly,
 * an npm package: no system tool needed); returns xmllint's complaint or undefined.
 */
export async function junitProblems(xmlFile: string): Promise<string | undefined> {
  const result = await validateXML({
    xml: { fileName: 'report.xml', contents: readFileSync(xmlFile, 'utf8') },
    schema: { fileName: 'junit-10.xsd', contents: readFileSync(schemaPath('junit-10.xsd'), 'utf8') },
  });
  return result.valid ? undefined : result.rawOutput;
}

export const sharedPresent = () => existsSync(SHARED);
