// Runs the asOf widget benchmark once on its own (the lead wires it into `npm run bench -- --planning`):
//   npx tsx bench/dashboard/inventory-summary/run-widget.ts [postgresql://postgres@127.0.0.1:5432/postgres]
import { runCleanups } from '../../harness/children.js';
import { benchWidget, WIDGET_P99_GOAL_MS } from './bench-widget.js';

const adminUrl = process.argv[2] ?? process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
try {
  const result = await benchWidget(adminUrl);
  console.log(JSON.stringify(result, null, 2));
  const ok = result.checks.every((c) => c.ok) && result.service.p99 < WIDGET_P99_GOAL_MS;
  console.log(`asOf widget, ${result.ledgerRows} ledger rows: p50 ${result.service.p50} ms, p99 ${result.service.p99} ms (goal < ${WIDGET_P99_GOAL_MS}); ` +
    `bare pg p50 ${result.bare.p50} ms, p99 ${result.bare.p99} ms; ratio p50 ${result.ratioP50}, p99 ${result.ratioP99}: ${ok ? 'PASS' : 'FAIL'}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  await runCleanups();
}
