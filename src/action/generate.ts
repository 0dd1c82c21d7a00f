// `npm run actions`: writes every action.yml and the action tables of docs/actions.md from definitions.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderActionYml, withActionTables } from './action-yml.ts';
import { ACTIONS, actionDir } from './definitions.ts';

const root = new URL('../../', import.meta.url).pathname;
for (const def of ACTIONS) {
  mkdirSync(join(root, actionDir(def)), { recursive: true });
  writeFileSync(join(root, actionDir(def), 'action.yml'), renderActionYml(def));
}
const readme = join(root, 'docs', 'actions.md');
writeFileSync(readme, withActionTables(readFileSync(readme, 'utf8'), ACTIONS));
