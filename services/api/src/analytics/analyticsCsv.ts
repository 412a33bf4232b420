import type { AnalyticsFigures, AnalyticsResponse } from '@claims/contracts';

type Cell = string | number | null;

/** RFC 4180 quoting, and a leading quote on what a spreadsheet would run as a formula. */
function cell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Every figure of one period as `section, key, currency, value` rows. */
function rowsOf(figures: AnalyticsFigures): Cell[][] {
  return [
    ['claims', 'filed', null, figures.claimsFiled],
    ['claims', 'on protected orders', null, figures.protectedClaims],
    ['claims', 'protected orders', null, figures.protectedOrders],
    ['claims', 'claim rate', null, figures.claimRate],
    ['decisions', 'decided', null, figures.decided],
    ['decisions', 'approved', null, figures.approved],
    ['decisions', 'denied', null, figures.denied],
    ['decisions', 'approval rate', null, figures.approvalRate],
    ['decisions', 'denial rate', null, figures.denialRate],
    ['first response', 'claims responded to', null, figures.firstResponse.count],
    ['first response', 'median seconds', null, figures.firstResponse.medianSeconds],
    ['first response', 'p90 seconds', null, figures.firstResponse.p90Seconds],
    ['resolution', 'claims decided', null, figures.resolution.count],
    ['resolution', 'median seconds', null, figures.resolution.medianSeconds],
    ['resolution', 'p90 seconds', null, figures.resolution.p90Seconds],
    ...figures.reimbursed.map((r): Cell[] => ['reimbursed', r.resolutionType, r.currency, r.amount]),
    ...figures.storeCreditIssued.map((r): Cell[] => ['store credit issued', 'total', r.currency, r.amount]),
    ['reviews', 'count', null, figures.reviews.count],
    ['reviews', 'average rating', null, figures.reviews.averageRating],
    ...figures.reviews.ratings.map((r): Cell[] => ['reviews', `rating ${r.rating}`, null, r.count]),
    ...figures.topDenialReasons.map((r): Cell[] => ['denial reasons', r.reason ?? 'none given', null, r.count]),
    ...figures.filedByDay.map((r): Cell[] => ['filed by day', `${r.date} ${r.claimType}`, null, r.count]),
    ...figures.byCarrier.map((r): Cell[] => ['by carrier', r.carrier ?? 'unknown', null, r.count]),
    ...figures.byShipmentStatus.map((r): Cell[] => ['by shipment status', r.status ?? 'unknown', null, r.count]),
  ];
}

/** The export: one row per figure and period (the previous period's rows follow when compared). */
export function analyticsCsv(analytics: AnalyticsResponse): string {
  const periods = [
    { name: 'current', ...analytics },
    ...(analytics.previous ? [{ name: 'previous', ...analytics.previous }] : []),
  ];
  const lines: Cell[][] = [['period', 'from', 'to', 'section', 'figure', 'currency', 'value']];
  for (const p of periods) {
    for (const row of rowsOf(p.figures)) lines.push([p.name, p.period.from, p.period.to, ...row]);
  }
  return `${lines.map((line) => line.map(cell).join(',')).join('\r\n')}\r\n`;
}
