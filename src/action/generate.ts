// `npm run actions`: writes every action.yml and the README's action tables from definitions.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderActionYml, withReadmeTables } from './action-yml.ts';
import { ACTIONS, actionDir } from './definitions.ts';

const root = new URL('../../', import.meta.url).pathname;
for (const def of ACTIONS) {
  mkdirSync(join(root, actionDir(def)), { recursive: true });
  writeFileSync(join(root, actionDir(def), 'action.yml'), renderActionYml(def));
}
const readme = join(root, 'README.md');
writeFileSync(readme, withReadmeTables(readFileSync(readme, 'utf8'), ACTIONS));
