// A file a command is named that is not found because its name could not be given: bytes of a
// file name that are not UTF-8 (Latin-1's é, say) reach Node's argv as U+FFFD, so the path the
// command gets is no file's. Told in the hint of the "no such file" it ends in.

/** The hint for a path not found (ENOENT) that holds U+FFFD; undefined for any other path or error. */
export function undecodedNameHint(path: string, error: unknown): string | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT' || !path.includes('\uFFFD')) return undefined;
  return 'the name holds \uFFFD (U+FFFD), which stands for bytes that are not UTF-8: enginectl is given that character, not the bytes, so no file of that name is found; rename the file with UTF-8 characters only';
}
