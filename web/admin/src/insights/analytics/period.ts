import { z } from 'zod';
import type { AnalyticsPeriod } from '@claims/contracts';

const DAY_MS = 86_400_000;
export const PRESETS = ['7', '30', '90'] as const;
const Day = z.iso.date();

/** The page's URL: a preset of days or a custom range of whole UTC days (both ends included), and a store. */
export const AnalyticsSearch = z.object({
  range: z
    .enum([...PRESETS, 'custom'])
    .optional()
    .catch(undefined),
  from: Day.optional().catch(undefined),
  to: Day.optional().catch(undefined),
  store: z.uuid().optional().catch(undefined),
});
export type AnalyticsSearch = z.infer<typeof AnalyticsSearch>;

const startOfUtcDay = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
const iso = (ms: number) => new Date(ms).toISOString();
export const dayOf = (isoTime: string) => isoTime.slice(0, 10);

/**
 * The period the search asks for: the last N whole days through today, or the custom days. A custom
 * range that is missing or backwards falls back to the default preset (the form refuses those first).
 */
export function periodOf(search: AnalyticsSearch, now = Date.now()): AnalyticsPeriod {
  if (search.range === 'custom' && search.from && search.to && search.from <= search.to) {
    return { from: `${search.from}T00:00:00.000Z`, to: iso(Date.parse(`${search.to}T00:00:00.000Z`) + DAY_MS) };
  }
  const days = Number(search.range && search.range !== 'custom' ? search.range : '30');
  const end = startOfUtcDay(now) + DAY_MS;
  return { from: iso(end - days * DAY_MS), to: iso(end) };
}

/** Every UTC day of the period, so a chart shows the days without claims as zero. */
export function daysOf(period: AnalyticsPeriod): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(period.from); ms < Date.parse(period.to); ms += DAY_MS) days.push(dayOf(iso(ms)));
  return days;
}
