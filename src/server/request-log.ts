import { Response } from '@whatwg-node/fetch';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.js';
import { requestIds } from '../kernel/log.js';

/** What the request line says of a request besides method, path and status: filled in as the request runs. */
export interface RequestNote {
  requestId: string;
  /** The REST route's path pattern, or the GraphQL operation's name. */
  route?: string;
  operation?: string;
  organizationId?: string;
  actorType?: string;
  actorId?: string;
}

const notes = new WeakMap<Request, RequestNote>();

/** A caller's X-Request-Id when it is a sane token (letters, digits and . _ : - , up to 128), else a new UUID. */
export function requestIdOf(headers: Headers): string {
  const given = headers.get('x-request-id');
  return given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
}

export function startNote(request: Request, requestId: string): RequestNote {
  const note: RequestNote = { requestId };
  notes.set(request, note);
  requestIds.set(request, requestId);
  return note;
}

export const noteOf = (request: Request): RequestNote | undefined => notes.get(request);

/** Records who is calling (the tenant and the actor, never their credentials). */
export function noteCaller(request: Request, context: RequestContext) {
  const note = notes.get(request);
  if (!note || !context.auth) return;
  note.organizationId = context.auth.organization.id;
  note.actorType = context.auth.actor.type;
  note.actorId = context.auth.actor.id;
}

/**
 * The response as sent: the request id in `X-Request-Id`, and in the body of a JSON error answer of the REST
 * paths (`requestId` beside `error` and `code`), so a user can quote it to an operator.
 */
export async function withRequestId(response: Response, requestId: string, pathname: string): Promise<Response> {
  const isRestError = response.status >= 400 && pathname.startsWith('/api') && (response.headers.get('content-type') ?? '').includes('application/json');
  if (isRestError) {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const headers = new Headers(response.headers);
    headers.set('x-request-id', requestId);
    headers.delete('content-length');
    const out = body && typeof body === 'object' && !Array.isArray(body) ? JSON.stringify({ ...body, requestId }) : text;
    return new Response(out, { status: response.status, statusText: response.statusText, headers });
  }
  try {
    response.headers.set('x-request-id', requestId);
    return response;
  } catch {
    // Immutable headers (a response passed through from fetch): copy it.
    const headers = new Headers(response.headers);
    headers.set('x-request-id', requestId);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
