import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

// GraphiQL must work on a machine without internet: its page names no other host, and every file it
// names is served here with the right type.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

const page = async () => {
  const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return res.text();
};

const TYPES: Record<string, RegExp> = {
  '.js': /^text\/javascript; charset=utf-8$/,
  '.css': /^text\/css; charset=utf-8$/,
  '.ico': /^image\/x-icon$/,
};

describe('GraphiQL without internet', () => {
  it('the page names no external URL', async () => {
    const html = await page();
    expect(html.match(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/gi)).toBeNull();
    expect(html).not.toContain('unpkg');
  });

  it('every file the page names (scripts, style, icon, editor workers) answers 200 with its type and is cacheable', async () => {
    const html = await page();
    const referenced = [...new Set(html.match(/\/graphql\/assets\/[\w.-]+\?v=\w+/g))];
    const names = referenced.map((url) => url.slice('/graphql/assets/'.length).split('?')[0]).sort();
    expect(names).toEqual(['editor.worker.js', 'favicon.ico', 'graphiql.css', 'graphql.worker.js', 'json.worker.js', 'yoga-graphiql.js']);
    for (const url of referenced) {
      const res = await fetch(server.url + url, { headers: { 'accept-encoding': 'identity' } });
      expect(res.status, url).toBe(200);
      const ext = url.slice(url.lastIndexOf('.'), url.indexOf('?'));
      expect(res.headers.get('content-type'), url).toMatch(TYPES[ext]!);
      expect(res.headers.get('cache-control'), url).toContain('immutable');
      const body = new Uint8Array(await res.arrayBuffer());
      expect(body.byteLength, url).toBeGreaterThan(1000);
      expect(Number(res.headers.get('content-length')), url).toBe(body.byteLength);
    }
    const script = await (await fetch(`${server.url}${referenced.find((u) => u.includes('yoga-graphiql.js'))}`)).text();
    expect(script).toContain('renderYogaGraphiQL');
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL(');
  });

  it('compresses the files with brotli or gzip when the browser accepts it, and says so', async () => {
    const html = await page();
    const url = html.match(/\/graphql\/assets\/yoga-graphiql\.js\?v=\w+/)![0];
    const plain = await raw(url, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.byteLength).toBeGreaterThan(1_000_000);
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip;q=1.0, br;q=0', 'gzip', gunzipSync],
      ['GZIP', 'gzip', gunzipSync],
    ] as const) {
      const res = await raw(url, accept);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(Number(res.headers['content-length']), accept).toBe(res.body.byteLength);
      expect(res.body.byteLength, accept).toBeLessThan(plain.body.byteLength / 3);
      expect(Buffer.compare(decode(res.body), plain.body), accept).toBe(0);
    }
  });

  it('serves only those files: other names are 404, other methods 405, and the server still answers', async () => {
    for (const path of ['/graphql/assets/nope.js', '/graphql/assets/../../package.json', '/graphql/assets/%2e%2e%2fpackage.json', '/graphql/assets/', '/graphql/assets/constructor']) {
      const res = await server.call('GET', path);
      expect([res.status, res.body.code], path).toEqual([404, 'NOT_FOUND']);
    }
    const post = await server.call('POST', '/graphql/assets/graphiql.css', { body: {} });
    expect([post.status, post.headers.get('allow'), post.body.code]).toEqual([405, 'GET, HEAD', 'METHOD_NOT_ALLOWED']);
    const head = await fetch(`${server.url}/graphql/assets/graphiql.css`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
  });
});

/** A GET with this Accept-Encoding, its bytes exactly as sent (fetch would decode them). */
function raw(path: string, acceptEncoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(server.url + path, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
