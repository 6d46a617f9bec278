type NumberedPage = { data: unknown[]; total: number; page: number; limit: number; totalPages: number };

/**
 * A forecasting page as windowConnection takes it: its items and total, and the page-level fields (a
 * forecast's horizon and levels, a run's status) that stay on the connection; page numbers are dropped.
 */
export function windowAnswer<Page extends NumberedPage>(answer: Page): { items: Page['data'] } & Omit<Page, 'data' | 'page' | 'limit' | 'totalPages'> {
  const { data, page: _page, limit: _limit, totalPages: _totalPages, ...fields } = answer;
  return { items: data, ...fields };
}

/** Items a connection over stored records answers without `first` or `last`: the Prisma plugin's default page. */
export const DEFAULT_PAGE_SIZE = 20;
