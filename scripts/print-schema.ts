// npm run schema: prints the GraphQL schema built from the code into schema.graphql (committed; a test checks it).
import { writeFileSync } from 'node:fs';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/schema/index.js';

export const printedSchema = () => printSchema(lexicographicSortSchema(schema)) + '\n';

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../schema.graphql', import.meta.url), printedSchema());
  console.log('wrote schema.graphql');
}
