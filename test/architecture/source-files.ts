import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository's root folder. */
export const root = resolve(import.meta.dirname, '../..');

/** The TypeScript files below `folder` (a path from the root), as paths from the root. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Static imports and re-exports, `import type`, side-effect imports and dynamic import() calls. */
export function importSpecifiers(source: string): string[] {
  const pattern = /(?:^|[^\w.])(?:import|export)\s*(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;
  return [...source.matchAll(pattern)].map((m) => (m[1] ?? m[2])!);
}
