import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/kernel/import-limits.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let a: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.app.prisma);
}, 60_000);
afterAll(() => server?.close());

const tooLargeMessage = `Request body is larger than the limit of ${MAX_BODY_BYTES} bytes for this path`;

/**
 * A POST that declares a Content-Length over the import limit but sends only its first kilobyte and then
 * waits: the answer can only come from a server that does not wait for (or buffer) the whole body.
 */
function postDeclaringHugeBody(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1024 * 1024), ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer before the body was sent'));
    }, 5_000);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) });
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.write(`[${'{"externalId":"X"},'.repeat(50)}`);
  });
}

/** POST /api/import/catalog with a streamed body (chunked, no Content-Length). */
const postStream = (body: ReadableStream<Uint8Array>) =>
  fetch(`${server.url}/api/import/catalog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);

describe('malformed percent-encoding in the path', () => {
  it('answers 400 BAD_REQUEST in the error shape, on every route with a path parameter', async () => {
    for (const path of ['/api/import/status/%E0%A4%A', '/api/products/%ZZ', '/api/admin/api-keys/%C0%AF/revoke']) {
      const method = path.endsWith('/revoke') ? 'POST' : 'GET';
      const res = await server.call(method, path, { token: a.key });
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
      expect(res.body.error).toMatch(/percent-encoding/);
    }
  });

  it('still decodes a well-formed encoding', async () => {
    const res = await server.call('GET', '/api/import/status/%E2%82%AC', { token: a.key });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});

describe('credentials before the body', () => {
  it('answers 401, not 400, to a POST with bad JSON from an anonymous caller or with a bad key', async () => {
    const anonymous = await server.call('POST', '/api/import/catalog', { body: '{bad' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'Authentication required: send Authorization: Bearer <API key or token>', code: 'MISSING_AUTHORIZATION' });
    const badKey = await server.call('POST', '/api/import/catalog', { token: 'scm_not-a-real-key', body: '{bad' });
    expect(badKey.status).toBe(401);
    expect(badKey.body).toEqual({ error: 'API key not found or invalid', code: 'INVALID_API_KEY' });
  });

  it('still answers 400 to bad JSON with good credentials', async () => {
    const res = await server.call('POST', '/api/import/catalog', { token: a.key, body: '{bad' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body is not valid JSON', code: 'BAD_REQUEST' });
  });

  it('answers 401 to an anonymous huge body without reading it', async () => {
    const res = await postDeclaringHugeBody('/api/import/catalog');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('MISSING_AUTHORIZATION');
  });

  it('answers 401 to a huge body with a bad key without reading it', async () => {
    const res = await postDeclaringHugeBody('/api/import/catalog', { authorization: 'Bearer scm_not-a-real-key' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_API_KEY');
  });
});

describe('body size limit', () => {
  it('answers 413 at once when Content-Length is over the limit', async () => {
    const res = await postDeclaringHugeBody('/api/import/catalog', { authorization: `Bearer ${a.key}` });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: tooLargeMessage, code: 'PAYLOAD_TOO_LARGE', maxBodyBytes: MAX_BODY_BYTES, requestId: expect.any(String) });
  });

  it('answers 413 to a chunked body (no Content-Length) once it passes the limit, without waiting for its end', async () => {
    const chunk = new TextEncoder().encode(`${'{"externalId":"X"},'.repeat(4096)}`);
    let sent = 0;
    // Endless: the server has to stop reading by itself at the limit.
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('[')),
      pull: (controller) => {
        sent += chunk.byteLength;
        if (sent > 4 * MAX_BODY_BYTES) return controller.error(new Error('the server read past its limit'));
        controller.enqueue(chunk);
      },
    });
    const response = await postStream(body);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: tooLargeMessage, code: 'PAYLOAD_TOO_LARGE', maxBodyBytes: MAX_BODY_BYTES, requestId: expect.any(String) });
    expect(sent).toBeLessThan(2 * MAX_BODY_BYTES);
  }, 30_000);

  it('accepts a chunked body under the limit', async () => {
    const rows = new TextEncoder().encode(JSON.stringify([{ externalId: 'CHUNKED-1', name: 'Chunked' }]));
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(rows.slice(0, 10));
        controller.enqueue(rows.slice(10));
        controller.close();
      },
    });
    const response = await postStream(body);
    expect(response.status).toBe(202);
    expect((await response.json()).totalRows).toBe(1);
  });
});

describe('OpenAPI description of the 413 answers', () => {
  it('lists every field the import routes send with 413', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const imports = Object.entries(doc.paths as Record<string, Record<string, any>>).filter(([path, methods]) => path.startsWith('/import/') && methods.post);
    expect(imports.length).toBeGreaterThan(1);
    for (const [path, methods] of imports) {
      const schema = methods.post.responses['413'].content['application/json'].schema;
      const name: string = schema.$ref.split('/').pop();
      const component = doc.components.schemas[name];
      const parts: any[] = component.allOf ?? [component];
      const fields = parts.flatMap((part) => Object.keys(part.$ref ? doc.components.schemas[part.$ref.split('/').pop()].properties : part.properties));
      // The body-size answer (tested above) and the too-many-rows answer (test/import/import-jobs.test.ts).
      for (const field of ['error', 'code', 'maxBodyBytes', 'maxRows', 'rows']) expect(fields, `${path} ${field}`).toContain(field);
    }
  });
});
