import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

// The probes of an orchestrator: /health/live (the process answers), /health/ready (the database answers, every
// migration of this code is applied, the instance is not shutting down), /health kept as it was.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** One raw HTTP/1.1 request whose last header line is sent only when `finish` is called. */
function heldRequest(port: number, path: string) {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d) => (text += d));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    async start() {
      await connected;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    },
    async finish(): Promise<{ status: number; body: any }> {
      socket.write('Connection: close\r\n\r\n');
      await ended;
      const head = text.slice(0, text.indexOf('\r\n'));
      // The body may come in chunks (chunked encoding): the JSON object is between the first { and the last }.
      return { status: Number(head.split(' ')[1]), body: JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) };
    },
  };
}

describe('health probes', () => {
  it('answers live and ready with the checks, and keeps /health as it was', async () => {
    expect((await server.call('GET', '/health')).body).toEqual({ status: 'ok' });
    expect(await server.call('GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await server.call('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      checks: { database: { status: 'ok', latencyMs: expect.any(Number) }, migrations: { status: 'ok', applied: expect.any(Number) }, shutdown: { status: 'ok' } },
    });
    const post = await server.call('POST', '/health/ready');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
  });

  it('is not ready while a migration of this code is not applied, and names it', async () => {
    const [last] = await server.app.prisma.$queryRaw<{ migration_name: string }[]>`SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await server.app.prisma.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${last!.migration_name}`;
    try {
      const ready = await server.call('GET', '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'not_ready', checks: { database: { status: 'ok' }, migrations: { status: 'failing', missing: [last!.migration_name] } } });
      expect((await server.call('GET', '/health/live')).status).toBe(200);
    } finally {
      await server.app.prisma.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = ${last!.migration_name}`;
    }
    expect((await server.call('GET', '/health/ready')).status).toBe(200);
  });

  it('is not ready once the instance is shutting down, while it still answers what is in flight', async () => {
    const stopping = await startTestServer();
    const held = heldRequest(stopping.listening.port, '/health/ready');
    await held.start();
    const shutdown = stopping.shutdown(10_000);
    const answer = await held.finish();
    expect(answer).toMatchObject({ status: 503, body: { status: 'not_ready', checks: { shutdown: { status: 'failing' } } } });
    await shutdown;
  });
});
