// `npm start`: runs the compiled server (dist/), building it first when it is missing or older than the sources, so
// that a start costs what the server's own start-up costs (about 2.5 s warm) instead of compiling TypeScript in
// the process every time. `npm install && npm start` on a bare machine still works: the first start builds once.
// A build goes to a folder of its own and replaces dist/ when it is complete, so a start never runs half a build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.built');
const SOURCES = ['src', 'rest-adapter', 'prisma/schema.prisma', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

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

function build() {
  const started = Date.now();
  const out = path.join(root, `.dist-${process.pid}`);
  process.stderr.write('Building the server once (TypeScript to dist/; later starts run it directly)…\n');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', out], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    process.stderr.write('The build failed (see above); starting from the TypeScript sources instead.\n');
    return false;
  }
  writeFileSync(path.join(out, '.built'), new Date().toISOString());
  const old = path.join(root, `.dist-old-${process.pid}`);
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(out, dist);
  rmSync(old, { recursive: true, force: true });
  process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  return true;
}

const fresh = existsSync(stamp) && existsSync(path.join(dist, 'src', 'main.js')) && statSync(stamp).mtimeMs >= newestSource();
if (fresh || process.env.START_FROM_SOURCE !== '1' && build()) {
  await import(pathToFileURL(path.join(dist, 'src', 'main.js')).href);
} else {
  // From the sources (START_FROM_SOURCE=1, or a build that failed): tsx compiles as it loads.
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'src', 'main.ts')).href);
}
