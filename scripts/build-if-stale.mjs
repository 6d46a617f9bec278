// The compiled server, built when it is missing or older than the sources: used by `npm start` (scripts/start.mjs)
// and `npm run build` (scripts/build.mjs). One build at a time per folder (a lock file beside it); a build goes to a
// folder of its own and replaces the old one when complete.
//
// A build transpiles each TypeScript file on its own with esbuild, as tsx does for `npm run start:source` and the
// tests: the same JavaScript, in 1-6 s on a 2-core machine, where tsc took 17-70 s to check every type again on the way
// (`npm run typecheck` checks them; CI runs it before the tests).
import { closeSync, existsSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SOURCES = ['src', 'rest-adapter', 'prisma/schema.prisma', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
/** A lock older than this is a build that died: it is taken over. */
const STALE_LOCK_MS = 10 * 60_000;

/** The newest modification time of the files the build reads. */
function newestSource() {
  let newest = 0;
  const walk = (file) => {
    const stat = statSync(file);
    if (stat.isDirectory()) for (const entry of readdirSync(file)) walk(path.join(file, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) if (existsSync(path.join(root, source))) walk(path.join(root, source));
  return newest;
}

export const isFresh = (dist) => {
  const stamp = path.join(dist, '.built');
  return existsSync(stamp) && existsSync(path.join(dist, 'src', 'main.js')) && statSync(stamp).mtimeMs >= newestSource();
};

async function withLock(dist, fn) {
  const lock = `${dist}.lock`;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
      } catch {
        // gone meanwhile
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Every TypeScript source of the server (src/, rest-adapter/), declarations left out. */
function sources() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(file);
    }
  };
  for (const dir of ['src', 'rest-adapter']) walk(path.join(root, dir));
  return files;
}

/** Each source to `out`/<its path>.js with a source map, module by module (no bundling: imports stay as written). */
async function transpile(out) {
  await build({
    entryPoints: sources(),
    outdir: out,
    outbase: root,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.build.json'),
    logLevel: 'error',
  });
}

/** Builds `dist` (default dist/) unless it is fresh (or `force`); true when it is usable afterwards. */
export async function ensureBuilt(dist = path.join(root, 'dist'), log = (m) => process.stderr.write(`${m}\n`), { force = false } = {}) {
  if (!force && isFresh(dist)) return true;
  return withLock(dist, async () => {
    // Another process may have built it while this one waited.
    if (!force && isFresh(dist)) return true;
    const started = Date.now();
    const out = `${dist}.tmp-${process.pid}`;
    log('Building the server once (TypeScript to dist/; later starts run it directly)…');
    try {
      await transpile(out);
    } catch (error) {
      rmSync(out, { recursive: true, force: true });
      log(`The build failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    writeFileSync(path.join(out, '.built'), new Date().toISOString());
    const old = `${dist}.old-${process.pid}`;
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(out, dist);
    rmSync(old, { recursive: true, force: true });
    log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return true;
  });
}
