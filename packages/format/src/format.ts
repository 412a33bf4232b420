import { currencyDecimals, stripHtml } from '@claims/contracts';

/**
 * The one formatting module (docs/product.md#money-on-screen, docs/product.md#dates) for the portal and the back-office: money, dates,
 * plural text and HTML stripping. Locale is en-US only.
 */
export const LOCALE = 'en-US';

export { stripHtml };

export interface MoneyOptions {
  /** Fixed digits instead of the currency's own (docs/product.md#money-on-screen; item prices and tax 3, subtotals 2). */
  digits?: number;
}

/** A decimal amount with its currency symbol, to the currency's own decimals (JPY 0, USD 2, KWD 3). */
export function formatMoney(amount: number, currency = 'USD', options: MoneyOptions = {}): string {
  const code = /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  const digits = options.digits ?? currencyDecimals(code);
  return plainMoney(amount, code, digits) ?? moneyFormat(code, digits).format(amount);
}

/**
 * The usual currencies' en-US symbols. Their amounts are written here, the way Intl writes them (a test holds the two
 * equal): the first Intl formatter starts ICU, tens of milliseconds of a phone's main thread while a claim page renders.
 */
const SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', CAD: 'CA$', AUD: 'A$', JPY: '¥' };

/**
 * `amount` as Intl's en-US currency format writes it, for a usual currency and an amount of zero or more; null otherwise
 * (Intl then). Rounded as Intl rounds: half away from zero, on the shortest decimal that reads back as the same number.
 */
function plainMoney(amount: number, currency: string, digits: number): string | null {
  const symbol = SYMBOLS[currency];
  const decimal = String(amount);
  if (!symbol || !(amount >= 0) || Object.is(amount, -0) || !/^\d+(\.\d+)?$/.test(decimal) || digits > 20) return null;
  const [whole = '0', fraction = ''] = decimal.split('.');
  let figures = `${whole}${fraction.padEnd(digits, '0').slice(0, digits)}`;
  if ((fraction[digits] ?? '0') >= '5') figures = (BigInt(figures) + 1n).toString().padStart(figures.length, '0');
  const units = figures.slice(0, figures.length - digits) || '0';
  const grouped = units.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${symbol}${grouped}${digits > 0 ? `.${figures.slice(figures.length - digits)}` : ''}`;
}

/** Building a currency formatter is costly on a slow phone (a claim page shows dozens of amounts): one per currency and digits. */
const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string, digits: number): Intl.NumberFormat {
  const key = `${currency}:${digits}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(key, format);
  }
  return format;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const toDate = (value: string | number | Date): Date | null => {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * Item prices and tax to three decimals (docs/product.md#money-on-screen; subtotals and other money use {@link formatMoney}).
 * A currency without minor units (JPY) keeps none: '¥2,400', never '¥2,400.000'.
 */
export function formatItemMoney(amount: number, currency = 'USD'): string {
  const code = /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  return formatMoney(amount, code, { digits: currencyDecimals(code) === 0 ? 0 : 3 });
}

/** Subtotals to two decimals (none for a currency without minor units) (docs/product.md#money-on-screen). */
export function formatSubtotal(amount: number, currency = 'USD'): string {
  const code = /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  return formatMoney(amount, code, { digits: Math.min(2, currencyDecimals(code)) });
}

/** A code without a label shown as words ('NO_RESPONSE' → 'No response'). */
export function humanizeCode(code: string): string {
  const words = code.toLowerCase().replace(/_/g, ' ').trim();
  return words ? `${words[0]!.toUpperCase()}${words.slice(1)}` : '';
}

/** A value for a CSV cell (RFC 4180 quoting; a leading =, +, - or @ is prefixed so spreadsheets do not run it). */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV text with CRLF line ends. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Display format 'MMM D at h:mm A' (e.g. 'Mar 5 at 9:07 PM'), in the viewer's time zone (docs/product.md#dates). */
export function formatDateTime(value: string | number | Date): string {
  const date = toDate(value);
  if (!date) return '';
  const hours = date.getHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()} at ${h12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** A log line's time: the date and time of docs/product.md#dates with seconds ('Mar 5 at 9:07:23 PM'), attempts being seconds apart. */
export function formatLogTime(value: string | number | Date): string {
  const date = toDate(value);
  if (!date) return '';
  const seconds = String(date.getSeconds()).padStart(2, '0');
  return formatDateTime(date).replace(/ (AM|PM)$/, `:${seconds} $1`);
}

/** How long something took: milliseconds below a second ('240 ms'), else seconds with one decimal ('10.0 s'). */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Default date format DD/MM/YYYY (docs/product.md#dates). */
export function formatDate(value: string | number | Date): string {
  const date = toDate(value);
  if (!date) return '';
  const dd = String(date.getDate()).padStart(2, '0');
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${date.getFullYear()}`;
}

/**
 * A calendar day 'YYYY-MM-DD' (a chart's day, a period's first or last day) as the default date DD/MM/YYYY
 * (docs/product.md#dates). A day, not an instant: read from its figures, so no time zone moves it to the day before.
 */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : day;
}

/**
 * An Intl formatter built on first use and kept: building one costs far more than formatting with it (each mail the
 * server sends writes a long date), and the first one starts ICU, which a page that never needs it should not pay.
 */
function kept<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const longDateFormat = kept(() => new Intl.DateTimeFormat(LOCALE, { month: 'long', day: 'numeric', year: 'numeric' }));

/** A long calendar date for sentences ('March 5, 2026'). */
export function formatLongDate(value: string | number | Date): string {
  const date = toDate(value);
  if (!date) return '';
  return longDateFormat().format(date);
}

const monthFormats = {
  short: kept(() => new Intl.DateTimeFormat(LOCALE, { month: 'short', year: 'numeric', timeZone: 'UTC' })),
  long: kept(() => new Intl.DateTimeFormat(LOCALE, { month: 'long', year: 'numeric', timeZone: 'UTC' })),
};

/** A calendar month 'YYYY-MM' as 'Mar 2026', or 'March 2026' for an invoice's period: figures of a month, not an instant, so no time zone moves it. */
export function formatMonth(month: string, style: 'short' | 'long' = 'short'): string {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) return month;
  return monthFormats[style]().format(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
}

const countFormat = kept(() => new Intl.NumberFormat(LOCALE));

/** A count of things with grouping, `12,345`. */
export function formatCount(count: number): string {
  return countFormat().format(count);
}

/** 'No {plural}' for zero, '1 {singular}' for one, '{n} {plural}' otherwise (docs/product.md#text). */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  if (count === 0) return `No ${plural}`;
  if (count === 1) return `1 ${singular}`;
  return `${count} ${plural}`;
}

/** Store-credit bonus: a currency amount (bonus × exchangeRate) when fixed, else a percent (docs/product.md#store-credit-bonus). */
export function formatCreditBonus(
  bonus: number,
  bonusType: 'fixed' | 'percentage',
  currency: string,
  exchangeRate = 1,
): string {
  if (bonusType === 'fixed') return formatMoney(bonus * exchangeRate, currency);
  return `${Number(bonus.toFixed(2))}%`;
}
