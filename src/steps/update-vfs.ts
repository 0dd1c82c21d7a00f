// update/vfs: the DevOps area's vfs update.
import { UPDATE } from './input-docs.ts';
import { VFS_UPDATE_FLAGS, type VfsUpdateOptions } from '../api/schemas/devops.ts';
import { updateBody, vfsUpdateInputs, type UpdateInputs, UPDATE_SECRET_INPUTS } from './update-body.ts';
import { updateOutcome } from './update-result.ts';
import { defineStep } from './types.ts';

export default defineStep<UpdateInputs>({
  uses: 'update/vfs',
  summary: 'VFS update',
  inputs: vfsUpdateInputs as never,
  inputDocs: {
    ...UPDATE,
    files:
      'Keys of vfs files to update or insert: a list ([1001, 1002]), or one string separated by commas. files or directories is required.',
    directories:
      'Vfs directories to update or insert (absolute vfs paths such as /reports). files or directories is required.',
  },
  outputs: [
    'success',
    'versions',
    'report',
    'inserts',
    'updates',
    'deletes',
    'client-version',
    'server-version',
    'summary',
  ],
  readOnly: false,
  unprovable:
    "the target's credentials (token, or user and password) and its vfs files: the API reads neither without the update",
  targetInput: 'target',
  updateReport: true,
  anyOfInputs: ['files', 'directories'],
  secretInputs: UPDATE_SECRET_INPUTS,
  needsServer: true,
  async run(i, env) {
    const body = updateBody(i, env.targets, VFS_UPDATE_FLAGS) as VfsUpdateOptions;
    const result = await env.client().devops.updateVfs(body, env.call);
    return updateOutcome(result, { summary: result.summary ?? '' });
  },
});
