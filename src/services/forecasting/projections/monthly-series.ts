const DAY_MS = 24 * 60 * 60 * 1000;

/** yyyy-mm of a calendar month `after` months after the given one. */
export function monthAfter(month: string, after: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, index - 1 + after, 1));
  return date.toISOString().slice(0, 7);
}

export const daysInMonth = (month: string) => {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index, 0)).getUTCDate();
};

export interface MonthlyBuckets {
  /** yyyy-mm from the first month the history touches to the last, every month. */
  months: string[];
  /** Units per month (a partly covered month scaled to the whole month). */
  values: number[];
  /** Days of each month the weekly history covers. */
  coveredDays: number[];
}

/**
 * Weekly history to calendar months: each week's units are spread evenly over its seven days and each
 * day counts in its own month, so a week across a month end is split by days. A month the history
 * covers only in part (the first and the last) is scaled to the whole month (units × days in month ÷
 * days covered), so it is comparable with the others.
 */
export function toCalendarMonths(weekStarts: string[], values: number[]): MonthlyBuckets {
  const units = new Map<string, number>();
  const covered = new Map<string, number>();
  weekStarts.forEach((weekStart, i) => {
    const start = Date.parse(`${weekStart}T00:00:00Z`);
    for (let d = 0; d < 7; d++) {
      const month = new Date(start + d * DAY_MS).toISOString().slice(0, 7);
      units.set(month, (units.get(month) ?? 0) + values[i]! / 7);
      covered.set(month, (covered.get(month) ?? 0) + 1);
    }
  });
  const touched = [...units.keys()].sort();
  if (!touched.length) return { months: [], values: [], coveredDays: [] };
  const months: string[] = [];
  for (let m = touched[0]!; m <= touched.at(-1)!; m = monthAfter(m, 1)) months.push(m);
  return {
    months,
    values: months.map((m) => ((units.get(m) ?? 0) * daysInMonth(m)) / (covered.get(m) ?? daysInMonth(m))),
    coveredDays: months.map((m) => covered.get(m) ?? 0),
  };
}
