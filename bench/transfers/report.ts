// The transfers part's summary table, verdict and BENCHMARKS.md section.
import { machineLine, sectionStamp, type Machine } from '../harness/report.js';
import { GENERATION_TARGET_SECONDS, type TransferBenchResult } from './bench-transfers.js';
import { TRANSFER_LOCATIONS } from './data.js';

const HEAD = ['Backend', 'Run', 'Seconds', 'Recommendations', 'Recs/s', 'New', 'Refreshed', 'Response MB', 'CPU s: Node', 'CPU s: PostgreSQL', 'Other work'];

function rows(result: TransferBenchResult): string[][] {
  return result.runs.map((r) => [
    r.backend,
    r.run === 'first' ? 'first generation' : 'again (all refreshed)',
    r.seconds.toFixed(2),
    String(r.recommendations),
    (r.recommendations / r.seconds).toFixed(0),
    String(r.created),
    String(r.updated),
    (r.responseBytes / 2 ** 20).toFixed(1),
    r.cpu.server.toFixed(1),
    r.backend === 'PGlite' ? 'in Node' : r.cpu.database.toFixed(1),
    `${(r.otherShare * 100).toFixed(0)}%`,
  ]);
}

export function transfersTextTable(result: TransferBenchResult): string {
  const all = [HEAD, ...rows(result)];
  const widths = HEAD.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

export function transfersVerdict(result: TransferBenchResult): string[] {
  const lines = result.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.backend}: ${c.name} (${c.detail})`);
  const pg = result.runs.filter((r) => r.backend === 'PostgreSQL');
  if (!pg.length) return [...lines, 'Target (PostgreSQL): not measured (no PostgreSQL).'];
  for (const r of pg) {
    lines.push(`Target (PostgreSQL, ${r.run}): generation over 10,000 products × ${TRANSFER_LOCATIONS} locations in ≤ ${GENERATION_TARGET_SECONDS} s: ${r.seconds.toFixed(2)} s — ${r.seconds <= GENERATION_TARGET_SECONDS ? 'met' : 'NOT met'}.`);
  }
  return lines;
}

export function transfersSection(date: Date, machine: Machine, result: TransferBenchResult): string {
  const table = rows(result);
  const md = [`| ${HEAD.join(' | ')} |`, `|${HEAD.map((_, i) => (i >= 2 ? '---:' : '---')).join('|')}|`, ...table.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  return [
    `## Transfer recommendations (issue 12), ${sectionStamp(date)} UTC`,
    '',
    machineLine(machine),
    '',
    `\`npm run bench -- --transfers\`: 10,000 products × ${TRANSFER_LOCATIONS} locations, an inventory level and a stock line each (set up with bulk SQL, not timed; ` +
      'bench/transfers/data.ts), then `POST /api/transfers/recommendations {"unitMargin": 4}` over the whole organization, timed from request to the last byte of the ' +
      'answer (every recommendation in the body), through the running service. "again" generates a second time: every recommendation is found PENDING and refreshed. ' +
      'Recs/s = recommendations answered ÷ seconds. CPU: the server process and its PostgreSQL backends during the request; "other work" is the share of the machine ' +
      'busy with other processes meanwhile (other helpers share this 2-core machine, so single runs are noisy: compare CPU seconds rather than wall time when it is high).',
    '',
    md,
    '',
    ...transfersVerdict(result).map((line) => `- ${line}`),
    ...(result.notes.length ? ['', ...result.notes] : []),
    '',
  ].join('\n');
}
