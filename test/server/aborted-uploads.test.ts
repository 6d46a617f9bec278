import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseForProcesses, runEntry, type ServerProcess, startServerProcess } from '../support/processes.js';

// A client that goes away in the middle of its upload is not a server failure: the server process logs
// no "unexpected error" (and no stack) for it, however many there are, and keeps answering.
const SLOW = 180_000;
const database = databaseForProcesses();
let server: ServerProcess;
let key: string;

const cli = async (...args: string[]) => JSON.parse((await runEntry('src/cli/admin.ts', args, database.env())).stdout.trim().split('\n').at(-1)!);

beforeAll(async () => {
  const { organizationId } = await cli('create-org', '--name', 'Aborts');
  key = (await cli('create-api-key', '--org', organizationId, '--name', 'all', '--scopes', '*')).key;
  server = await startServerProcess(database.env());
}, SLOW);
afterAll(() => server?.stop());

/**
 * Sends the head of a POST announcing `declared` bytes and `sent` bytes of its body, then resets the
 * connection; resolves once the socket is closed.
 */
function abortedUpload(path: string, declared: number, sent: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n${sent}`,
      );
      // Long enough for the server to be reading the body when the client goes away.
      setTimeout(() => socket.resetAndDestroy(), 200);
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}

describe('client-aborted uploads', () => {
  it(
    'an import, a REST write and a GraphQL request cut off mid-body log no unexpected error, and the server keeps answering',
    async () => {
      const rows = `[${'{"externalId":"ABORT-1","name":"half"},'.repeat(2000)}`;
      for (let i = 0; i < 5; i++) {
        await abortedUpload('/api/import/catalog', 5_000_000, rows);
        await abortedUpload('/api/products', 500, '{"sku":"ABORT-2","na');
        await abortedUpload('/graphql', 2000, '{"query":"{ products(first: 1) { totalCount } }","vari');
      }
      // A request after the aborts is answered, and by then the server has handled every abort.
      const res = await fetch(`${server.baseUrl}/api/products`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect((await res.json()).meta.total).toBe(0);
      await new Promise((r) => setTimeout(r, 500));
      expect(server.output()).not.toMatch(/unexpected error|Error: aborted|ECONNRESET|\n\s+at /);
    },
    SLOW,
  );
});
