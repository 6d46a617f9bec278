import { expect, it } from 'vitest';
import type { TestServer } from './server.js';

/** One connection to page through, and the list it must give item by item. */
export interface ConnectionCase {
  field: string;
  /** Its own arguments (a required location), as GraphQL argument text. */
  args?: string;
  /** The field identifying a node (default id). */
  key?: string;
  /** The largest page it serves. */
  max: number;
  /** Items in the list. */
  total: number;
  /** The list's items in its order, read some other way (the REST adapter's page field). */
  reference: () => Promise<string[]>;
  /** Its arguments (its own ones included) with a filter naming another organization's record, as GraphQL argument text (NOT_FOUND). */
  foreign?: string;
  /** Cursors of this list are record ids (a Prisma connection) rather than positions. */
  idCursors?: boolean;
  /** The caller, when not the walk's own token. */
  token?: string;
}

interface Page {
  totalCount: number;
  edges: { cursor: string; node: Record<string, string> }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * For each case: pages forward with first/after and backward with last/before (and `last` alone) in
 * pages of 2, reaching every item exactly once in the list's order with the right totalCount; refuses
 * `first` over the maximum and a cursor of another kind with VALIDATION_ERROR naming the argument; and
 * answers NOT_FOUND for a filter naming another organization's record.
 */
export function itWalksConnections(setup: () => { server: TestServer; token: string; cases: ConnectionCase[] }) {
  const read = async (server: TestServer, token: string, c: ConnectionCase, paging: string, variables: Record<string, unknown> = {}) => {
    const own = [c.args, paging].filter(Boolean).join(', ');
    const header = paging.includes('$cursor') ? '($cursor: String) ' : '';
    const res = await server.graphql(
      `query ${header}{ list: ${c.field}(${own}) { totalCount edges { cursor node { ${c.key ?? 'id'} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      variables,
      token,
    );
    return res;
  };
  const page = async (server: TestServer, token: string, c: ConnectionCase, paging: string, cursor?: string): Promise<Page> => {
    const res = await read(server, token, c, paging, { cursor });
    expect(res.body.errors, `${c.field}(${paging}): ${JSON.stringify(res.body.errors)}`).toBeUndefined();
    return res.body.data.list;
  };
  const keys = (c: ConnectionCase, p: Page) => p.edges.map((e) => e.node[c.key ?? 'id']!);

  it('pages forward with first/after and backward with last/before, each item once, in the list order', async () => {
    const { server, token, cases } = setup();
    for (const c of cases) {
      const who = c.token ?? token;
      const expected = await c.reference();
      expect(expected, c.field).toHaveLength(c.total);
      expect(new Set(expected).size, c.field).toBe(c.total);

      const forward: string[] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard <= c.total; guard++) {
        const p = await page(server, who, c, cursor ? 'first: 2, after: $cursor' : 'first: 2', cursor);
        expect(p.totalCount, c.field).toBe(c.total);
        expect(p.pageInfo.hasPreviousPage, `${c.field} forward after ${forward.length}`).toBe(forward.length > 0);
        forward.push(...keys(c, p));
        if (!p.pageInfo.hasNextPage) break;
        cursor = p.pageInfo.endCursor!;
      }
      expect(forward, `${c.field} forward`).toEqual(expected);

      const backward: string[] = [];
      cursor = undefined;
      for (let guard = 0; guard <= c.total; guard++) {
        const p = await page(server, who, c, cursor ? 'last: 2, before: $cursor' : 'last: 2', cursor);
        expect(p.totalCount, c.field).toBe(c.total);
        if (!cursor) expect(keys(c, p), `${c.field} last alone`).toEqual(expected.slice(-2));
        backward.unshift(...keys(c, p));
        if (!p.pageInfo.hasPreviousPage) break;
        cursor = p.pageInfo.startCursor!;
      }
      expect(backward, `${c.field} backward`).toEqual(expected);
    }
  });

  it('refuses first over the maximum and a cursor of another kind with VALIDATION_ERROR naming the argument', async () => {
    const { server, token, cases } = setup();
    for (const c of cases) {
      const who = c.token ?? token;
      const over = await read(server, who, c, `first: ${c.max + 1}`);
      expect(over.status, c.field).toBe(400);
      expect(over.body.errors[0].extensions, c.field).toEqual({
        code: 'VALIDATION_ERROR',
        details: { first: [`first must be at most ${c.max}: page on with the cursors of pageInfo`] },
      });
      expect((await read(server, who, c, `first: ${c.max}`)).body.errors, c.field).toBeUndefined();
      const other = c.idCursors ? b64('OffsetConnection:0') : b64('GPC:S:00000000-0000-4000-8000-000000000000');
      const wrong = await read(server, who, c, 'first: 1, after: $cursor', { cursor: other });
      expect(wrong.status, c.field).toBe(400);
      expect(wrong.body.errors[0].extensions.code, c.field).toBe('VALIDATION_ERROR');
      expect(Object.keys(wrong.body.errors[0].extensions.details), c.field).toEqual(['after']);
    }
  });

  it("answers NOT_FOUND for a filter naming another organization's record", async () => {
    const { server, token, cases } = setup();
    for (const c of cases.filter((x) => x.foreign)) {
      const res = await server.graphql(`{ list: ${c.field}(${c.foreign}) { totalCount } }`, {}, c.token ?? token);
      expect(res.body.errors?.[0]?.extensions?.code, `${c.field}: ${JSON.stringify(res.body)}`).toBe('NOT_FOUND');
    }
  });
}
