import { getNamedType, type GraphQLArgument, type GraphQLField, type GraphQLObjectType, isLeafType, isNonNullType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allRoutes } from '../../rest-adapter/all-routes.js';
import type { RouteSpec } from '../../rest-adapter/route.js';
import { DATE_MESSAGE, DATE_OR_DATE_TIME_MESSAGE, DATE_TIME_MESSAGE } from '../../src/kernel/input-limits.js';
import { createLocationFor } from '../../src/services/admin/admin.js';
import { schema } from '../../src/schema/index.js';
import { createProduct } from '../support/api.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { FORECASTING } from '../support/forecasting.js';
import { importRows } from '../support/import.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Bounded time ranges, as a class: every date or date-time that enters through a route's contract, a
// GraphQL argument or an import row is held to the years 1970 to 2200 and to one date-time rule, and
// every window a caller names with two dates is bounded. The routes and fields are found by walking the
// route table and the schema, so a new area's date parameters are checked without being listed here.

const YEARS = 'The year must be from 1970 to 2200';
const SPAN = 'Must be at most';
const DAY_MS = 86_400_000;
const WINDOW_DAYS = 3660;
const EVENT_DAYS = 1096;

type Kind = 'date' | 'date-time' | 'either';
type Json = { type?: string | string[]; format?: string; anyOf?: Json[]; properties?: Record<string, Json>; items?: Json };

/** The extremes each kind of field must refuse (with the message) and the bounds it must accept. */
const CASES: Record<Kind, { refused: [string, string][]; accepted: string[] }> = {
  date: {
    refused: [
      ['1969-12-31', YEARS],
      ['2201-01-01', YEARS],
      ['0001-01-01', YEARS],
      ['9999-12-31', YEARS],
      ['2026-02-30', DATE_MESSAGE],
    ],
    accepted: ['1970-01-01', '2200-12-31'],
  },
  'date-time': {
    refused: [
      ['1969-12-31T23:59:59Z', YEARS],
      ['2201-01-01T00:00:00Z', YEARS],
      ['0001-01-01T00:00:00Z', YEARS],
      ['9999-12-31T23:59:59Z', YEARS],
      ['2026-01-05T24:00:00Z', DATE_TIME_MESSAGE],
      ['2026-01-05', DATE_TIME_MESSAGE],
      ['2026-01-05T10:00:00', DATE_TIME_MESSAGE],
      ['2026-01-05T10:00:00+0100', DATE_TIME_MESSAGE],
    ],
    accepted: ['1970-01-01T00:00:00Z', '2200-12-31T23:59:59.999Z', '2026-01-05T10:00+05:30'],
  },
  either: {
    refused: [
      ['1969-12-31', YEARS],
      ['2201-01-01', YEARS],
      ['0001-01-01T00:00:00Z', YEARS],
      ['9999-12-31T23:59:59Z', YEARS],
      ['2026-01-05T24:00:00Z', DATE_OR_DATE_TIME_MESSAGE],
      ['2026-01-05T10:00:00', DATE_OR_DATE_TIME_MESSAGE],
    ],
    accepted: ['1970-01-01', '2200-12-31', '2200-12-31T23:59:59Z'],
  },
};
const ALL_MESSAGES = [YEARS, DATE_MESSAGE, DATE_TIME_MESSAGE, DATE_OR_DATE_TIME_MESSAGE, SPAN];

function kindOf(json: Json | undefined): Kind | null {
  if (!json) return null;
  if (json.format === 'date' || json.format === 'date-time') return json.format;
  const formats = new Set((json.anyOf ?? []).map(kindOf).filter((k): k is Kind => k !== null));
  if (formats.has('either') || (formats.has('date') && formats.has('date-time'))) return 'either';
  return formats.size === 1 ? [...formats][0]! : null;
}

/** Every date field of a JSON Schema, with its path in the value (array elements as index 0). */
function dateFields(json: Json | undefined, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; kind: Kind }[] {
  if (!json || depth > 6) return [];
  const kind = kindOf(json);
  if (kind) return [{ path, kind }];
  const found = [
    ...(json.anyOf ?? []).flatMap((branch) => dateFields(branch, path, depth + 1)),
    ...Object.entries(json.properties ?? {}).flatMap(([key, property]) => dateFields(property, [...path, key], depth + 1)),
    ...(json.items ? dateFields(json.items, [...path, 0], depth + 1) : []),
  ];
  return [...new Map(found.map((f) => [f.path.join('.'), f])).values()];
}

const jsonOf = (contract: z.ZodType) => z.toJSONSchema(contract, { io: 'input', unrepresentable: 'any' }) as Json;

/** A body holding only `value` at `path`. */
function bodyWith(path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [bodyWith(rest, value)] : { [head!]: bodyWith(rest, value) };
}

/** The later field of a window and its earlier one: to/from, toDate/fromDate, endDate/startDate, createdTo/createdFrom. */
function startOf(field: string): string | null {
  if (field === 'to') return 'from';
  if (field.startsWith('end')) return `start${field.slice(3)}`;
  if (field.startsWith('to')) return `from${field.slice(2)}`;
  if (field.endsWith('To')) return `${field.slice(0, -2)}From`;
  return null;
}

const pathOf = (route: RouteSpec) => route.path.replace(/:[A-Za-z]+/g, 'x');

let server: TestServer;
let a: Tenant;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '50', RATE_LIMIT_PER_API_KEY: '0', RATE_LIMIT_PER_USER: '0', RATE_LIMIT_PER_ADDRESS: '0' });
  a = await createTenant(server.app.prisma, { capabilities: [FORECASTING] });
  token = (await server.call('POST', '/api/auth/sign-in', { body: { email: a.admin.email, password: a.admin.password } })).body.token;
}, 60_000);
afterAll(() => server?.close());

/** What a REST answer says of one field: its messages (none when not refused on it). */
function fieldMessages(res: { status: number; body: any }, field: string, where: string): string[] {
  expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
  return res.status === 400 ? (res.body.details?.[field] ?? []) : [];
}

describe('REST: every date parameter and body field of the route table', () => {
  const queryFields = allRoutes.flatMap((route) =>
    route.input?.query ? Object.entries(jsonOf(route.input.query).properties ?? {}).flatMap(([key, json]) => (kindOf(json) ? [{ route, key, kind: kindOf(json)! }] : [])) : [],
  );
  const bodyFields = allRoutes.flatMap((route) => (route.input?.body && !route.path.startsWith('/api/import/') ? dateFields(jsonOf(route.input.body)).filter((f) => f.path.length > 0).map((f) => ({ route, ...f })) : []));

  it('finds the date-taking paths (queries and bodies of several areas)', () => {
    expect(new Set(queryFields.map((f) => f.route.path)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(bodyFields.map((f) => f.route.path)).size).toBeGreaterThanOrEqual(5);
    expect(queryFields.some((f) => f.kind === 'either')).toBe(true);
  });

  it('a query parameter refuses the extremes with 400 naming it, and accepts the bounds', async () => {
    const wrong: string[] = [];
    for (const { route, key, kind } of queryFields) {
      for (const [value, message] of CASES[kind].refused) {
        const res = await server.call(route.method, `${pathOf(route)}?${key}=${encodeURIComponent(value)}`, { token });
        const messages = fieldMessages(res, key, `${route.method} ${route.path} ${key}=${value}`);
        if (!messages.includes(message)) wrong.push(`${route.method} ${route.path} ${key}=${value}: ${res.status} ${JSON.stringify(res.body.details ?? res.body)}`);
      }
      for (const value of CASES[kind].accepted) {
        const res = await server.call(route.method, `${pathOf(route)}?${key}=${encodeURIComponent(value)}`, { token });
        const messages = fieldMessages(res, key, `${route.method} ${route.path} ${key}=${value}`);
        if (messages.some((m) => ALL_MESSAGES.some((refusal) => m.startsWith(refusal)))) wrong.push(`${route.method} ${route.path} ${key}=${value} refused: ${messages}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a body field refuses the extremes with 400 naming it, and accepts the bounds', async () => {
    const wrong: string[] = [];
    for (const { route, path, kind } of bodyFields) {
      const field = path.join('.');
      for (const [value, message] of CASES[kind].refused) {
        const res = await server.call(route.method, pathOf(route), { token, body: bodyWith(path, value) });
        if (!fieldMessages(res, field, `${route.method} ${route.path} ${field}=${value}`).includes(message)) {
          wrong.push(`${route.method} ${route.path} ${field}=${value}: ${res.status} ${JSON.stringify(res.body.details ?? res.body)}`);
        }
      }
      for (const value of CASES[kind].accepted) {
        const res = await server.call(route.method, pathOf(route), { token, body: bodyWith(path, value) });
        const messages = fieldMessages(res, field, `${route.method} ${route.path} ${field}=${value}`);
        if (messages.some((m) => ALL_MESSAGES.some((refusal) => m.startsWith(refusal)))) wrong.push(`${route.method} ${route.path} ${field}=${value} refused: ${messages}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it(`a window given both ends spans at most ${WINDOW_DAYS} days (400 naming its end), and exactly that is accepted`, async () => {
    const windows = queryFields.filter((f) => startOf(f.key) !== null);
    expect(windows.length).toBeGreaterThanOrEqual(8);
    const wrong: string[] = [];
    for (const { route, key, kind } of windows) {
      const start = startOf(key)!;
      const startKind = queryFields.find((f) => f.route === route && f.key === start)?.kind;
      if (!startKind) {
        wrong.push(`${route.method} ${route.path}: ${key} has no ${start}`);
        continue;
      }
      const text = (time: number, k: Kind) => (k === 'date' ? new Date(time).toISOString().slice(0, 10) : new Date(time).toISOString());
      const from = Date.parse('2000-01-03T00:00:00Z');
      const ask = (days: number) => server.call(route.method, `${pathOf(route)}?${start}=${encodeURIComponent(text(from, startKind))}&${key}=${encodeURIComponent(text(from + days * DAY_MS, kind))}`, { token });
      const over = fieldMessages(await ask(WINDOW_DAYS + 7), key, `${route.path} ${key}`);
      if (!over.some((m) => m === `${SPAN} ${WINDOW_DAYS} days after ${start}`)) wrong.push(`${route.method} ${route.path} ${start}..${key} over ${WINDOW_DAYS} days: ${over}`);
      const whole = await server.call(route.method, `${pathOf(route)}?${start}=${encodeURIComponent(text(Date.parse('1970-01-01T00:00:00Z'), startKind))}&${key}=${encodeURIComponent(text(Date.parse('2200-12-31T00:00:00Z'), kind))}`, { token });
      if (!fieldMessages(whole, key, `${route.path} ${key}`).some((m) => m.startsWith(SPAN))) wrong.push(`${route.method} ${route.path} 1970..2200 not refused on ${key}`);
      const within = fieldMessages(await ask(WINDOW_DAYS), key, `${route.path} ${key}`);
      if (within.some((m) => m.startsWith(SPAN))) wrong.push(`${route.method} ${route.path} ${start}..${key} of ${WINDOW_DAYS} days refused`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('GraphQL: every Date and DateTime argument of Query and Mutation', () => {
  const dummy: Record<string, unknown> = { ID: 'x', String: 'x', Int: 1, Float: 1, Boolean: true };
  const roots = [
    ['query', schema.getQueryType()!],
    ['mutation', schema.getMutationType()!],
  ] as const;
  const fields = roots.flatMap(([operation, root]: readonly [string, GraphQLObjectType]) =>
    Object.values(root.getFields()).flatMap((field: GraphQLField<unknown, unknown>) =>
      field.args.filter((arg) => ['Date', 'DateTime'].includes(getNamedType(arg.type).name)).map((arg) => ({ operation, field, arg })),
    ),
  );

  /** An operation selecting `field` with every argument as a variable; null when a required argument cannot be made up. */
  function operationOf(operation: string, field: GraphQLField<unknown, unknown>, arg: GraphQLArgument, value: string) {
    const variables: Record<string, unknown> = { v: value };
    const definitions = [`$v: ${arg.type}`];
    const args = [`${arg.name}: $v`];
    for (const other of field.args) {
      if (other === arg || !isNonNullType(other.type)) continue;
      const made = dummy[getNamedType(other.type).name];
      if (made === undefined || String(other.type).startsWith('[')) return null;
      variables[other.name] = made;
      definitions.push(`$${other.name}: ${other.type}`);
      args.push(`${other.name}: $${other.name}`);
    }
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    return { query: `${operation} (${definitions.join(', ')}) { ${field.name}(${args.join(', ')})${selection} }`, variables };
  }

  it('finds the date arguments', () => {
    expect(fields.length).toBeGreaterThanOrEqual(8);
  });

  it('refuses the extremes in the scalar words (never INTERNAL_SERVER_ERROR) and accepts the bounds', async () => {
    const wrong: string[] = [];
    for (const { operation, field, arg } of fields) {
      const kind: Kind = getNamedType(arg.type).name === 'Date' ? 'date' : 'date-time';
      for (const [value, message] of CASES[kind].refused) {
        const made = operationOf(operation, field, arg, value);
        if (!made) continue;
        const res = await server.graphql(made.query, made.variables, token);
        const messages: string[] = (res.body.errors ?? []).map((e: any) => e.message);
        if (!messages.some((m) => m.includes(message))) wrong.push(`${field.name}(${arg.name}: ${value}): ${JSON.stringify(res.body.errors ?? res.body)}`);
      }
      for (const value of CASES[kind].accepted) {
        const made = operationOf(operation, field, arg, value);
        if (!made) continue;
        const res = await server.graphql(made.query, made.variables, token);
        const errors: any[] = res.body.errors ?? [];
        if (errors.some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR' || ALL_MESSAGES.some((m) => e.message.includes(m) && !e.message.startsWith(SPAN)))) {
          wrong.push(`${field.name}(${arg.name}: ${value}) refused: ${JSON.stringify(errors)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('String arguments documented as a date or a date-time follow the same rule (inventoryAnalytics, stockTransactionHistory)', async () => {
    const analytics = await server.graphql('{ inventoryAnalytics(fromDate: "2026-01-05T24:00:00Z", toDate: "2201-01-01") { period { from to } } }', {}, token);
    expect(analytics.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { fromDate: [DATE_OR_DATE_TIME_MESSAGE], toDate: [YEARS] } });
    const window = await server.graphql('{ inventoryAnalytics(fromDate: "1970-01-01", toDate: "2200-12-31") { period { from to } } }', {}, token);
    expect(window.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { toDate: [`${SPAN} ${WINDOW_DAYS} days after fromDate`] } });
    const ok = await server.graphql('{ inventoryAnalytics(fromDate: "2200-01-01", toDate: "2200-12-31T23:59:59Z") { period { from to } } }', {}, token);
    expect(ok.body.errors).toBeUndefined();
    const ledger = await server.graphql('{ stockTransactionHistory(startDate: "2026-01-05T10:00", endDate: "9999-12-31") { __typename } }', {}, token);
    expect(ledger.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { startDate: [DATE_OR_DATE_TIME_MESSAGE], endDate: [YEARS] } });
  });
});

describe('external events: a span of at most 1096 days', () => {
  const event = (startsAt: string, endsAt: string) => ({ name: 'Long', type: 'MACRO', startsAt, endsAt, value: { liftPct: 0.1 } });

  it(`create and update refuse an endsAt more than ${EVENT_DAYS} days after startsAt (400 naming endsAt) and take exactly that`, async () => {
    const start = Date.parse('2030-01-01T00:00:00Z');
    const at = (days: number) => new Date(start + days * DAY_MS).toISOString();
    const tooLong = await server.call('POST', '/api/forecast/events', { token, body: event(at(0), at(EVENT_DAYS + 1)) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details).toEqual({ endsAt: [`${SPAN} ${EVENT_DAYS} days after startsAt`] });
    const extreme = await server.call('POST', '/api/forecast/events', { token, body: event('1970-01-01T00:00:00Z', '2200-12-31T23:59:59Z') });
    expect(extreme.body.details).toEqual({ endsAt: [`${SPAN} ${EVENT_DAYS} days after startsAt`] });

    const longest = await server.call('POST', '/api/forecast/events', { token, body: event(at(0), at(EVENT_DAYS)) });
    expect(longest.status).toBe(201);
    // Moving only the start keeps the stored end: the span is judged on the merged values.
    const moved = await server.call('PATCH', `/api/forecast/events/${longest.body.id}`, { token, body: { startsAt: at(-1) } });
    expect(moved.status).toBe(400);
    expect(moved.body.details).toEqual({ endsAt: [`${SPAN} ${EVENT_DAYS} days after startsAt`] });
    expect((await server.call('GET', `/api/forecast/events/${longest.body.id}`, { token })).body.startsAt).toBe(at(0));

    const gql = await server.graphql(
      'mutation ($input: ExternalEventCreateInput!) { createExternalEvent(input: $input) { __typename ... on ValidationError { fields { field messages } } } }',
      { input: event('2030-01-01T00:00:00Z', '2099-01-01T00:00:00Z') },
      token,
    );
    expect(gql.body.data.createExternalEvent).toEqual({ __typename: 'ValidationError', fields: [{ field: 'endsAt', messages: [`${SPAN} ${EVENT_DAYS} days after startsAt`] }] });
  });
});

describe('import rows: the extremes are rejected with their field, the good rows applied', () => {
  let productId: string;

  beforeAll(async () => {
    productId = await createProduct(server, a.key, 'DATE-1');
    await createLocationFor(server.operator, { organizationId: a.org.id, code: 'DC-DATES', name: 'Dates DC' });
    await importRows(server, a.key, 'suppliers', [{ code: 'SUP-DATES' }]);
  });

  it('demand history: dates outside 1970-2200 are rejected by row; 1970-01-01 and 2200-12-31 are kept', async () => {
    const bad = ['1969-12-31', '2201-01-01', '0001-01-01', '9999-12-31'];
    const job = await importRows(server, a.key, 'demand-history', [
      ...bad.map((date) => ({ sku: 'DATE-1', locationCode: 'DC-DATES', date, actualDemand: 1 })),
      { sku: 'DATE-1', locationCode: 'DC-DATES', date: '1970-01-01', actualDemand: 2 },
      { sku: 'DATE-1', locationCode: 'DC-DATES', date: '2200-12-31', actualDemand: 3 },
    ]);
    expect(job).toMatchObject({ processedRows: 6, rejectedRows: 4 });
    expect(job.errors).toEqual(bad.map((_, i) => ({ row: i + 1, field: 'date', message: YEARS })));
    const weeks = await server.app.prisma.demandHistory.findMany({ where: { organizationId: a.org.id, productMasterId: productId }, orderBy: { weekStart: 'asc' } });
    // 1970-01-01 is a Thursday: its ISO week began on Monday 1969-12-29, stored as such.
    expect(weeks.map((w) => [w.weekStart.toISOString().slice(0, 10), w.actualUnits])).toEqual([
      ['1969-12-29', 2],
      ['2200-12-29', 3],
    ]);
  });

  it('purchase orders: header and line dates outside 1970-2200 are rejected by row and field; the bounds are kept', async () => {
    const line = (expectedAt?: string) => [{ sku: 'DATE-1', quantity: 1, ...(expectedAt ? { expectedAt } : {}) }];
    const order = (number: string, expectedAt?: string, lineAt?: string) => ({ number, supplierCode: 'SUP-DATES', destinationLocationCode: 'DC-DATES', ...(expectedAt ? { expectedAt } : {}), lines: line(lineAt) });
    const job = await importRows(server, a.key, 'purchase-orders', [
      order('PO-D1', '1969-12-31'),
      order('PO-D2', '2201-01-01'),
      order('PO-D3', undefined, '9999-12-31'),
      order('PO-D4', undefined, '0001-01-01'),
      order('PO-LOW', '1970-01-01', '1970-01-01'),
      order('PO-HIGH', '2200-12-31', '2200-12-31'),
    ]);
    expect(job).toMatchObject({ processedRows: 6, rejectedRows: 4 });
    expect(job.errors).toEqual([
      { row: 1, field: 'expectedAt', message: YEARS },
      { row: 2, field: 'expectedAt', message: YEARS },
      { row: 3, field: 'lines.0.expectedAt', message: YEARS },
      { row: 4, field: 'lines.0.expectedAt', message: YEARS },
    ]);
    const orders = await server.app.prisma.purchaseOrder.findMany({ where: { organizationId: a.org.id }, orderBy: { number: 'asc' } });
    expect(orders.map((o) => [o.number, o.expectedAt?.toISOString().slice(0, 10)])).toEqual([
      ['PO-HIGH', '2200-12-31'],
      ['PO-LOW', '1970-01-01'],
    ]);
  });
});

describe('forecasts from the latest accepted history stay in plain years', () => {
  it('a series ending in the last week of 2200 forecasts 104 weeks and 24 months without a 500 or a +01xxxx year', async () => {
    const productMasterId = await createProduct(server, a.key, 'DATE-LATE');
    const weeks = Array.from({ length: 12 }, (_, i) => new Date(Date.parse('2200-10-13T00:00:00Z') + i * 7 * DAY_MS).toISOString().slice(0, 10));
    await importRows(server, a.key, 'demand-history', weeks.map((date, i) => ({ sku: 'DATE-LATE', locationCode: 'DC-DATES', date, actualDemand: 10 + (i % 3) })));
    const forecast = await server.call('GET', `/api/forecast?productMasterId=${productMasterId}&horizon=104`, { token });
    expect(forecast.status, JSON.stringify(forecast.body)).toBe(200);
    expect(JSON.stringify(forecast.body)).not.toMatch(/"[+-]\d{6}-/);
    expect(JSON.stringify(forecast.body)).toContain('"2202-');
    const longTerm = await server.call('GET', `/api/forecast/long-term?productMasterId=${productMasterId}&months=24`, { token });
    expect(longTerm.status, JSON.stringify(longTerm.body)).toBe(200);
    expect(JSON.stringify(longTerm.body)).not.toMatch(/"[+-]\d{6}-/);
  });
});
