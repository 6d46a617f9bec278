import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';

/**
 * The migration engine's factory for PostgreSQL. @prisma/adapter-pg runs a migration script by splitting it at
 * every ";", which cuts a function body (`$$ ... ; ... $$`) apart; this sends the script whole, as PGlite's adapter
 * does, so PostgreSQL parses it and runs it as one implicit transaction.
 */
export class WholeScriptPrismaPg extends PrismaPg {
  constructor(private readonly pool: pg.Pool) {
    super(pool);
  }

  /** Closes the pool (once): the engine has finished with it. */
  async endPool() {
    if (!this.pool.ended) await this.pool.end();
  }

  override async connect() {
    const adapter = await super.connect();
    adapter.executeScript = async (script: string) => {
      await this.pool.query(script);
    };
    return adapter;
  }
}
