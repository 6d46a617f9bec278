// The load generator, run as its own process by bench/run.ts so it does not share an event loop with
// the server under test. Argument: a JSON LoadSpec. Prints one JSON LoadResult line on stdout.
import { writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { makeGenerator, type GeneratorKind } from '../inventory/request-generators.js';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of discarded load before the measurement. */
  warmup: number;
  /** Requests per second across all connections (absent: as fast as the server answers). */
  overallRate?: number;
  /** Vary every request (bench/inventory/request-generators.ts): the kind and the JSON file of ids it picks from. */
  generator?: { kind: GeneratorKind; input: string; record?: string };
}

export interface LoadResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  total: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Requests during the warm-up (for CPU per request over the whole run). */
  warmupTotal: number;
  /** 2xx answers during warm-up and measurement. */
  ok: number;
  /** CPU seconds the load generator itself used. */
  cpuSeconds: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const host = new URL(spec.url).hostname;
if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') throw new Error(`refusing to load a non-loopback address: ${host}`);
const generator = spec.generator ? makeGenerator(spec.generator.kind, spec.generator.input) : undefined;

function run(duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration,
    timeout: 10,
    ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
    ...(generator ? { requests: [{ setupRequest: generator.setupRequest, onResponse: generator.onResponse }] } : {}),
  });
}

const warmup = spec.warmup > 0 ? await run(spec.warmup) : undefined;
const result = await run(spec.duration);
const usage = process.cpuUsage();
if (generator && spec.generator?.record) writeFileSync(spec.generator.record, JSON.stringify(generator.record));
const out: LoadResult = {
  requestsPerSec: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  total: result.requests.total,
  errors: result.errors,
  timeouts: result.timeouts,
  non2xx: result.non2xx,
  warmupTotal: warmup?.requests.total ?? 0,
  ok: result['2xx'] + (warmup?.['2xx'] ?? 0),
  cpuSeconds: (usage.user + usage.system) / 1e6,
};
console.log(JSON.stringify(out));
