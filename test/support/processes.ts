import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { createPGlite } from '../../src/db/pglite-extensions.js';
import { createTestDatabase, migratedPgliteDump, type TestDatabase } from './database.js';

/** The project's root, where commands run. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end in the project's root, with these variables over the test's own. */
export function runProcess(command: string, args: string[], env: Record<string, string> = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs one of the project's TypeScript entry points (src/cli/admin.ts, src/main.ts) as Node would with tsx. */
export const runEntry = (file: string, args: string[], env: Record<string, string> = {}) =>
  runProcess(process.execPath, ['--import', 'tsx', path.join(ROOT, file), ...args], env);

/**
 * A database of the test file's own for commands that open it themselves (the admin CLI, the server
 * entry): the variables that point a process at it, ready once the file's beforeAll has run. Migrated
 * already, as the PostgreSQL one is made from the migrated template (on PGlite a data folder loaded from the
 * migrated dump of global set-up: the first process then skips initdb and the migrations, 10-30 s of CPU),
 * unless `fresh`: an empty data folder, which the first process creates and migrates as on a bare machine.
 */
export function databaseForProcesses(options: { fresh?: boolean } = {}): { env: () => Record<string, string> } {
  let dataDir: string | undefined;
  let testDb: TestDatabase | undefined;
  let env: Record<string, string> = {};
  beforeAll(async () => {
    if (process.env.TEST_DATABASE_URL) {
      testDb = await createTestDatabase({ poolSize: 1 });
      env = { DATABASE_URL: testDb.url!, DATA_DIR: '' };
    } else {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'scm-cli-'));
      if (!options.fresh) await (await createPGlite(dataDir, { loadDataDir: await migratedPgliteDump() })).close();
      env = { DATABASE_URL: '', DATA_DIR: dataDir };
    }
  });
  afterAll(async () => {
    await testDb?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return { env: () => env };
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a process with this id still exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The ids of a process's children (Linux /proc). */
export async function childPids(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(/\s+/).filter(Boolean).map(Number);
}

export interface ServerProcess {
  baseUrl: string;
  port: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** SIGTERM, then waits for the exit. */
  stop: () => Promise<void>;
  /** SIGKILL (kill -9: no shutdown of any kind), then waits for the exit. */
  kill: () => Promise<void>;
}

/**
 * The server entry (src/main.ts under tsx, or `entry`, e.g. scripts/start.mjs) as its own process on a free port,
 * once /health answers (within `waitMs`).
 */
export async function startServerProcess(env: Record<string, string>, entry: string[] = ['--import', 'tsx', 'src/main.ts'], waitMs = 60_000): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: { ...process.env, SEED_DEMO: 'false', JWT_SECRET: 'process-test-secret-long-enough-0000000', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  for (let i = 0; i < waitMs / 100; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return { baseUrl, port, output: () => output, stop, kill };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`server did not start: ${output}`);
}
