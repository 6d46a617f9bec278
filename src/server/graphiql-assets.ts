import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { GraphiQLOptions } from 'graphql-yoga';
import { json } from '../../rest-adapter/errors.js';

/** Where GraphiQL's own files are served, so that the page works on a machine without internet. */
export const GRAPHIQL_ASSETS_PATH = '/graphql/assets/';

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** The body compressed, made on the first request that accepts the encoding (off the event loop). */
  encoded?: Partial<Record<Encoding, Promise<Uint8Array<ArrayBuffer>>>>;
}

type Encoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const ENCODERS: Record<Encoding, (body: Uint8Array) => Promise<Buffer>> = {
  // Quality 9 of 11: the 9 MB script becomes about a fifth of it in about a second of a pool thread.
  br: (body) => brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }),
  gzip: (body) => gzipped(body, { level: 9 }),
};

/** The encoding to answer with: brotli, else gzip, when the request accepts it (a q of 0 refuses). */
function encodingFor(request: Request): Encoding | undefined {
  const accepted = new Set(
    (request.headers.get('accept-encoding') ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p)))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  return (['br', 'gzip'] as const).find((encoding) => accepted.has(encoding));
}

function encodedBody(file: Asset, encoding: Encoding) {
  file.encoded ??= {};
  return (file.encoded[encoding] ??= ENCODERS[encoding](file.body).then((out) => new Uint8Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength)) as Uint8Array<ArrayBuffer>));
}

type Assets = { version: string; files: Map<string, Asset> };

let loaded: Promise<Assets> | undefined;

/**
 * The files of the GraphiQL build that matches our graphql-yoga (@graphql-yoga/render-graphiql, which has
 * no dependencies of its own), loaded on first use: the script alone is about 9 MB. `version` is a
 * digest of them all, so a page names the exact files it was rendered with and browsers may keep them.
 */
function assets(): Promise<Assets> {
  loaded ??= import('@graphql-yoga/render-graphiql/graphiql').then((build) => {
    const text = (body: string, contentType: string): Asset => ({ body: new TextEncoder().encode(body), contentType: `${contentType}; charset=utf-8` });
    const files = new Map<string, Asset>([
      ['yoga-graphiql.js', text(build.js, 'text/javascript')],
      ['graphiql.css', text(build.css, 'text/css')],
      ['editor.worker.js', text(build.editorWorkerService, 'text/javascript')],
      ['json.worker.js', text(build.jsonWorker, 'text/javascript')],
      ['graphql.worker.js', text(build.graphqlWorker, 'text/javascript')],
      ['favicon.ico', { body: new Uint8Array(Buffer.from(build.favicon.slice(build.favicon.indexOf(',') + 1), 'base64')), contentType: 'image/x-icon' }],
    ]);
    const digest = createHash('sha256');
    for (const [name, file] of files) digest.update(name).update(file.body);
    return { version: digest.digest('hex').slice(0, 16), files };
  });
  return loaded;
}

/**
 * `GET /graphql/assets/<file>`: only the files of the GraphiQL build, each with its type; cacheable for a
 * year (the page asks for them by version); brotli or gzip when the browser accepts it (the script is
 * about 9 MB as it is).
 */
export async function serveGraphiQLAsset(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return json(405, { error: `${request.method} is not allowed on ${pathname} (allowed: GET, HEAD)`, code: 'METHOD_NOT_ALLOWED' }, { allow: 'GET, HEAD' });
  }
  const file = (await assets()).files.get(pathname.slice(GRAPHIQL_ASSETS_PATH.length));
  if (!file) return json(404, { error: `Not found: ${pathname}`, code: 'NOT_FOUND' });
  const encoding = encodingFor(request);
  const body = encoding ? await encodedBody(file, encoding) : file.body;
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: {
      'content-type': file.contentType,
      'content-length': String(body.byteLength),
      ...(encoding ? { 'content-encoding': encoding } : {}),
      vary: 'accept-encoding',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    },
  });
}

/** JSON for an inline script: `<` escaped so that no value can end the script element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The GraphiQL page, loading every file from this server (Yoga's default page loads them from a public CDN). */
export async function renderGraphiQLPage(options: GraphiQLOptions = {}): Promise<string> {
  const { version } = await assets();
  const asset = (name: string) => `${GRAPHIQL_ASSETS_PATH}${name}?v=${version}`;
  const workers = { editorWorkerService: asset('editor.worker.js'), json: asset('json.worker.js'), graphql: asset('graphql.worker.js') };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
    <link rel="icon" href="${asset('favicon.ico')}" />
    <link rel="stylesheet" href="${asset('graphiql.css')}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root">Loading…</div>
    <script>
      const workers = ${scriptJson(workers)};
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workers[label] ?? workers.editorWorkerService };
    </script>
    <script src="${asset('yoga-graphiql.js')}"></script>
    <script>YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), ${scriptJson(options)});</script>
  </body>
</html>
`;
}
