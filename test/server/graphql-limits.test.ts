import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { wsConnection } from '../support/graphql-ws.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.app.prisma);
  for (const sku of ['L-1', 'L-2', 'L-3']) {
    const res = await server.call('POST', '/api/products', { token: tenant.key, body: { sku, name: sku } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => server?.close());

/** POST /graphql with a raw body; the answer's status, parsed body and length. */
async function post(body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, length: text.length };
}

const asKey = () => ({ authorization: `Bearer ${tenant.key}` });
const query = (q: string, variables?: unknown) => JSON.stringify({ query: q, variables });

/** The server still answers /health at once after an attack (a stalled or crashed process would not). */
async function stillHealthy() {
  const res = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) });
  expect(res.status).toBe(200);
}

describe('credentials and body size come before the document', () => {
  it('a 20 MB anonymous document of aliases is refused with 413 from its Content-Length, unparsed', async () => {
    const huge = query(`{ ${'a: __typename '.repeat(1_500_000)} }`);
    expect(huge.length).toBeGreaterThan(20_000_000);
    const res = await post(huge);
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', maxBodyBytes: 4096 });
    await stillHealthy();
  });

  it('four endless anonymous streams (no Content-Length) are each cut off at 4 KiB with 413', async () => {
    const sent: number[] = [];
    const stream = (i: number) => {
      sent[i] = 0;
      const chunk = new TextEncoder().encode('a: __typename '.repeat(1000));
      return new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode('{"query": "{')),
        pull: (controller) => {
          sent[i]! += chunk.byteLength;
          if (sent[i]! > 10_000_000) return controller.error(new Error('the server read past its limit'));
          controller.enqueue(chunk);
        },
      });
    };
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream(i), duplex: 'half' } as RequestInit),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect((await answer.json()).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    }
    // The streams never end: an answer at all means the server stopped reading by itself (what the
    // client had sent by then is mostly in socket buffers, so it is no measure of what was read).
    for (const bytes of sent) expect(bytes).toBeLessThan(10_000_000);
    await stillHealthy();
  }, 30_000);

  it('a caller with credentials may send up to 64 KiB; more is 413', async () => {
    const res = await post(query(`{ __typename }`.padEnd(70_000, ' ')), asKey());
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', maxBodyBytes: 65536 });
  });

  it('bad credentials are refused before the body is read (an invalid body still gets 401)', async () => {
    const res = await post('{"query": not json at all', { authorization: 'Bearer scm_not_a_real_key' });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  });

  it('an invalid JSON body is 400 and the error does not repeat it', async () => {
    const junk = `{"query": "${'x'.repeat(50_000)}`;
    const res = await post(junk, asKey());
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ message: 'Request body is not valid JSON', extensions: { code: 'BAD_REQUEST' } });
    expect(res.length).toBeLessThan(200);
    await stillHealthy();
  });

  it('form-encoded, multipart and text/plain posts are 415 (only JSON is taken)', async () => {
    const mutation = 'mutation { createProduct(input: {sku: "FORM-1", name: "x"}) { ... on Product { id } } }';
    const form = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...asKey() },
      body: new URLSearchParams({ query: mutation }).toString(),
    });
    expect(form.status).toBe(415);
    const data = new FormData();
    data.set('operations', JSON.stringify({ query: mutation }));
    const multipart = await fetch(`${server.url}/graphql`, { method: 'POST', headers: asKey(), body: data });
    expect(multipart.status).toBe(415);
    const plain = await post(query(mutation), { 'content-type': 'text/plain', ...asKey() });
    expect(plain.status).toBe(415);
    expect(plain.body.errors[0].extensions.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const products = await post(query('{ products(first: 100) { totalCount } }'), asKey());
    expect(products.body.data.products.totalCount).toBe(3);
  });
});

describe('document limits', () => {
  it('over 2,000 tokens is 400 MAX_TOKENS_EXCEEDED, before the document is built', async () => {
    const res = await post(query(`{ ${'a: __typename '.repeat(3_000)} }`), asKey());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'MAX_TOKENS_EXCEEDED', limit: 2000 });
    await stillHealthy();
  });

  it('over 30 aliases is 400 MAX_ALIASES_EXCEEDED', async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `p${i}: products(first: 100) { totalCount }`).join(' ');
    const res = await post(query(`{ ${aliases} }`), asKey());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'MAX_ALIASES_EXCEEDED', limit: 30 });
    await stillHealthy();
  });

  it('selections nested deeper than 12 are 400 MAX_DEPTH_EXCEEDED', async () => {
    const level = (inner: string) => `category { products(first: 1) { edges { node { ${inner} } } } }`;
    const deep = `{ products(first: 1) { edges { node { ${level(level(level('id')))} } } } }`;
    const res = await post(query(deep), asKey());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'MAX_DEPTH_EXCEEDED', limit: 12 });
    await stillHealthy();
  });

  it('over 30 directives is 400 MAX_DIRECTIVES_EXCEEDED', async () => {
    const res = await post(query(`{ __typename ${'@include(if: true) '.repeat(40)} }`), asKey());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'MAX_DIRECTIVES_EXCEEDED', limit: 30 });
  });

  it('nested pages multiply into the cost: 100 x 100 products is over the budget, one page of 100 is not', async () => {
    const nested = `{ products(first: 100) { edges { node { category { products(first: 100) { edges { node { id sku name } } } } } } } }`;
    const res = await post(query(nested), asKey());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', maxCost: 20000 });
    expect(res.body.errors[0].extensions.cost).toBeGreaterThan(20000);
    expect(res.body.data).toBeUndefined();

    const page = await post(query(`{ products(first: 100) { edges { node { id sku name } } } }`), asKey());
    expect(page.status).toBe(200);
    expect(page.body.data.products.edges).toHaveLength(3);
  });

  it('the cost counts page sizes given as variables', async () => {
    const q = `query ($n: Int) { products(first: $n) { edges { node { category { products(first: $n) { edges { node { id sku name } } } } } } } }`;
    expect((await post(query(q, { n: 100 }), asKey())).body.errors[0].extensions.code).toBe('MAX_COST_EXCEEDED');
    const small = await post(query(q, { n: 5 }), asKey());
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it('variables nested 5,000 levels deep are 400, by POST and by GET', async () => {
    const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    const body = `{"query": "query ($v: JSON) { __typename }", "variables": {"v": ${deep}}}`;
    const res = await post(body, asKey());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(Object.values(res.body.errors[0].extensions.details)).toEqual([['Nested more than 32 levels deep']]);
    const url = new URL(`${server.url}/graphql`);
    url.searchParams.set('query', 'query ($v: JSON) { __typename }');
    url.searchParams.set('variables', `{"v": ${'['.repeat(2000)}1${']'.repeat(2000)}}`);
    const get = await fetch(url, { headers: { ...asKey(), accept: 'application/json' } });
    expect(get.status).toBe(400);
    expect((await get.json()).errors[0].extensions.code).toBe('VALIDATION_ERROR');
    await stillHealthy();
  });

  it('a REST body nested 5,000 levels deep is 400', async () => {
    const deep = `{"sku": "DEEP", "name": ${'['.repeat(5000)}1${']'.repeat(5000)}}`;
    const res = await fetch(`${server.url}/api/products`, { method: 'POST', headers: { 'content-type': 'application/json', ...asKey() }, body: deep });
    expect(res.status).toBe(400);
    const refusal = await res.json();
    expect(refusal.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(refusal.details)[0]).toMatch(/^name\.0\.0/);
    await stillHealthy();
  });
});

describe('introspection and suggestions need credentials', () => {
  const introspection = '{ __schema { queryType { name } } }';

  it('refuses introspection without credentials, answers it with them', async () => {
    const anonymous = await post(query(introspection));
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.errors[0].extensions.code).toBe('INTROSPECTION_DISABLED');
    const withKey = await post(query(introspection), asKey());
    expect(withKey.status).toBe(200);
    expect(withKey.body.data.__schema.queryType.name).toBe('Query');
  });

  it('names no other fields in errors without credentials ("Did you mean" only with them)', async () => {
    const typo = query('{ prodcts { totalCount } }');
    const anonymous = await post(typo);
    expect(anonymous.body.errors[0].message).toBe('Cannot query field "prodcts" on type "Query".');
    const withKey = await post(typo, asKey());
    expect(withKey.body.errors[0].message).toMatch(/Did you mean "products"/);
  });
});

describe('trusted documents (GRAPHQL_TRUSTED_DOCUMENTS)', () => {
  let trusted: TestServer;
  let org: Tenant;
  const document = '{ products(first: 10) { totalCount } }';
  const hash = createHash('sha256').update(document).digest('hex');

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trusted-'));
    const manifest = join(dir, 'manifest.json');
    await writeFile(manifest, JSON.stringify({ [hash]: document }));
    trusted = await startTestServer({ GRAPHQL_TRUSTED_DOCUMENTS: manifest });
    org = await createTenant(trusted.app.prisma);
  });
  afterAll(() => trusted?.close());

  const send = (body: unknown, headers: Record<string, string>) =>
    fetch(`${trusted.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));

  it('an API key may run a published document by its hash, and nothing else', async () => {
    const byHash = await send({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }, { authorization: `Bearer ${org.key}` });
    expect(byHash.status).toBe(200);
    expect(byHash.body.data.products.totalCount).toBe(0);
    const arbitrary = await send({ query: '{ products(first: 5) { totalCount } }' }, { authorization: `Bearer ${org.key}` });
    expect(arbitrary.status).toBe(400);
    expect(arbitrary.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await send({ extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } }, { authorization: `Bearer ${org.key}` });
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('a signed-in user (an analyst in GraphiQL) may still send any document', async () => {
    const session = await trusted.call('POST', '/api/auth/sign-in', { body: { email: org.admin.email, password: org.admin.password } });
    const res = await send({ query: '{ products(first: 5) { totalCount } }' }, { authorization: `Bearer ${session.body.token}` });
    expect(res.status).toBe(200);
    expect(res.body.data.products.totalCount).toBe(0);
  });
});

describe('the same limits for subscriptions over graphql-ws', () => {
  let small: TestServer;
  let org: Tenant;
  const progress = (fields: string) => `subscription ($id: ID!) { ${fields} }`;

  beforeAll(async () => {
    small = await startTestServer({ GRAPHQL_MAX_COST: '2' });
    org = await createTenant(small.app.prisma);
  });
  afterAll(() => small?.close());

  it('refuses too many tokens, too many aliases and a cost over the budget, and the socket stays open', async () => {
    const ws = wsConnection(small.url);
    await ws.init({ authorization: `Bearer ${org.key}` });
    const variables = { id: 'none' };
    const tokens = await ws.result(await ws.subscribe(progress(`importJobProgress(id: $id) { ${'a: id '.repeat(1000)} }`), variables));
    expect(tokens.payload[0].extensions.code).toBe('MAX_TOKENS_EXCEEDED');
    const aliases = await ws.result(await ws.subscribe(progress(`importJobProgress(id: $id) { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} }`), variables));
    expect(aliases.payload[0].extensions.code).toBe('MAX_ALIASES_EXCEEDED');
    const cost = await ws.result(await ws.subscribe(progress('importJobProgress(id: $id) { id state }'), variables));
    expect(cost.payload[0].extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', maxCost: 2 });
    const nul = await ws.result(await ws.subscribe(progress('importJobProgress(id: $id) { id }'), { id: 'a\u0000b' }));
    expect(nul.payload[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { id: [expect.stringMatching(/NUL/)] } });
    const cheap = await ws.result(await ws.subscribe(progress('importJobProgress(id: $id) { id }'), variables));
    expect(cheap.payload[0]?.extensions?.code ?? cheap.payload.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    ws.socket.close();
  });
});
