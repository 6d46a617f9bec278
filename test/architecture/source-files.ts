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
