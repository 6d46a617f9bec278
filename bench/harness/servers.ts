// A server under test (the service, or the bare yardstick of bench/harness/bare-server.ts) as its own
// process on a free port, optionally under --cpu-prof, and a JSON fetch against it.
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, spawnTs, stop, waitForHealth, type Child } from './children.js';
import { summarizeProfile } from './profile-summary.js';
import { RATE_LIMITS_RAISED } from './rate-limit-env.js';
import { args, root } from './settings.js';
import { ensureBuilt } from '../../scripts/build-if-stale.mjs';

export async function getJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

export interface Server {
  child: Child;
  base: string;
  profileDir?: string;
}

export async function startServer(script: string, env: Record<string, string>, name: string): Promise<Server> {
  if (script === 'src/main.ts') env = { ...RATE_LIMITS_RAISED, ...env };
  const port = await freePort();
  let profileDir: string | undefined;
  if (args.profile) {
    profileDir = join(root, '.bench', 'profiles', `${new Date().toISOString().replace(/[:.]/g, '-')}-${name}`);
    await mkdir(profileDir, { recursive: true });
  }
  // The service runs as npm start runs it (package.json, scripts/start.mjs): compiled (built here when the sources are
  // newer), its young generation at 64 MB. Under tsx every closure a hot function makes would also be named (keepNames).
  const service = script === 'src/main.ts';
  if (service) await ensureBuilt(undefined, () => {});
  const serverFlags = service ? ['--max-semi-space-size=64'] : [];
  const nodeArgs = [...serverFlags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  const child = spawnTs(service ? 'dist/src/main.js' : script, [], { ...env, PORT: String(port), HOST: '127.0.0.1' }, root, nodeArgs);
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, child);
  return { child, base, profileDir };
}

export async function stopServer(server: Server) {
  await stop(server.child);
  if (!server.profileDir) return;
  for (const file of await readdir(server.profileDir)) {
    if (file.endsWith('.cpuprofile')) console.log(`profile ${join(server.profileDir, file)}\n${summarizeProfile(join(server.profileDir, file))}`);
  }
}
