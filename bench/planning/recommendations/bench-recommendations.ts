// GET /api/planning/recommendations?locationId=… for a location of 10,000 products (bench/planning/recommendations/
// data.ts), through HTTP on the service and on the bare node:http yardstick running the same statement
// (bare-recommendations.ts); the set-up is checked through the API (the actions the data implies) and the two
// answers compared body for body before anything is measured.
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { openDatabase } from '../../../src/db/database.js';
import { ratesKeptSql } from '../../../src/services/planning/projection/demand-rate.js';
import { loadBenchmarkData } from '../../harness/data.js';
import { measure } from '../../harness/measure.js';
import type { Row } from '../../harness/report.js';
import { getJson, startServer, stopServer, type Server } from '../../harness/servers.js';
import { loadPlanningData, type PlanningData } from './data.js';

export const RECOMMENDATIONS_TARGET = 'GET /api/planning/recommendations (10,000 products)';
export const BARE = 'bare node:http: ';
/** One planner at a time (the goal's reading, as for the widget), then four at once. */
export const RECOMMENDATIONS_CONNECTIONS = [1, 4] as const;
export const P99_GOAL_MS = 200;
/** Targets of this measurement (for the overall time limit): the service and the bare server. */
export const RECOMMENDATIONS_TARGETS = 2 * RECOMMENDATIONS_CONNECTIONS.length;

export interface PlanningCheck {
  backend: string;
  name: string;
  ok: boolean;
  detail: string;
}

export interface RecommendationsResult {
  rows: Row[];
  checks: PlanningCheck[];
  setups: { backend: string; data: PlanningData; loadSeconds: number; answered: number }[];
}

const PATH = '/api/planning/recommendations';

async function get(server: Server, path: string, headers: Record<string, string>) {
  const answer = await getJson(`${server.base}${path}`, { headers });
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer.body as { data: { action: string }[] };
}

/**
 * Waits (at most 60 s) until the service's loop has made the organization's demand history sums for this week,
 * as on any server running since the week began; the bare server's statement reads them too.
 */
async function ratesMade(target: { databaseUrl?: string; dataDir?: string }, organizationId: string) {
  const database = await openDatabase({ ...target, migrate: false });
  try {
    for (let waited = 0; waited < 60_000; waited += 200) {
      const [row] = await database.prisma.$queryRaw<{ made: boolean }[]>`SELECT EXISTS (${ratesKeptSql(organizationId)}) AS made`;
      if (row?.made) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the service did not make the demand history sums within 60 s');
  } finally {
    await database.close();
  }
}

export async function benchRecommendations(backend: string, target: { databaseUrl?: string; dataDir?: string }, result: RecommendationsResult, database?: string) {
  const started = performance.now();
  const { key, organizationId } = await loadBenchmarkData(target);
  const data = await loadPlanningData(target, organizationId);
  const loadSeconds = (performance.now() - started) / 1000;
  console.log(`${backend}: planning data ${JSON.stringify(data.loaded)} loaded in ${loadSeconds.toFixed(0)} s (not timed); expected ${JSON.stringify(data.expected)}`);
  const dbEnv: Record<string, string> = target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir! };
  const serviceEnv = { ...dbEnv, SEED_DEMO: 'false', NODE_ENV: 'production', IMPORT_WORKERS: '0', JWT_SECRET: randomBytes(32).toString('base64url') };
  const headers = { authorization: `Bearer ${key}` };
  const path = `${PATH}?locationId=${encodeURIComponent(data.locationId)}`;
  const answers: Record<'service' | 'bare', unknown> = { service: undefined, bare: undefined };
  let answered = 0;
  for (const script of ['service', 'bare'] as const) {
    const server =
      script === 'bare'
        ? await startServer('bench/harness/bare-server.ts', dbEnv, `${backend}-bare-planning`)
        : await startServer('src/main.ts', serviceEnv, `${backend}-planning`);
    try {
      if (script === 'service') await ratesMade(target, organizationId);
      const body = await get(server, path, headers);
      answers[script] = body;
      if (script === 'service') {
        answered = body.data.length;
        const counts = { EXPEDITE: 0, MOVE: 0, ORDER: 0 } as Record<string, number>;
        for (const row of body.data) counts[row.action] = (counts[row.action] ?? 0) + 1;
        const ok = isDeepStrictEqual(counts, data.expected);
        result.checks.push({ backend, name: 'the actions the data implies', ok, detail: `${JSON.stringify(counts)} (expected ${JSON.stringify(data.expected)})` });
        console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${backend} set-up: ${JSON.stringify(counts)} (expected ${JSON.stringify(data.expected)})`);
        if (!ok) throw new Error(`${backend}: the planning set-up is not what the service answers; nothing measured`);
      }
      for (const connections of RECOMMENDATIONS_CONNECTIONS) {
        result.rows.push(
          await measure(backend, `${script === 'bare' ? BARE : ''}${RECOMMENDATIONS_TARGET}`, server.child, database, {
            url: `${server.base}${path}`,
            method: 'GET',
            headers,
            connections,
          }),
        );
      }
    } finally {
      await stopServer(server);
    }
  }
  const same = isDeepStrictEqual(answers.service, answers.bare);
  result.checks.push({ backend, name: "the bare server's answer equals the service's", ok: same, detail: same ? `${answered} recommendations, body for body` : 'they differ' });
  if (!same) console.warn(`  ${backend}: bare and service differ:\n    service ${JSON.stringify(answers.service).slice(0, 600)}\n    bare    ${JSON.stringify(answers.bare).slice(0, 600)}`);
  for (const connections of RECOMMENDATIONS_CONNECTIONS) {
    const row = result.rows.find((r) => r.backend === backend && r.target === RECOMMENDATIONS_TARGET && r.connections === connections);
    const bare = result.rows.find((r) => r.backend === backend && r.target === `${BARE}${RECOMMENDATIONS_TARGET}` && r.connections === connections);
    if (row && bare?.result.requestsPerSec) row.ratio = row.result.requestsPerSec / bare.result.requestsPerSec;
  }
  result.setups.push({ backend, data, loadSeconds, answered });
}
