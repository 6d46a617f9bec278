import { createRequire } from 'node:module';
import os from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for the Pothos and Yoga packages; Vite would pick the .mjs
    // build for our files, and graphql refuses to mix two copies. Point both at the same one.
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Every test file gets its own database, so files run in parallel in separate processes.
    pool: 'forks',
    fileParallelism: true,
    // Vitest's default is one worker less than the cores: a single worker on a 2-core machine (CI's), with the
    // second core idle, since our tests run their server and PGlite inside the worker. Every core then, and at
    // most 4, so that the files' PostgreSQL pools (10 connections each) stay well under max_connections.
    maxWorkers: Math.min(os.availableParallelism(), 4),
    // A worker keeps its modules from one file to the next: loading the service's modules (the schema, Prisma's
    // client, PGlite) cost each file 3-9 s, the largest part of the suite's time. Files share no state through
    // them: each opens its own database and server, with its configuration passed in, never read from globals.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
