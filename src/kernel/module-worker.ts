import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's ESM register API (its `import` export: require.resolve would give the CommonJS one). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!;
  return new URL(exported.import.default, pathToFileURL(manifest)).href;
}

/**
 * Starts a worker thread on a module of ours. Under tsx and vitest the module is TypeScript source, and
 * a worker thread does not get their loaders (Node 20 runs --import hooks of the main thread only for
 * it), so the worker first registers tsx's loader and then imports the module. The compiled build
 * starts its .js module directly.
 */
export function startModuleWorker(moduleFile: URL, options: WorkerOptions = {}): Worker {
  if (!moduleFile.pathname.endsWith('.ts')) return new Worker(moduleFile, options);
  const bootstrap = `import(${JSON.stringify(tsxEsmApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleFile.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** The sibling module of `here` named `name`, as source under tsx and vitest, compiled in the build. */
export function siblingModule(here: string, name: string): URL {
  return new URL(here.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, here);
}
