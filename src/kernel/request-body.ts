import { DomainError } from '../errors.js';

/** JSON bodies nest no deeper than this (objects and arrays); deeper ones are refused before anything walks them. */
export const MAX_JSON_DEPTH = 64;

const tooLarge = (maxBytes: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', `Request body is larger than the limit of ${maxBytes} bytes for this path`, { maxBodyBytes: maxBytes });

/** The body's bytes, refused as soon as they pass maxBytes: a declared Content-Length at once, a chunked body while it streams. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    size += part.value.byteLength;
    // The rest is never read: the 413 goes out at once, and Node closes the stalled connection when it idles out.
    if (size > maxBytes) {
      reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(part.value);
  }
  return Buffer.concat(chunks, size);
}

/** How deeply a parsed JSON value nests, counted without recursion (so no input can overflow the stack). */
export function jsonDepthOver(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export const tooDeep = () =>
  new DomainError('BAD_REQUEST', `The JSON nests deeper than ${MAX_JSON_DEPTH} levels`, { maxDepth: MAX_JSON_DEPTH });

/**
 * Parses a JSON body. The error never repeats the input (a parser's message quotes it), and a document
 * nested deeper than MAX_JSON_DEPTH is refused.
 */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError('BAD_REQUEST', 'Request body is not valid JSON');
  }
  if (jsonDepthOver(value, MAX_JSON_DEPTH)) throw tooDeep();
  return value;
}

/** Whether a request says its body is JSON (application/json, or a +json type). */
export function saysJson(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}
