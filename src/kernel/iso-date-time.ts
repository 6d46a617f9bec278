const TWO = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/**
 * `date.toISOString()`, written from the date's UTC fields: about a quarter of its cost (160 against 590 ns), which a
 * page pays for every timestamp it carries (100 on a page of 50 products). Years outside 1000–9999 (six-digit and
 * signed forms) and invalid dates (RangeError) are toISOString's own.
 */
export function isoDateTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${TWO[date.getUTCMonth() + 1]}-${TWO[date.getUTCDate()]}T${TWO[date.getUTCHours()]}:${TWO[date.getUTCMinutes()]}:${TWO[date.getUTCSeconds()]}.${THREE[date.getUTCMilliseconds()]}Z`;
}
