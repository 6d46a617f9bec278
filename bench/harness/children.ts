// Child processes of the benchmark: the service, the bare server and the load generator each run in
// their own process so that none of them steals the event loop of another. Every child is tracked and
// killed when the benchmark ends, fails or is interrupted.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const live = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void>> = [];

export interface Child {
  process: ChildProcess;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  output(): string;
  /** Everything the child wrote to stdout. */
  stdout(): string;
  exited: Promise<number | null>;
}

/** Runs `node --import tsx <script>` (a compiled .js or .mjs script without tsx) with the project root as working directory. */
export function spawnTs(script: string, args: string[], env: Record<string, string>, cwd: string, nodeArgs: string[] = []): Child {
  const loader = /\.m?js$/.test(script) ? [] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, script, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let tail = '';
  let stdout = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-100_000);
    keep(chunk);
  });
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => {
      live.delete(child);
      resolve(code);
    });
    child.once('error', () => {
      live.delete(child);
      resolve(null);
    });
  });
  return { process: child, output: () => tail, stdout: () => stdout, exited };
}

/** SIGTERM, then SIGKILL when the child has not gone after `graceMs`. */
export async function stop(child: Child, graceMs = 10_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** Registers work to undo at the end (drop the scratch database, remove temp folders), run in reverse order. */
export function onCleanup(fn: () => Promise<void>) {
  cleanups.push(fn);
}

export async function runCleanups() {
  for (const child of [...live]) child.kill('SIGKILL');
  while (cleanups.length) {
    const fn = cleanups.pop()!;
    await Promise.race([fn().catch((e) => console.error(`cleanup failed: ${e instanceof Error ? e.message : e}`)), sleep(15_000)]);
  }
}

function killAll() {
  for (const child of live) child.kill('SIGKILL');
}

let interrupted = false;
/** True once SIGINT/SIGTERM/SIGHUP arrived (failures after that are the interruption's doing). */
export const wasInterrupted = () => interrupted;
export function installExitHandlers(overallTimeoutMs: number) {
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      console.error(`\n${signal}: stopping children and cleaning up`);
      runCleanups().finally(() => process.exit(130));
    });
  }
  const watchdog = setTimeout(() => {
    console.error(`benchmark took longer than ${Math.round(overallTimeoutMs / 1000)} s; giving up`);
    runCleanups().finally(() => process.exit(1));
  }, overallTimeoutMs);
  watchdog.unref();
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A port that is free on the loopback interface right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls GET <url>/health until it answers 200; fails when the child exits or the time is up. */
export async function waitForHealth(baseUrl: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`server exited with code ${child.process.exitCode}:\n${child.output()}`);
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`server at ${baseUrl} did not become healthy within ${timeoutMs / 1000} s:\n${child.output()}`);
}
