import { Response } from '@whatwg-node/fetch';
import { DomainError } from './errors.js';

const tooLarge = (maxBytes: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', `Request body is larger than the limit of ${maxBytes} bytes for this path`, { maxBodyBytes: maxBytes });

/**
 * The client went away before its body was read to the end (it closed or reset the connection): not a
 * failure of the server, and no one is left to answer. Each door answers it with an empty 499 (the
 * status nginx logs for it), without logging it.
 */
export class ClientAborted extends Error {
  constructor() {
    super('The client closed the connection before sending its whole body');
    this.name = 'ClientAborted';
  }
}

/** What a door answers a ClientAborted with; nobody reads it. */
export const clientAbortedResponse = () => new Response(null, { status: 499 });

/** The next part of the body; a stream error here can only come from the client's side of the connection. */
async function readPart(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch {
    throw new ClientAborted();
  }
}

/** The body's bytes, refused as soon as they pass maxBytes: a declared Content-Length at once, a chunked body while it streams. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let part = await readPart(reader); !part.done; part = await readPart(reader)) {
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

/** Parses a JSON body. The error never repeats the input (a parser's message quotes it). */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('BAD_REQUEST', 'Request body is not valid JSON');
  }
}

/** Whether a request says its body is JSON (application/json, or a +json type). */
export function saysJson(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}
