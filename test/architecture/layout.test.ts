import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './source-files.js';

// An area (and a sub-area of one) has the same folder name in every tree: the domain in src/services,
// its GraphQL in src/schema, its REST routes in rest-adapter, its inputs in src/contracts, its tests in
// test and its benchmark in bench. A newcomer finds everything of `inventory/availability` by that name.

const folders = (path: string) =>
  existsSync(join(root, path)) ? readdirSync(join(root, path), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];
const files = (path: string) =>
  existsSync(join(root, path)) ? readdirSync(join(root, path), { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).sort() : [];

const TREES = ['src/schema', 'rest-adapter', 'src/contracts', 'test', 'bench'] as const;

/** Folders of a tree that are not areas, and why. */
const NOT_AREAS: Record<string, string[]> = {
  // helpers of every test file; tests of the whole (import rules, the schema); the server's doors; a client app
  test: ['support', 'architecture', 'server', 'client-toolchain'],
  // the measuring harness; the server's limits; the stall bench across areas
  bench: ['harness', 'server', 'stalls'],
};

/** Files an area with sub-areas keeps at its own level: what its sub-areas share, or tests across them. */
const AREA_LEVEL = [
  /^[a-z-]+-area\.ts$/, // the REST adapter's one RestArea of the area
  /^[a-z-]+-scopes\.ts$/, // authScopes its sub-areas' fields share
  /^mutation-refusals\.test\.ts$/, // every mutation of the area answers its declared refusals
  /^[a-z-]+-connections\.test\.ts$/, // every connection of the area paged both ways
  /^foreign-filter-ids\.test\.ts$/, // every list of the area refuses another organization's filter id
  /^record-links-graphql\.test\.ts$/, // links between the area's records
  /^forecast-window\.ts$/, // the forecast window arguments every forecasting field takes
  /^instant-arguments\.ts$/, // DateTime arguments as the text the list contracts read (scenarios, events)
  /^forecast-docs\.ts$/, // OpenAPI words every forecasting route shares
  /^forecast-(paths|load-bounds)\.test\.ts$/, // every forecasting path against bad input and heavy data
  /^records-by-id\.ts$/, // the area's records by id, for the batched links
];

const areas = folders('src/services');
const subAreas = (area: string) => folders(`src/services/${area}`);

describe('the same name in every tree', () => {
  it.each(TREES)('every area folder of %s is an area of src/services', (tree) => {
    const strays = folders(tree).filter((name) => !areas.includes(name) && !NOT_AREAS[tree]?.includes(name));
    expect(strays, `${tree}: folders named after no area of src/services (${areas.join(', ')})`).toEqual([]);
  });

  it('every area with GraphQL fields has its tests under the same name', () => {
    const untested = folders('src/schema').filter((area) => !folders('test').includes(area));
    expect(untested).toEqual([]);
  });

  it.each(TREES)('every sub-area folder of %s is a sub-area of its area in src/services', (tree) => {
    const strays = folders(tree)
      .filter((area) => areas.includes(area))
      .flatMap((area) => folders(`${tree}/${area}`).filter((name) => !subAreas(area).includes(name)).map((name) => `${tree}/${area}/${name}`));
    expect(strays).toEqual([]);
  });

  it('a sub-area with GraphQL fields has its REST routes (if any), contracts (if any) and tests under its name', () => {
    const missing = areas.flatMap((area) =>
      subAreas(area)
        .filter((sub) => existsSync(join(root, 'src/schema', area, sub)))
        .filter((sub) => !existsSync(join(root, 'test', area, sub)))
        .map((sub) => `test/${area}/${sub}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(['src/schema', 'rest-adapter', 'src/contracts', 'test', 'src/services'])(
    'in %s, an area with sub-areas keeps its files in them (but for what they share)',
    (tree) => {
      const loose = areas
        .filter((area) => subAreas(area).length > 0 && folders(`${tree}/${area}`).length > 0)
        .flatMap((area) => files(`${tree}/${area}`).filter((name) => !AREA_LEVEL.some((rule) => rule.test(name))).map((name) => `${tree}/${area}/${name}`));
      expect(loose).toEqual([]);
    },
  );
});
