import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, root, sourceFiles } from './source-files.js';

/** Which folders a folder's files may not import, and which packages. */
/** `only`: the packages a folder may import, when it is limited to a few. */
const RULES: { from: string; forbidden: string[]; packages?: RegExp; only?: RegExp }[] = [
  { from: 'src/services', forbidden: ['src/schema', 'rest-adapter', 'src/server'], packages: /^(graphql|graphql-yoga|graphql-ws|@pothos\/.*|@graphql-yoga\/.*)$/ },
  { from: 'src/schema', forbidden: ['rest-adapter', 'src/server'] },
  { from: 'rest-adapter', forbidden: ['src/services'] },
  { from: 'src/db', forbidden: ['src/services'] },
  { from: 'src/kernel', forbidden: ['src/services', 'src/schema', 'src/server', 'rest-adapter'] },
  { from: 'src/auth', forbidden: ['src/services', 'src/schema', 'src/server', 'rest-adapter'] },
  // The contracts (one zod schema per input) are read by every door and the domain; they depend on nothing of ours but the kernel.
  { from: 'src/contracts', forbidden: ['src/services', 'src/schema', 'src/server', 'rest-adapter', 'src/auth', 'src/db', 'src/cli', 'src/generated'], only: /^zod$/ },
];

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The rule broken by each import of `file` (a path from the repository root). */
export function violations(file: string, specifiers: string[]): string[] {
  const found: string[] = [];
  for (const rule of RULES.filter((r) => within(file, r.from))) {
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) {
        const target = relative(root, resolve(root, dirname(file), specifier));
        const folder = rule.forbidden.find((f) => within(target, f));
        if (folder) found.push(`${file} imports ${specifier} (${rule.from} never imports ${folder})`);
        else if (rule.only && !within(target, rule.from) && !within(target, 'src/kernel')) found.push(`${file} imports ${specifier} (${rule.from} imports only itself and src/kernel)`);
      } else if (rule.only && !rule.only.test(specifier)) {
        found.push(`${file} imports ${specifier} (${rule.from} imports no package but zod)`);
      } else if (rule.packages?.test(specifier)) {
        found.push(`${file} imports ${specifier} (${rule.from} never imports GraphQL packages)`);
      }
    }
  }
  return found;
}

describe('layering', () => {
  it('finds the imports of every form', () => {
    const source = [
      "import { a } from '../a.js';",
      "import type { B } from '../b.js';",
      "import '../c.js';",
      "export { d } from '../d.js';",
      "export * from '../e.js';",
      'import {\n  f,\n  g,\n} from "../f.js";',
      "const h = await import('../h.js');",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['../a.js', '../b.js', '../c.js', '../d.js', '../e.js', '../f.js', '../h.js']);
  });

  it('flags a forbidden import, so that the check below cannot pass for want of looking', () => {
    expect(violations('rest-adapter/x-routes.ts', ['../src/services/import/jobs.js'])).toHaveLength(1);
    expect(violations('src/services/import/jobs/jobs.ts', ['graphql', '../../../schema/builder.js', '../../../server/app.js'])).toHaveLength(3);
    expect(violations('src/services/import/jobs/jobs.ts', ['@pothos/core'])).toHaveLength(1);
    expect(violations('src/schema/import/import-job.ts', ['../../../rest-adapter/router.js'])).toHaveLength(1);
    expect(violations('src/db/database.ts', ['../services/tenant.js'])).toHaveLength(1);
    expect(violations('src/kernel/errors.ts', ['../services/tenant.js'])).toHaveLength(1);
    expect(violations('src/auth/credentials.ts', ['../server/app.js'])).toHaveLength(1);
    expect(violations('src/schema/import/import-job.ts', ['../../services/import/jobs.js', '../../kernel/errors.js', 'graphql'])).toEqual([]);
    expect(violations('src/contracts/products/product-input.ts', ['zod', '../../kernel/input-limits.js', '../parse.js', './sku-rules.js'])).toEqual([]);
    expect(violations('src/contracts/products/product-input.ts', ['graphql', '../../input-text.js', '../../services/tenant.js', '../../auth/permissions.js'])).toHaveLength(4);
    expect(violations('rest-adapter/products/product-routes.ts', ['../../src/contracts/products/product-input.js'])).toEqual([]);
    expect(violations('src/services/products/products.ts', ['../../contracts/products/product-input.js'])).toEqual([]);
  });

  it('holds in every source file: services never import schema, server, rest-adapter or GraphQL; schema never imports rest-adapter or server; rest-adapter and db never import services; kernel and auth import none of them; contracts import only zod and the kernel', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('rest-adapter')].filter((f) => !within(f, 'src/generated'));
    expect(files.filter((f) => within(f, 'src/services')).length).toBeGreaterThan(10);
    expect(files.filter((f) => within(f, 'rest-adapter')).length).toBeGreaterThan(10);
    expect(files.filter((f) => within(f, 'src/contracts')).length).toBeGreaterThan(3);
    const found = files.flatMap((file) => violations(file, importSpecifiers(readFileSync(join(root, file), 'utf8'))));
    expect(found).toEqual([]);
  });
});
