import type { DbContext } from '../context.js';
import { Prisma } from '../generated/prisma/client.js';

/**
 * Escapes LIKE wildcards so a search matches the literal text: Prisma's `contains` and our own ILIKE
 * queries would otherwise treat % and _ typed by a user as patterns.
 */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

/** The ILIKE pattern of "contains `text`", as literal text. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

// ---- product search: SKU or name contains the term, led by its rare part ---------------------------------
//
// `sku ILIKE '%term%' OR name ILIKE '%term%'` is answered by the trigram indexes of product_masters. A GIN scan
// of one pattern walks the postings of the rarest trigram and, for each of its entries, moves every other
// trigram's postings up to it: when the term also has trigrams that nearly every product shares (a catalog's
// common prefix, `SCALE-` of `SCALE-0512345`), the scan reads those long posting lists whole, and a lookup
// by SKU grows with the catalog (docs/lists.md, "Search at a million products").
//
// A GIN scan of several patterns on one column does not: the first pattern finds its few rows, and the next
// ones only check those. So each column's condition is led by the rare part of the term, when the column's
// statistics show one: `(sku ILIKE '%0512345%' AND sku ILIKE '%SCALE-0512345%')`. The lead is a piece of the
// term, so every row containing the term contains it: the answer is exactly the term's (the term's own
// pattern still decides every row). Which part is rare is estimated from the planner's sample of the column
// (pg_stats); without one (never analyzed, as a fresh PGlite) or without a rare part, the condition is the
// term's pattern alone, as before.

/** A trigram found in more than this share of a column's sampled values counts as common. */
const COMMON_SHARE = 0.05;
/** A lead has at least this many distinct trigrams: one rare trigram still leaves thousands of rows to check at a million. */
const LEAD_MIN_TRIGRAMS = 2;
/** How long an instance uses the statistics it read before reading them again (ANALYZE changes them slowly). */
const STATISTICS_MS = 10 * 60_000;

/** A column's sampled values (lowercased), each with the share of the table's rows it stands for. */
export type ColumnSample = { value: string; share: number }[];

const samples = new WeakMap<object, { until: number; read: Promise<Map<string, ColumnSample>> }>();

interface StatsRow {
  column: string;
  nullFrac: number;
  mcv: string[] | null;
  mcf: number[] | null;
  histogram: string[] | null;
}

/** The planner's sample of product_masters' SKU and name (most common values and histogram), read once per STATISTICS_MS. */
function productSamples(ctx: DbContext): Promise<Map<string, ColumnSample>> {
  const cached = samples.get(ctx.app.prisma);
  if (cached && cached.until > Date.now()) return cached.read;
  const read = ctx.prisma
    .$queryRaw<StatsRow[]>`
      SELECT attname::text AS "column", null_frac::float8 AS "nullFrac", most_common_vals::text::text[] AS mcv,
        most_common_freqs::float8[] AS mcf, histogram_bounds::text::text[] AS histogram
      FROM pg_stats
      WHERE schemaname = current_schema() AND tablename = 'product_masters' AND attname IN ('sku', 'name') AND NOT inherited`
    .then((rows) => new Map(rows.map((row) => [row.column, columnSample(row)] as const)))
    // Statistics only steer the plan: without them the search runs unled.
    .catch(() => new Map<string, ColumnSample>());
  samples.set(ctx.app.prisma, { until: Date.now() + STATISTICS_MS, read });
  return read;
}

function columnSample(row: StatsRow): ColumnSample {
  const common = (row.mcv ?? []).map((value, i) => ({ value: value.toLowerCase(), share: row.mcf?.[i] ?? 0 }));
  const rest = Math.max(0, 1 - row.nullFrac - common.reduce((sum, c) => sum + c.share, 0));
  const histogram = row.histogram ?? [];
  return [...common, ...histogram.map((value) => ({ value: value.toLowerCase(), share: rest / histogram.length }))];
}

/** The share of the column's rows whose value contains `piece` (lowercase), as the sample tells. */
const shareContaining = (sample: ColumnSample, piece: string) => sample.reduce((sum, s) => (s.value.includes(piece) ? sum + s.share : sum), 0);

/**
 * The longest piece of `term` made of trigrams that are rare in the column (each in at most COMMON_SHARE of
 * the sample), when it is not the whole term; null when there is none, or no sample. Only printable ASCII
 * terms are led: the piece must be contained, without regard to case, in every value that contains the
 * term, and lowercasing ASCII letters does not depend on the letters around them in any collation.
 */
export function rarePiece(term: string, sample: ColumnSample | undefined): string | null {
  if (!sample?.length || !/^[\x20-\x7e]+$/.test(term)) return null;
  const lower = term.toLowerCase();
  let best: { start: number; end: number; trigrams: number } | null = null;
  const consider = (start: number, end: number) => {
    // Distinct trigrams: `00000` is one trigram three times, as selective as `000`.
    const trigrams = new Set(Array.from({ length: end - start - 2 }, (_, i) => lower.slice(start + i, start + i + 3))).size;
    if (trigrams >= LEAD_MIN_TRIGRAMS && (!best || trigrams > best.trigrams)) best = { start, end, trigrams };
  };
  // pg_trgm's trigrams are taken from words: runs of letters and digits.
  for (const word of lower.matchAll(/[a-z0-9]{3,}/g)) {
    let rareFrom = -1;
    for (let i = word.index; i <= word.index + word[0].length - 2; i++) {
      // i is where a trigram starts; the last i, one past the last trigram, ends the word's run.
      const rare = i <= word.index + word[0].length - 3 && shareContaining(sample, lower.slice(i, i + 3)) <= COMMON_SHARE;
      if (rare && rareFrom < 0) rareFrom = i;
      if (!rare && rareFrom >= 0) {
        consider(rareFrom, i + 2);
        rareFrom = -1;
      }
    }
  }
  const lead = best as { start: number; end: number } | null;
  if (!lead || (lead.start === 0 && lead.end === term.length)) return null;
  return term.slice(lead.start, lead.end);
}

/** A product search: the term, and the rare piece that leads each column's condition (null: the term alone). */
export interface ProductSearch {
  term: string;
  skuLead: string | null;
  nameLead: string | null;
}

/** The product search of `search` (trimmed); null when there is nothing to search for. */
export async function productSearch(ctx: DbContext, search: string | null | undefined): Promise<ProductSearch | null> {
  const term = search?.trim();
  if (!term) return null;
  // A term without a word of four characters has no piece of two trigrams: no statistics to read.
  if (!/[A-Za-z0-9]{4}/.test(term)) return { term, skuLead: null, nameLead: null };
  const sample = await productSamples(ctx);
  return { term, skuLead: rarePiece(term, sample.get('sku')), nameLead: rarePiece(term, sample.get('name')) };
}

type TextField = 'sku' | 'name';

/** `field` contains the term, led by its rare piece: the lead first, where the GIN scan starts. */
function fieldContains(field: TextField, term: string, lead: string | null): Prisma.ProductMasterWhereInput {
  const contains = (text: string): Prisma.ProductMasterWhereInput => {
    const filter: Prisma.StringFilter<'ProductMaster'> = { contains: escapeLike(text), mode: 'insensitive' };
    return field === 'sku' ? { sku: filter } : { name: filter };
  };
  return lead ? { AND: [contains(lead), contains(term)] } : contains(term);
}

/** The products whose SKU or name contains the search's term, as a Prisma filter. */
export const productSearchWhere = (s: ProductSearch): Prisma.ProductMasterWhereInput => ({
  OR: [fieldContains('sku', s.term, s.skuLead), fieldContains('name', s.term, s.nameLead)],
});

/** The same condition in SQL on the product_masters row named `alias` (a name from the code, never input). */
export function productSearchSql(s: ProductSearch, alias: string): Prisma.Sql {
  const field = (column: TextField, lead: string | null) => {
    const ref = Prisma.raw(`${alias}.${column}`);
    return lead
      ? Prisma.sql`(${ref} ILIKE ${containsPattern(lead)} AND ${ref} ILIKE ${containsPattern(s.term)})`
      : Prisma.sql`${ref} ILIKE ${containsPattern(s.term)}`;
  };
  return Prisma.sql`(${field('sku', s.skuLead)} OR ${field('name', s.nameLead)})`;
}
