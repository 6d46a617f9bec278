import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startTestServer, type TestServer } from '../support/server.js';

// GET /api/docs, the REST reference to read (docs/development.md): the page and Redoc's script come from this
// server; in headless Chromium with every request to another origin refused, it renders the description's areas
// and operations. Without Chromium (apt-get install chromium, or CHROME_PATH) only the HTTP part runs.
const BROWSER = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && existsSync(p));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('GET /api/docs', () => {
  it('answers the page, which loads Redoc from this server and the description from /api/openapi.json', async () => {
    const res = await fetch(`${server.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    const script = /<script src="(\/api\/docs\/assets\/redoc\.standalone\.js\?v=[0-9a-f]{16})"><\/script>/.exec(html)?.[1];
    expect(script).toBeTruthy();
    expect(html).toContain('Redoc.init("/api/openapi.json"');
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");

    const asset = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await asset.text()).length).toBeGreaterThan(500_000);

    expect((await server.call('GET', '/api/docs/assets/nothing.js')).status).toBe(404);
    const post = await server.call('POST', '/api/docs');
    expect(post.status).toBe(405);
    expect(post.body.code).toBe('METHOD_NOT_ALLOWED');
    const openapi = (await server.call('GET', '/api/openapi.json')).body;
    expect(openapi.paths['/docs'].get.responses['200'].content['text/html']).toBeTruthy();
  });
});

describe.runIf(BROWSER)('GET /api/docs in a browser without the internet', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await puppeteer.launch({ executablePath: BROWSER, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 60_000);
  afterAll(() => browser?.close());

  it('renders the areas and operations of the description, asking nothing of another origin', async () => {
    const page = await browser.newPage();
    const origin = new URL(server.url).origin;
    const elsewhere: string[] = [];
    const failed: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const url = request.url();
      if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith(origin)) return void request.continue();
      elsewhere.push(url);
      void request.abort('internetdisconnected');
    });
    page.on('requestfailed', (request) => failed.push(request.url()));
    const refusedScripts: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /script/i.test(message.text()) && /Content Security Policy/i.test(message.text())) refusedScripts.push(message.text());
    });
    await page.goto(`${server.url}/api/docs`, { waitUntil: 'networkidle0', timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector('.api-content')?.textContent?.includes('Inventory'), { timeout: 30_000 });
    const text = await page.evaluate(() => document.body.innerText);
    for (const tag of ['Inventory', 'Forecasting', 'Transfers', 'Alerts']) expect(text).toContain(tag);
    expect(text).toContain('/inventory/adjust');
    expect(elsewhere).toEqual([]);
    expect(failed).toEqual([]);
    expect(refusedScripts).toEqual([]);
  }, 90_000);
});
