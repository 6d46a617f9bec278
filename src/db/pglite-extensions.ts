import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/**
 * The extensions the migrations create (pg_trgm: the trigram indexes behind name and SKU search). PostgreSQL
 * ships them; PGlite loads each into the instance when it is created, so every PGlite this project opens
 * (the server's, the tests' template, the migration diff's) is made with them.
 */
export const PGLITE_EXTENSIONS = { pg_trgm } as const;

export const createPGlite = (dataDir: string, options: Omit<PGliteOptions, 'extensions'> = {}) => PGlite.create(dataDir, { ...options, extensions: PGLITE_EXTENSIONS });

/** The Prisma adapter of a PGlite, whose shadow database (the migration diff's) has the extensions too. */
export class PrismaPGliteWithExtensions extends PrismaPGlite {
  override async connectToShadowDb() {
    return new PrismaPGlite(await createPGlite('memory://shadow')).connect();
  }
}
