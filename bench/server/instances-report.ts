// The instances part's table, verdict and BENCHMARKS.md section (--instances).
import { alignedTable, machineLine, sectionStamp, type Machine } from '../harness/report.js';
import type { InstancesResult, InstancesRow } from './bench-instances.js';

const HEAD = ['Target', 'Instances', 'Requests/s', 'p99 (ms)', 'Errors / non-2xx', 'CPU ms/req: Node (all instances)', 'CPU ms/req: PostgreSQL', 'PostgreSQL share', 'Machine busy'];
const cellsOf = (r: InstancesRow) => [
  r.target,
  String(r.instances),
  r.requestsPerSec.toFixed(0),
  String(r.p99),
  String(r.non2xx),
  r.serverMs.toFixed(2),
  r.databaseMs.toFixed(2),
  `${(r.databaseShare * 100).toFixed(0)}%`,
  `${(r.machineBusy * 100).toFixed(0)}%`,
];

export function instancesTextTable(result: InstancesResult): string {
  return alignedTable(HEAD, result.rows.map(cellsOf), 1);
}

export function instancesVerdict(result: InstancesResult): string[] {
  const lines: string[] = [];
  for (const target of [...new Set(result.rows.map((r) => r.target))]) {
    const one = result.rows.find((r) => r.target === target && r.instances === 1);
    const two = result.rows.find((r) => r.target === target && r.instances === 2);
    if (!one || !two) continue;
    lines.push(
      `${target}: two instances ${(two.requestsPerSec / Math.max(1e-9, one.requestsPerSec)).toFixed(2)}× one ` +
        `(${one.requestsPerSec.toFixed(0)} → ${two.requestsPerSec.toFixed(0)} req/s); PostgreSQL's share of the CPU ${(one.databaseShare * 100).toFixed(0)}% → ${(two.databaseShare * 100).toFixed(0)}%, ` +
        `the machine ${(one.machineBusy * 100).toFixed(0)}% → ${(two.machineBusy * 100).toFixed(0)}% busy.`,
    );
  }
  return lines;
}

export function instancesSection(date: Date, machine: Machine, settings: { mode: string; duration: number; warmup: number; connections: number }, result: InstancesResult): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [
    `## ${sectionStamp(date)} UTC, instances (${settings.mode})`,
    '',
    '`npm run bench -- --instances` (issue 24; bench/server/bench-instances.ts): PostgreSQL only, 10,000 products. The products list (`limit=50`) and ' +
      `adjustments (±1 on random lines of one location's 10,000) at ${settings.connections} connections as fast as answered, ${settings.duration} s after a ` +
      `${settings.warmup} s warm-up, served by one instance, then by two on the same database with the load split evenly (one load generator per instance, ` +
      'half the connections each). The instances, PostgreSQL and the load generators share this machine\'s cores: the ratio two ÷ one shows how much ' +
      'of a request is the service\'s own work a second instance takes on, and PostgreSQL\'s share how much is left to the database, which one more ' +
      'instance does not add. See docs/deployment.md.',
    '',
    machineLine(machine),
    '',
    line(HEAD),
    line(HEAD.map((_, i) => (i >= 1 ? '---:' : '---'))),
    ...result.rows.map((r) => line(cellsOf(r))),
    '',
    ...instancesVerdict(result).map((l) => `- ${l}`),
    ...(result.notes.length ? ['', ...result.notes] : []),
    '',
  ].join('\n');
}
