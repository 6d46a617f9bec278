import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedAddress } from './webhook-url-guard.js';

/** Most of a receiver's answer that is read (then the connection is cut) and kept as the attempt's excerpt. */
export const RESPONSE_CAP_BYTES = 64 * 1024;
const EXCERPT_CHARS = 1000;
/** Connections kept open to one receiver address (a step sends at most this many of one endpoint at once). */
const SOCKETS_PER_RECEIVER = 25;
/** Receivers whose connections are kept; the least recently used one's are closed beyond it. */
const KEPT_RECEIVERS = 200;

const agents = new Map<string, http.Agent>();

/**
 * Keep-alive connections per receiver, keyed by the URL's origin and the address the guard checked: a pooled
 * connection was opened to a checked address, and an origin that now resolves elsewhere gets a pool of its own.
 * A new TCP (and TLS) handshake per delivery would cost more than many deliveries do. Idle connections hold no
 * process open (Node unrefs them) and close after 30 s; the pools are the process's, shared by every app in it.
 */
function agentFor(url: URL, target: CheckedAddress): http.Agent {
  const key = `${url.origin}|${target.address}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
  } else {
    const options = { keepAlive: true, maxSockets: SOCKETS_PER_RECEIVER, maxFreeSockets: SOCKETS_PER_RECEIVER, scheduling: 'lifo' as const, timeout: 30_000 };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  }
  agents.set(key, agent);
  if (agents.size > KEPT_RECEIVERS) {
    const [oldest, dropped] = agents.entries().next().value!;
    agents.delete(oldest);
    dropped.destroy();
  }
  return agent;
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
}

/**
 * POSTs one signed body to the URL, connecting to the address the guard checked (a second lookup could
 * answer with another, internal one). No redirect is followed (a 3xx is a failure like any non-2xx); the
 * whole exchange is cut after timeoutMs, the answer after RESPONSE_CAP_BYTES.
 */
export function sendWebhook(url: URL, target: CheckedAddress, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
  const started = performance.now();
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, target.all);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'scm-webhooks/1' },
      lookup,
      agent: agentFor(url, target),
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, error: `No answer within ${timeoutMs} ms`, responseExcerpt: null });
    }, timeoutMs);
    request.on('error', (error) => finish({ statusCode: null, error: `${(error as NodeJS.ErrnoException).code ?? 'ERROR'}: ${error.message}`.slice(0, 500), responseExcerpt: null }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (error: string | null) => {
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_CAP_BYTES).toString('utf8');
        finish({ statusCode: response.statusCode ?? null, error, responseExcerpt: text ? text.slice(0, EXCERPT_CHARS) : null });
      };
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
        if (size >= RESPONSE_CAP_BYTES) {
          response.destroy();
          request.destroy();
          done(null);
        }
      });
      response.on('end', () => done(null));
      response.on('error', (error) => done(`Answer cut: ${error.message}`));
      response.on('close', () => done(null));
    });
    request.end(body);
  });
}
