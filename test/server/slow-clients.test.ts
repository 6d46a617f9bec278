import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

// Small bounds so that the tests take seconds: headers within 1 s, the whole request within 2 s, and
// at most 20 connections from one address (3 on the second server).
let server: TestServer;
let capped: TestServer;

beforeAll(async () => {
  server = await startTestServer({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '20' });
  capped = await startTestServer({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3' });
});
afterAll(async () => {
  await server?.close();
  await capped?.close();
});

interface Dribbler {
  socket: Socket;
  /** What the server sent back before it closed the connection. */
  closed: Promise<string>;
  stop(): void;
}

/** A raw connection that sends `head` at once, then one byte of `tail` every 200 ms. */
function dribble(target: TestServer, head: string, tail = 'x'.repeat(1000)): Dribbler {
  const { port } = new URL(target.url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (data) => (received += data.toString()));
  socket.on('error', () => {});
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  socket.once('connect', () => {
    socket.write(head);
    timer = setInterval(() => {
      if (sent < tail.length && socket.writable) socket.write(tail[sent++]!);
    }, 200);
  });
  const closed = new Promise<string>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve(received);
    }),
  );
  return { socket, closed, stop: () => (clearInterval(timer), socket.destroy()) };
}

/** The answers of the dribblers, or 'still open' for those the server had not closed after `ms`. */
async function closedWithin(dribblers: Dribbler[], ms: number): Promise<string[]> {
  const deadline = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), ms));
  const answers = await Promise.all(dribblers.map((d) => Promise.race([d.closed, deadline])));
  for (const d of dribblers) d.stop();
  return answers;
}

async function health(target: TestServer) {
  return (await fetch(`${target.url}/health`, { signal: AbortSignal.timeout(2000) })).status;
}

describe('slow clients', () => {
  it('closes 16 connections that send their headers a byte at a time once HTTP_HEADERS_TIMEOUT_MS passes, answering /health meanwhile', async () => {
    const dribblers = Array.from({ length: 16 }, () => dribble(server, 'GET /api/products HTTP/1.1\r\nHost: localhost\r\nX-Slow: '));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await health(server)).toBe(200);
    const answers = await closedWithin(dribblers, 6000);
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(await health(server)).toBe(200);
  });

  it('closes a connection that sends its body a byte at a time once HTTP_REQUEST_TIMEOUT_MS passes', async () => {
    const head = 'POST /api/auth/sign-in HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const dribblers = Array.from({ length: 4 }, () => dribble(server, head));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await health(server)).toBe(200);
    const answers = await closedWithin(dribblers, 8000);
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(await health(server)).toBe(200);
  });

  it('closes connections past HTTP_MAX_CONNECTIONS_PER_ADDRESS at once', async () => {
    const { port } = new URL(capped.url);
    const open = await Promise.all(
      Array.from({ length: 3 }, () => new Promise<Socket>((resolve) => { const s = connect(Number(port), '127.0.0.1', () => resolve(s)); })),
    );
    // Give the server the time to count them, then one more.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = dribble(capped, 'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await closedWithin([extra], 3000)).toEqual(['']);
    for (const socket of open) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await health(capped)).toBe(200);
  });
});
