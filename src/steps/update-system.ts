// update/system: POST /api/devops/v1/update/system.
import { UPDATE } from './input-docs.ts';
import { SYSTEM_UPDATE_FLAGS, type SystemUpdateOptions } from '../api/schemas/devops.ts';
import { systemUpdateInputs, updateBody, type UpdateInputs, UPDATE_SECRET_INPUTS } from './update-body.ts';
import { updateOutcome } from './update-result.ts';
import { defineStep } from './types.ts';
import { enginesUpdated } from './verify-engines.ts';

export default defineStep<UpdateInputs>({
  uses: 'update/system',
  summary: 'System update',
  inputs: systemUpdateInputs as never,
  inputDocs: {
    ...UPDATE,
    products: 'Product keys to update: a list, or one string separated by commas; default: every product.',
  },
  outputs: ['success', 'versions', 'report', 'inserts', 'updates', 'deletes', 'client-version', 'server-version'],
  readOnly: false,
  unprovable:
    "the target's credentials (token, or user and password): the API checks them only when the update is sent",
  targetInput: 'target',
  updateReport: true,
  secretInputs: UPDATE_SECRET_INPUTS,
  needsServer: true,
  verify: enginesUpdated,
  async run(i, env) {
    const body = updateBody(i, env.targets, SYSTEM_UPDATE_FLAGS) as SystemUpdateOptions;
    const result = await env.client().devops.updateSystem(body, env.call);
    return updateOutcome(result);
  },
});
