// What the GraphQL document limits add to one request, in one process: the token count (run on every
// request before parsing) and the cost estimate (run on every request before execution, since it
// depends on the variables), for the products page the products benchmark asks for. Reported in
// microseconds per request (the cost for variables seen before, and for new ones), median of several rounds, to hold against the CPU of a whole GraphQL
// request (BENCHMARKS.md). `npx tsx bench/server/graphql-limits-cost.ts [N] [rounds]`.
import { parse } from 'graphql';
import { loadConfig } from '../../src/config.js';
import { schema } from '../../src/schema/index.js';
import { checkCost, checkTokens } from '../../src/server/graphql-limits.js';

const N = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const limits = loadConfig({}).graphql;
const query = 'query ($limit: Int) { productsPage(limit: $limit) { items { id sku name description organizationId createdAt updatedAt } page limit total totalPages } }';
const document = parse(query);

function microsPerCall(fn: () => void): number {
  const start = performance.now();
  for (let i = 0; i < N; i++) fn();
  return ((performance.now() - start) * 1000) / N;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const tokens: number[] = [];
const repeated: number[] = [];
const fresh: number[] = [];
let page = 0;
for (let round = 0; round < ROUNDS; round++) {
  tokens.push(microsPerCall(() => checkTokens(query, limits)));
  repeated.push(microsPerCall(() => checkCost(schema, limits, document, { limit: 50 })));
  // Variables never seen before: the cost is worked out each time.
  fresh.push(microsPerCall(() => checkCost(schema, limits, document, { limit: (page++ % 100_000) + 1 })));
}
const µs = (values: number[]) => `${median(values).toFixed(1)} µs`;
console.log(`per request, median of ${ROUNDS} rounds of ${N}: token count ${µs(tokens)}; cost estimate ${µs(repeated)} for repeated variables, ${µs(fresh)} for new ones`);
