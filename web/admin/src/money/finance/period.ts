import { z } from 'zod';

const DAY_MS = 86_400_000;
const Day = z.iso.date();

/** A period of whole UTC days in the URL (both ends included); missing days fall back to the last 30. */
export const PeriodSearch = z.object({
  from: Day.optional().catch(undefined),
  to: Day.optional().catch(undefined),
});
export type PeriodSearch = z.infer<typeof PeriodSearch>;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The days a search names (or the last 30 through today) and the instants the finance API takes for them. */
export function daysOf(
  search: PeriodSearch,
  now = Date.now(),
): { fromDay: string; toDay: string; from: string; to: string } {
  const toDay = search.to ?? dayOf(now);
  const fromDay = search.from ?? dayOf(Date.parse(`${toDay}T00:00:00.000Z`) - 29 * DAY_MS);
  return { fromDay, toDay, from: `${fromDay}T00:00:00.000Z`, to: `${toDay}T23:59:59.999Z` };
}

/** What is wrong with a range typed in, or null. */
export function periodProblem(fromDay: string, toDay: string): string | null {
  if (!fromDay || !toDay) return 'Choose both days of the period.';
  if (fromDay > toDay) return 'The first day must be on or before the last day.';
  return null;
}

export const MONTH_CHOICES = ['6', '12', '24'] as const;
export const MonthChoice = z.enum(MONTH_CHOICES);

/** The charts page's URL: a store (or every store) and how many months through the current one. */
export const FinanceChartsSearch = z.object({
  store: z.uuid().optional().catch(undefined),
  months: MonthChoice.optional().catch(undefined),
});
export type FinanceChartsSearch = z.infer<typeof FinanceChartsSearch>;
