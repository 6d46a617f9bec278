import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  id: string;
  signature: string;
  body: string;
  json: { id: string; type: string; createdAt: string; organizationId: string; data: any };
  status: number;
}

/**
 * A webhook receiver on 127.0.0.1 (random port), as an integrator would write one: it records every request
 * and answers with the status its path's script gives (next in the list, then the last one; default 200; 0 never answers).
 */
export async function startReceiver(port = 0) {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const script = scripts.get(path) ?? [200];
      const status = script.length > 1 ? script.shift()! : script[0]!;
      let json: Received['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = {} as never;
      }
      received.push({ path, id: String(req.headers['webhook-id']), signature: String(req.headers['webhook-signature']), body, json, status });
      // 0: never answer (the sender's timeout must end the attempt); /big: a 1 MB answer (the sender reads 64 KB).
      if (status === 0) return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(path.startsWith('/big') ? 'x'.repeat(1024 * 1024) : status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return {
    received,
    url,
    port: () => (server.address() as AddressInfo).port,
    /** The statuses the path answers, in order (the last one from then on). */
    script: (path: string, statuses: number[]) => void scripts.set(path, [...statuses]),
    /** Waits until `match` holds of what was received (the test's timeout bounds it). */
    async until(match: (all: Received[]) => boolean): Promise<Received[]> {
      while (!match(received)) await new Promise((resolve) => setTimeout(resolve, 10));
      return received;
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Verifies Webhook-Signature as a receiver must: HMAC-SHA256 of "<t>.<body>" with the secret, compared in constant time. */
export function verifySignature(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
