// The ecosystem's reference schemas (../shared/schemas, vendored in test/fixtures/schemas so a
// clean clone has them; a test keeps the copies equal to the originals when those are present),
// and validators over them.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

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

export function xmllintAvailable(): boolean {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Validates XML against the vendored junit-10.xsd; returns xmllint's complaint or undefined. */
export function junitProblems(xmlFile: string): string | undefined {
  try {
    execFileSync('xmllint', ['--noout', '--schema', schemaPath('junit-10.xsd'), xmlFile], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

export const sharedPresent = () => existsSync(SHARED);
