// `npm run emulator-docs`: writes docs/emulator.md's table of fault settings from the fault kinds.
import { readFileSync, writeFileSync } from 'node:fs';
import { withFaultTable } from './docs.ts';

const doc = new URL('../../../docs/emulator.md', import.meta.url);
writeFileSync(doc, withFaultTable(readFileSync(doc, 'utf8')));
