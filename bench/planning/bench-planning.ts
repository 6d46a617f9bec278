// The planning part of `npm run bench` (--planning, issue 21), on PostgreSQL (PGlite is not measured: the goals are
// PostgreSQL's). Each measurement runs on its own scratch database:
//
// 1. planning recommendations for a location of 10,000 products (bench/planning/recommendations/), p99 goal 200 ms;
// 2. the inventory-summary widget asOf over a 1,000,000-row ledger (bench/dashboard/inventory-summary/), p99 goal 200 ms,
//    sequential requests against the same SQL run bare through `pg`.
import { onCleanup } from '../harness/children.js';
import { createScratchDatabase, probePostgres } from '../harness/data.js';
import { benchWidget, type WidgetBenchResult } from '../dashboard/inventory-summary/bench-widget.js';
import { benchRecommendations, RECOMMENDATIONS_TARGETS, type RecommendationsResult } from './recommendations/bench-recommendations.js';

/** Targets of the part (for the overall time limit). */
export const PLANNING_TARGETS = RECOMMENDATIONS_TARGETS;

export interface PlanningResult extends RecommendationsResult {
  notes: string[];
  postgresVersion?: string;
  widget?: WidgetBenchResult;
}

async function onScratch(databaseUrl: string, run: (url: string, database: string) => Promise<void>) {
  const scratch = await createScratchDatabase(databaseUrl);
  onCleanup(scratch.drop);
  try {
    await run(scratch.url, new URL(scratch.url).pathname.slice(1));
  } finally {
    await scratch.drop();
  }
}

export async function benchPlanning(databaseUrl: string, backends: string[]): Promise<PlanningResult> {
  const result: PlanningResult = { rows: [], checks: [], setups: [], notes: [] };
  if (backends.includes('pglite')) result.notes.push('PGlite is not measured by the planning part (its goals are on PostgreSQL).');
  if (!backends.includes('postgres')) return result;
  const probe = await probePostgres(databaseUrl);
  if ('skip' in probe) {
    console.log(`PostgreSQL: ${probe.skip}; skipping the planning part.`);
    result.notes.push(`PostgreSQL skipped: ${probe.skip}.`);
    return result;
  }
  result.postgresVersion = probe.version;
  console.log(`PostgreSQL ${probe.version}: planning recommendations on a scratch database`);
  await onScratch(databaseUrl, (url, database) => benchRecommendations('PostgreSQL', { databaseUrl: url }, result, database));
  console.log('PostgreSQL: the inventory-summary widget asOf over a long ledger, on a scratch database');
  result.widget = await benchWidget(databaseUrl);
  for (const c of result.widget.checks) result.checks.push({ backend: 'PostgreSQL', name: `widget: ${c.name}`, ok: c.ok, detail: c.detail });
  return result;
}
