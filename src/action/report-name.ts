// The name of an action's report files (in a directory of the step's own under RUNNER_TEMP): the
// pipeline's name as a slug.

/** The reports' file name for a pipeline: its name as a slug, prefixed enginectl-. */
export function reportName(label: string): string {
  const slug =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'pipeline';
  return slug.startsWith('enginectl') ? slug : `enginectl-${slug}`;
}
