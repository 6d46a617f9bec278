import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startTestServer();
  doc = (await server.call('GET', '/api/openapi.json')).body;
});
afterAll(() => server?.close());

const toOpenApi = (path: string) => path.replace(/^\/api/, '').replace(/:(\w+)/g, '{$1}');

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1, version 1.0.0, served under /api with a bearer scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0].url).toBe(`${server.url}/api`);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const path of Object.keys(doc.paths)) expect(path.startsWith('/api')).toBe(false);
  });

  it('lists exactly the paths and methods the router serves', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const registered = server.handler.rest.registered().map(([method, path]) => `${method} ${toOpenApi(path)}`);
    registered.push('GET /openapi.json');
    expect(documented).toEqual(registered.sort());
  });

  it('gives every operation a summary, a tag and responses, and resolves every $ref', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.split('/').pop()!.replace('"', '');
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    for (const methods of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(methods)) {
        expect(operation.summary).toBeTruthy();
        expect(operation.tags.length).toBeGreaterThan(0);
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
      }
    }
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await server.call('GET', '/api/nothing-here', { token: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});
