// The subscribers of the --events part, as their own process (so receiving does not share an event loop with the
// load generator or the server): N graphql-ws connections, each subscribed to stockChanged at one location. For
// every message: the delay from the change's transaction (occurredAt, the database clock of this machine) to its
// arrival here. Arguments: a JSON SubscriberSpec. Prints "ready" once every subscription is acknowledged by a first
// change or by the server's stream count, then on SIGTERM one JSON SubscriberResult line.
import WebSocket from 'ws';

export interface SubscriberSpec {
  base: string;
  key: string;
  locationId: string;
  count: number;
}

export interface SubscriberResult {
  subscribers: number;
  messages: number;
  /** Changes whose message every subscriber received. */
  distinctEvents: number;
  p50: number;
  p99: number;
  max: number;
  /** Subscriptions that ended or errored before the end. */
  ended: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as SubscriberSpec;
const QUERY = 'subscription ($locationId: ID) { stockChanged(locationId: $locationId) { eventId occurredAt } }';
// Delays in whole milliseconds, counted per value: a million messages fit in a small array.
const histogram = new Uint32Array(60_001);
let messages = 0;
let ended = 0;
const perEvent = new Map<string, number>();

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${spec.base.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${spec.key}` } })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { locationId: spec.locationId } } }));
        resolve();
      } else if (message.type === 'next') {
        const change = message.payload?.data?.stockChanged;
        if (!change) return;
        messages++;
        const delay = Math.max(0, Math.min(60_000, Math.round(Date.now() - Date.parse(change.occurredAt))));
        histogram[delay]!++;
        perEvent.set(change.eventId, (perEvent.get(change.eventId) ?? 0) + 1);
      } else if (message.type === 'error' || message.type === 'complete') {
        ended++;
      }
    });
    socket.on('close', (code, reason) => {
      ended++;
      reject(new Error(`socket closed before its subscription started: ${code} ${reason}`));
    });
  });
}

function quantile(q: number) {
  const target = Math.ceil(messages * q);
  let seen = 0;
  for (let ms = 0; ms < histogram.length; ms++) {
    seen += histogram[ms]!;
    if (seen >= target && target > 0) return ms;
  }
  return 0;
}

const sockets: Promise<void>[] = [];
for (let i = 0; i < spec.count; i++) sockets.push(open());
await Promise.all(sockets);
console.log('ready');
process.on('SIGTERM', () => {
  let max = 0;
  for (let ms = histogram.length - 1; ms >= 0; ms--) if (histogram[ms]) { max = ms; break; }
  const everyone = [...perEvent.values()].filter((n) => n === spec.count).length;
  const result: SubscriberResult = { subscribers: spec.count, messages, distinctEvents: everyone, p50: quantile(0.5), p99: quantile(0.99), max, ended: Math.max(0, ended - 0) };
  console.log(JSON.stringify(result));
  process.exit(0);
});
