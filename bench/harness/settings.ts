// The command line of `npm run bench` (see bench/run.ts for the options): what each part measures, for how
// long and with how many connections, and the project root every process starts in.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    'pglite-connections': { type: 'string' },
    only: { type: 'string' },
    products: { type: 'boolean', default: false },
    inventory: { type: 'boolean', default: false },
    import: { type: 'boolean', default: false },
    forecast: { type: 'boolean', default: false },
    transfers: { type: 'boolean', default: false },
    'forecast-scale': { type: 'boolean', default: false },
    stalls: { type: 'boolean', default: false },
    warehouse: { type: 'boolean', default: false },
    planning: { type: 'boolean', default: false },
    events: { type: 'boolean', default: false },
    instances: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    'scale-sizes': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'wait-idle': { type: 'string' },
    rounds: { type: 'string' },
  },
});

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 600) throw new Error(`${name} must be a number of 1 to 600, got ${value}`);
  return n;
}

const connections = Math.round(positive('connections', args.connections ?? process.env.BENCH_CONNECTIONS, 32));

export const settings = {
  mode: args.quick ? 'quick' : 'full',
  duration: args.quick ? 3 : positive('duration', args.duration ?? process.env.BENCH_DURATION, 10),
  warmup: args.quick ? 1 : positive('warmup', args.warmup ?? process.env.BENCH_WARMUP, 2),
  connections,
  /**
   * Connections for the inventory targets on PGlite, which serves one query at a time: more only
   * lengthen the queue (at 32 a request waits seconds, longer than a --quick run).
   */
  pgliteConnections: Math.round(positive('pglite-connections', args['pglite-connections'] ?? process.env.BENCH_PGLITE_CONNECTIONS, Math.min(8, connections))),
  rounds: Math.round(positive('rounds', args.rounds ?? process.env.BENCH_ROUNDS, 1)),
  waitIdle: Number(args['wait-idle'] ?? process.env.BENCH_WAIT_IDLE ?? 0) || 0,
};

/**
 * None of --products, --inventory, --import, --forecast, --forecast-scale, --transfers, --stalls, --warehouse, --planning, --events,
 * --instances: every part but --scale (a million products take minutes to load; it runs when asked).
 */
const none = !args.products && !args.inventory && !args.import && !args.forecast && !args['forecast-scale'] && !args.transfers && !args.stalls && !args.warehouse && !args.planning && !args.events && !args.instances && !args.scale;
export const parts = {
  products: args.products || none,
  inventory: args.inventory || none,
  import: args.import || none,
  forecast: args.forecast || none,
  transfers: args.transfers || none,
  forecastScale: args['forecast-scale'] || none,
  stalls: args.stalls || none,
  warehouse: args.warehouse || none,
  planning: args.planning || none,
  events: args.events || none,
  instances: args.instances || none,
  scale: args.scale,
};
