import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// GraphiQL as a newcomer uses it, in a real browser: open the page with the server's default settings,
// paste an API key into the Headers template, and the Docs panel lists the schema and the default
// document runs. Needs Chromium (apt-get install chromium, or CHROME_PATH); without one the file is skipped.
const BROWSER = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && existsSync(p));

let server: TestServer;
let tenant: Tenant;
let browser: Browser;

const visibleText = (page: Page, selector: string) => page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => (e as HTMLElement).innerText).join('\n'), selector);

async function clickButtonWithText(page: Page, text: string) {
  const clicked = await page.evaluate((t) => {
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === t);
    button?.click();
    return Boolean(button);
  }, text);
  expect(clicked, `a button reading ${text}`).toBe(true);
}

/** Types into the visible editor of the Headers tab as a paste would (Monaco closes brackets on its own: cut what follows). */
async function replaceHeaders(page: Page, headers: Record<string, string>) {
  await clickButtonWithText(page, 'Headers');
  // The tools hold two editors, variables then headers.
  const editors = await page.$$('.graphiql-editor-tool textarea');
  expect(editors).toHaveLength(2);
  await editors[1]!.focus();
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.sendCharacter(JSON.stringify(headers));
  await page.keyboard.down('Shift');
  await page.keyboard.press('End');
  await page.keyboard.up('Shift');
  await page.keyboard.press('Delete');
}

describe.runIf(BROWSER)('GraphiQL in a browser', () => {
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server.app.prisma);
    browser = await puppeteer.launch({ executablePath: BROWSER, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('with an API key pasted into the Headers template, the Docs panel lists the schema and the default document runs', async () => {
    const page = await browser.newPage();
    const introspections: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/graphql') && r.postData()?.includes('IntrospectionQuery')) introspections.push(r.headers().authorization);
    });
    await page.goto(`${server.url}/graphql`, { waitUntil: 'networkidle0' });
    // The first visit: the welcome document and the headers template, no key yet.
    expect(await visibleText(page, '.graphiql-query-editor')).toContain('ProductsWithStock');
    expect(introspections.length).toBeGreaterThan(0);
    expect(introspections.every((auth) => auth === 'Bearer <your API key>')).toBe(true);

    await replaceHeaders(page, { Authorization: `Bearer ${tenant.key}` });
    const withKey = page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.postData()?.includes('IntrospectionQuery')) && r.headers().authorization === `Bearer ${tenant.key}`);
    await page.click('button[aria-label^="Re-fetch GraphQL schema"]');
    await withKey;
    await page.click('button[aria-label="Show Documentation Explorer"]');
    await page.waitForFunction(() => document.querySelector('.graphiql-doc-explorer')?.textContent?.includes('Root Types'), { timeout: 15_000 });
    const docs = await visibleText(page, '.graphiql-doc-explorer');
    expect(docs).not.toContain('Error fetching schema');
    expect(docs).toMatch(/query:\s*Query/);
    expect(docs).toMatch(/mutation:\s*Mutation/);
    expect(introspections.at(-1)).toBe(`Bearer ${tenant.key}`);

    // Into Query: the fields a newcomer starts from, with their descriptions.
    await page.evaluate(() => [...document.querySelectorAll('.graphiql-doc-explorer a')].find((a) => a.textContent === 'Query')?.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    await page.waitForFunction(() => document.querySelector('.graphiql-doc-explorer')?.textContent?.includes('stockLines'), { timeout: 15_000 });
    expect(await visibleText(page, '.graphiql-doc-explorer')).toMatch(/products/);

    // The default document runs with that key: a result, no errors.
    await page.click('button[aria-label^="Execute query"]');
    await page.waitForFunction(() => document.querySelector('.graphiql-response')?.textContent?.includes('"data"'), { timeout: 15_000 });
    const response = await visibleText(page, '.graphiql-response');
    expect(response).toContain('"totalCount"');
    expect(response).not.toContain('"errors"');
    await page.close();
  }, 90_000);
});
