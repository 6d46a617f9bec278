import { Response } from '@whatwg-node/fetch';
// Files we serve from our own packages (GraphiQL's build, Redoc's bundle), so that every page works on a machine
// without internet: each with its type, compressed once on first request, cacheable for a year (pages ask for them
// by a version digest).
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { json } from '../../rest-adapter/errors.js';

export interface StaticFile {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** The body compressed, made on the first request that accepts the encoding (off the event loop). */
  encoded?: Partial<Record<Encoding, Promise<Uint8Array<ArrayBuffer>>>>;
}

type Encoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const ENCODERS: Record<Encoding, (body: Uint8Array) => Promise<Buffer>> = {
  // Quality 9 of 11: GraphiQL's 9 MB script becomes about a fifth of it in about a second of a pool thread.
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

function encodedBody(file: StaticFile, encoding: Encoding) {
  file.encoded ??= {};
  return (file.encoded[encoding] ??= ENCODERS[encoding](file.body).then((out) => new Uint8Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength)) as Uint8Array<ArrayBuffer>));
}

export const textFile = (body: string, contentType: string): StaticFile => ({ body: new TextEncoder().encode(body), contentType: `${contentType}; charset=utf-8` });

/** GET or HEAD of one of `files` by the name after `prefix`: 404 for any other name, 405 for another method. */
export async function serveStaticFile(request: Request, prefix: string, files: Map<string, StaticFile>): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return json(405, { error: `${request.method} is not allowed on ${pathname} (allowed: GET, HEAD)`, code: 'METHOD_NOT_ALLOWED' }, { allow: 'GET, HEAD' });
  }
  const file = files.get(pathname.slice(prefix.length));
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
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
