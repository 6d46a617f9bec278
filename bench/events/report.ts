// The events part's table, verdict and BENCHMARKS.md section (--events).
import { cells, machineLine, sectionStamp, type Machine, type Row } from '../harness/report.js';
import { EVENTS_CONNECTIONS, EVENTS_RATE, SUBSCRIBERS, WITH_SUBSCRIBERS, type EventsResult } from './bench-events.js';

const HEAD = ['Backend', 'Target', 'Requests/s', 'p50 (ms)', 'p99 (ms)', 'Errors / non-2xx', 'vs bare', 'CPU ms/req: Node', 'CPU ms/req: PostgreSQL', 'Other work'];
const right = (i: number) => i >= 2;
const rowCells = (row: Row) => cells(row);

export function eventsTextTable(result: EventsResult): string {
  const all = [HEAD, ...result.rows.map(rowCells)];
  const widths = HEAD.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => r.map((c, i) => (right(i) ? (c ?? '').padStart(widths[i]!) : (c ?? '').padEnd(widths[i]!))).join('  ')).join('\n');
}

export function eventsVerdict(result: EventsResult): string[] {
  const lines: string[] = [];
  const [quiet, busy] = result.rows;
  if (quiet && busy) {
    lines.push(
      `Adjustments asked at ${EVENTS_RATE.toLocaleString('en')}/s: ${quiet.result.requestsPerSec.toFixed(0)}/s with no subscriber (p99 ${quiet.result.p99} ms), ` +
        `${busy.result.requestsPerSec.toFixed(0)}/s with ${SUBSCRIBERS} subscribers (p99 ${busy.result.p99} ms): ` +
        `${((busy.result.requestsPerSec / Math.max(1e-9, quiet.result.requestsPerSec)) * 100).toFixed(0)}% of the throughput without them.`,
    );
  }
  const s = result.subscribers;
  const events = result.changes[WITH_SUBSCRIBERS] ?? 0;
  if (s) {
    lines.push(
      `Subscribers: ${s.messages.toLocaleString('en')} messages for ${events.toLocaleString('en')} stock changes (warm-up included) × ${s.subscribers} subscribers ` +
        `(${((s.messages / Math.max(1, events * s.subscribers)) * 100).toFixed(1)}%); ${s.distinctEvents.toLocaleString('en')} changes reached every subscriber; ` +
        `${s.ended} subscriptions ended early. From the change's transaction to arrival: p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms.`,
    );
  }
  const r = result.receiver;
  if (r) {
    lines.push(
      `Webhook receiver (one endpoint for stock.changed): ${r.distinctEvents.toLocaleString('en')} of ${events.toLocaleString('en')} changes delivered ` +
        `(${((r.distinctEvents / Math.max(1, events)) * 100).toFixed(1)}%; ${r.deliveries.toLocaleString('en')} requests, ${r.badSignatures} with a bad signature), ` +
        `${r.pending.toLocaleString('en')} still pending when the bench stopped waiting; the last arrived ${r.lastAt ? ((r.lastAt - r.loadEndedAt) / 1000).toFixed(1) : '-'} s after the load stopped. ` +
        `From the change's transaction to arrival: p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms.`,
    );
  }
  return lines;
}

export function eventsSection(date: Date, machine: Machine, settings: { mode: string; duration: number; warmup: number }, result: EventsResult): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [
    `## ${sectionStamp(date)} UTC, events (${settings.mode})`,
    '',
    '`npm run bench -- --events` (issue 23; bench/events/): PostgreSQL only. Signed adjustments (`POST /api/inventory/adjust`, ±1) on random lines ' +
      `of one location's 10,000 stock lines, asked at ${EVENTS_RATE.toLocaleString('en')}/s over ${EVENTS_CONNECTIONS} connections (autocannon overallRate), ` +
      `${settings.duration} s after a ${settings.warmup} s warm-up: first with no subscriber, then with ${SUBSCRIBERS} graphql-ws subscriptions to ` +
      '`stockChanged(locationId)` at that location, held by a process of their own (bench/events/subscribers.ts), and one webhook endpoint for ' +
      '`stock.changed` whose receiver (bench/events/webhook-receiver.ts, its own process) verifies each signature and answers 200. Each adjustment is one ' +
      '`stock.changed` event; every subscriber and the receiver should receive every one (the bench waits up to 2 minutes for the deliveries to drain). The delay is measured from the change\'s transaction (`occurredAt`, ' +
      'the database clock of the same machine) to its arrival at the subscriber, so it includes the adjustment\'s own transaction, the publisher\'s ' +
      'poll (EVENT_PUBLISH_POLL_MS, 100 ms), the LISTEN/NOTIFY round and the socket (for the receiver: the webhook worker\'s fan-out into deliveries and its ' +
      'sending). No bare yardstick: there is no bare equivalent of the fan-out.',
    '',
    machineLine(machine),
    '',
    line(HEAD),
    line(HEAD.map((_, i) => (right(i) ? '---:' : '---'))),
    ...result.rows.map((r) => line(rowCells(r))),
    '',
    ...eventsVerdict(result).map((l) => `- ${l}`),
    ...(result.notes.length ? ['', ...result.notes] : []),
    '',
  ].join('\n');
}
