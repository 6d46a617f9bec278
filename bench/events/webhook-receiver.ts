// The webhook receiver of the --events part, as a process of its own: an HTTP server on 127.0.0.1 that answers
// 200 to every delivery, as an integrator's would, after verifying its Webhook-Signature (HMAC-SHA256 of
// "<t>.<body>" with the endpoint's secret, read from the file named in the spec once the endpoint exists). For every
// delivery: the delay from the event's transaction (`createdAt`, the database clock of this machine) to its arrival.
// Prints "listening <port>", then on SIGTERM one JSON ReceiverResult line.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceiverSpec {
  /** A file holding the endpoint's secret (written after the endpoint is created, before any change is made). */
  secretFile: string;
}

export interface ReceiverResult {
  deliveries: number;
  /** Distinct events received (a retried delivery counts once). */
  distinctEvents: number;
  badSignatures: number;
  p50: number;
  p99: number;
  max: number;
  /** When the last delivery arrived (ms since the epoch); 0 when none did. */
  lastAt: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as ReceiverSpec;
let secret: string | undefined;
const histogram = new Uint32Array(600_001);
const seen = new Set<string>();
let deliveries = 0;
let badSignatures = 0;
let lastAt = 0;

function verified(header: string, body: string): boolean {
  secret ??= readFileSync(spec.secretFile, 'utf8').trim();
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (!verified(String(req.headers['webhook-signature'] ?? ''), body)) {
      badSignatures++;
      res.writeHead(400).end('bad signature');
      return;
    }
    const event = JSON.parse(body) as { id: string; createdAt: string };
    deliveries++;
    lastAt = Date.now();
    seen.add(event.id);
    histogram[Math.max(0, Math.min(histogram.length - 1, Math.round(lastAt - Date.parse(event.createdAt))))]!++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));

function quantile(q: number) {
  const target = Math.ceil(deliveries * q);
  let count = 0;
  for (let ms = 0; ms < histogram.length; ms++) {
    count += histogram[ms]!;
    if (count >= target && target > 0) return ms;
  }
  return 0;
}

process.on('SIGTERM', () => {
  let max = 0;
  for (let ms = histogram.length - 1; ms >= 0; ms--) if (histogram[ms]) { max = ms; break; }
  const result: ReceiverResult = { deliveries, distinctEvents: seen.size, badSignatures, p50: quantile(0.5), p99: quantile(0.99), max, lastAt };
  console.log(JSON.stringify(result));
  process.exit(0);
});
