// A diagnostic at a path of a YAML source: the line and column the path has in the file.
import type { Diagnostic } from './diagnostics.ts';
import { locate, type Path, type YamlSource } from './yaml-doc.ts';

export const at = (source: YamlSource, path: Path, message: string, hint?: string, key = false): Diagnostic => ({
  file: source.file,
  ...locate(source, path, { key }),
  message,
  hint,
});
