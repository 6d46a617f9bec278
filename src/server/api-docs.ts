import { Response } from '@whatwg-node/fetch';
// GET /api/docs: the REST reference to read, Redoc rendering /api/openapi.json in the browser, its script served by
// us from the redoc package (its self-contained standalone bundle) so that the page works without internet.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { API_DOCS_PATH, OPENAPI_PATH } from '../../rest-adapter/openapi.js';
import { escapeHtml, scriptJson, serveStaticFile, type StaticFile } from './static-files.js';

export { API_DOCS_PATH };
export const API_DOCS_ASSETS_PATH = `${API_DOCS_PATH}/assets/`;

const require = createRequire(import.meta.url);

type Assets = { version: string; files: Map<string, StaticFile> };
let loaded: Promise<Assets> | undefined;

/** Redoc's standalone bundle (about 1 MB, React included), read on first use. */
function assets(): Promise<Assets> {
  loaded ??= readFile(require.resolve('redoc/bundles/redoc.standalone.js')).then((script) => {
    const body = new Uint8Array(script.buffer.slice(script.byteOffset, script.byteOffset + script.byteLength)) as Uint8Array<ArrayBuffer>;
    const files = new Map<string, StaticFile>([['redoc.standalone.js', { body, contentType: 'text/javascript; charset=utf-8' }]]);
    return { version: createHash('sha256').update(body).digest('hex').slice(0, 16), files };
  });
  return loaded;
}

export async function serveApiDocsAsset(request: Request): Promise<Response> {
  return serveStaticFile(request, API_DOCS_ASSETS_PATH, (await assets()).files);
}

/** The page: system fonts (no font is fetched from anywhere), the description from this server. */
export async function apiDocsPage(request: Request): Promise<Response> {
  const { version } = await assets();
  const options = {
    // Redoc's own default fonts are names, not downloads; system ones read well and need nothing.
    theme: { typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' } } },
    expandResponses: '200,201,202',
    hideHostname: false,
    jsonSampleExpandLevel: 2,
    sortTagsAlphabetically: false,
  };
  const init = `Redoc.init(${scriptJson(OPENAPI_PATH)}, ${scriptJson(options)}, document.getElementById('redoc'));`;
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml('Supply chain service: REST reference')}</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <noscript>This page needs JavaScript. The description itself is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
    <div id="redoc">Loading the REST reference…</div>
    <script src="${API_DOCS_ASSETS_PATH}redoc.standalone.js?v=${version}"></script>
    <script>${init}</script>
  </body>
</html>
`;
  return new Response(request.method === 'HEAD' ? null : html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      // Nothing from another origin: Redoc's sidebar shows its vendor's logo from a CDN, which this refuses (the link
      // stays, without the image); the one inline script is allowed by its digest; styled-components writes styles.
      'content-security-policy': [
        "default-src 'self'",
        `script-src 'self' 'sha256-${createHash('sha256').update(init).digest('base64')}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "frame-ancestors 'self'",
        "base-uri 'none'",
        "form-action 'none'",
      ].join('; '),
    },
  });
}
