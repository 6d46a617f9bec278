import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import net from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../scripts/build-if-stale.mjs';
import { wsConnection } from '../support/graphql-ws.js';
import { childPids, databaseForProcesses, freePort, processAlive, ROOT } from '../support/processes.js';

// `npm start` as a user runs it: npm, the shell it starts the script with, and the server. SIGTERM to
// npm must reach the server, which stops gracefully within SHUTDOWN_TIMEOUT_SECONDS and frees the port.

const database = databaseForProcesses();

interface Started {
  npm: ChildProcess;
  pids: number[];
  port: number;
  output: () => string;
  exited: Promise<void>;
}

const started: Started[] = [];

async function npmStart(env: Record<string, string> = {}, options: { ownGroup?: boolean } = {}): Promise<Started> {
  const port = await freePort();
  const npm = spawn('npm', ['start'], {
    // Its own process group, as a terminal's foreground job: a signal to the group reaches every process.
    detached: options.ownGroup ?? false,
    cwd: ROOT,
    env: { ...process.env, ...database.env(), PORT: String(port), HOST: '0.0.0.0', SEED_DEMO: 'false', JWT_SECRET: 'shutdown-test-secret-long-enough-0000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout!.on('data', (d) => (output += d));
  npm.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  const run: Started = { npm, pids: [], port, output: () => output, exited };
  started.push(run);
  for (let i = 0; i < 1200 && !output.includes('GraphQL and GraphiQL'); i++) {
    if (npm.exitCode !== null) throw new Error(`npm start exited: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!output.includes('GraphQL and GraphiQL')) throw new Error(`no banner: ${output}`);
  // The whole tree: npm and everything under it.
  const tree = [npm.pid!];
  for (let i = 0; i < tree.length; i++) tree.push(...(await childPids(tree[i]!)));
  run.pids = tree;
  return run;
}

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Waits until every process of the tree has exited (at most `ms`); the time it took. */
async function treeExits(run: Started, ms: number): Promise<number> {
  const start = Date.now();
  while (run.pids.some(processAlive)) {
    if (Date.now() - start > ms) throw new Error(`still running after ${ms} ms: ${run.pids.filter(processAlive).join(', ')}\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - start;
}

/** A POST whose body is sent in two parts: the request is in flight until `finish()` is called. */
function slowPost(port: number, path: string, body: string) {
  let req!: ClientRequest;
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
  answered.catch(() => {});
  req.write(body.slice(0, 10));
  return { answered, finish: () => req.end(body.slice(10)), abort: () => req.destroy() };
}

afterEach(async () => {
  for (const run of started.splice(0)) for (const pid of run.pids) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
});

// `npm start` runs the compiled server (docs/configuration.md, Starting): built here first (once, under the build's
// lock), so that the starts below measure the server's start, not a compiler's.
beforeAll(async () => {
  expect(await ensureBuilt(undefined, () => {})).toBe(true);
}, 300_000);

describe('npm start', () => {
  it('prints the address it listens on, with the local address as a hint', async () => {
    const run = await npmStart();
    expect(run.output()).toContain(`listening on http://0.0.0.0:${run.port} `);
    expect(run.output()).toContain(`http://localhost:${run.port}/graphql`);
    const banner = run.output().slice(run.output().indexOf('supply chain service listening'));
    expect(banner, banner).not.toContain('http://127.0.0.1');
    // The server's Node runs with the young generation of docs/configuration.md (Starting).
    if (existsSync('/proc/self/cmdline')) {
      const commandLines = run.pids.filter(processAlive).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
      const server = commandLines.find((argv) => argv.some((arg) => arg.endsWith('scripts/start.mjs')) && !argv.some((arg) => arg.endsWith('npm-cli.js')));
      expect(server, JSON.stringify(commandLines)).toContain('--max-semi-space-size=64');
    }
    run.npm.kill('SIGTERM');
    await treeExits(run, 30_000);

    const local = await npmStart({ HOST: '127.0.0.1' });
    expect(local.output()).toContain(`listening on http://127.0.0.1:${local.port} `);
    expect(local.output()).toContain(`GraphQL and GraphiQL: http://127.0.0.1:${local.port}/graphql`);
    expect(local.output()).not.toContain('0.0.0.0');
    local.npm.kill('SIGTERM');
    await treeExits(local, 30_000);
  }, 120_000);

  it('SIGTERM to npm stops the server gracefully: requests in flight finish, sockets close, the port is freed, every process exits', async () => {
    const run = await npmStart();
    expect(run.pids.length).toBeGreaterThanOrEqual(2);
    expect((await fetch(`http://127.0.0.1:${run.port}/health`)).status).toBe(200);
    const socket = wsConnection(`http://127.0.0.1:${run.port}`);
    // An upgrade still under way when the signal comes is dropped (1006), not closed as going away: wait for it.
    await socket.opened;
    const inFlight = slowPost(run.port, '/api/auth/sign-in', JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }));
    await new Promise((r) => setTimeout(r, 200));

    run.npm.kill('SIGTERM');
    // The socket is closed as going away; the request still being sent is answered, from the database.
    expect((await socket.closed).code).toBe(1001);
    await new Promise((r) => setTimeout(r, 300));
    expect(await portAnswers(run.port)).toBe(false);
    inFlight.finish();
    const answer = await inFlight.answered;
    expect([answer.status, answer.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);

    await treeExits(run, 30_000);
    await run.exited;
    expect(run.output()).toContain('SIGTERM: shutting down');
    expect(run.output()).toContain('stopped');
  }, 120_000);

  it('cuts a request that does not finish within SHUTDOWN_TIMEOUT_SECONDS and still exits', async () => {
    const run = await npmStart({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const stuck = slowPost(run.port, '/api/auth/sign-in', JSON.stringify({ email: 'nobody@example.com', password: 'never finished' }));
    await new Promise((r) => setTimeout(r, 200));
    run.npm.kill('SIGTERM');
    await expect(stuck.answered).rejects.toThrow();
    await treeExits(run, 30_000);
    expect(run.output()).toContain('stopped');
    expect(await portAnswers(run.port)).toBe(false);
  }, 120_000);

  it('Ctrl-C in a terminal (SIGINT to the whole process group) is one graceful stop: npm relaying it is not a second signal', async () => {
    const run = await npmStart({}, { ownGroup: true });
    const exitCode = new Promise<number | null>((resolve) => run.npm.once('exit', (code) => resolve(code)));
    const server = run.pids.at(-1)!;
    process.kill(-run.npm.pid!, 'SIGINT');
    // npm relays the signal to the server, which has it already; how soon depends on the machine, and two
    // deliveries close together may merge into one: the relay is sent here too, as it comes when late.
    await new Promise((r) => setTimeout(r, 50));
    if (processAlive(server)) process.kill(server, 'SIGINT');
    await treeExits(run, 30_000);
    expect(run.output()).toContain('SIGINT: shutting down');
    expect(run.output()).toContain('stopped');
    expect(run.output()).not.toContain('again: exiting now');
    expect(processAlive(server)).toBe(false);
    expect(await exitCode).toBe(0);
  }, 120_000);

  it('a second signal exits at once, whatever is still in flight', async () => {
    const run = await npmStart({ SHUTDOWN_TIMEOUT_SECONDS: '600' });
    const stuck = slowPost(run.port, '/api/auth/sign-in', JSON.stringify({ email: 'nobody@example.com', password: 'never finished' }));
    await new Promise((r) => setTimeout(r, 200));
    const server = run.pids.at(-1)!;
    process.kill(server, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    expect(processAlive(server)).toBe(true);
    process.kill(server, 'SIGTERM');
    await treeExits(run, 30_000);
    expect(run.output()).toContain('SIGTERM again: exiting now');
    stuck.abort();
  }, 120_000);
});
