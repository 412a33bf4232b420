import { describe, expect, it } from 'vitest';
import { currencyDecimals } from '@claims/contracts';
import {
  formatCreditBonus,
  formatDate,
  formatDateTime,
  formatDay,
  formatDuration,
  formatLogTime,
  formatMoney,
  pluralize,
  stripHtml,
} from '../src/format.js';

describe('formatting (docs/product.md#money-on-screen)', () => {
  it('formats money to the currency decimals', () => {
    expect(formatMoney(18, 'USD')).toBe('$18.00');
    expect(formatMoney(2400, 'JPY')).toBe('¥2,400');
    expect(formatMoney(1.5, 'KWD')).toMatch(/1\.500/);
    expect(formatMoney(10.32, 'USD', { digits: 3 })).toBe('$10.320');
    expect(formatMoney(5, 'nope')).toBe('$5.00');
  });

  it('writes the usual currencies as Intl does, without building a formatter', () => {
    const amounts = [
      0,
      0.005,
      0.015,
      1,
      1.005,
      1.0049,
      1.995,
      2.675,
      9.9995,
      10.32,
      18.5,
      99.999,
      999.995,
      1000,
      1234.5678,
      999999.995,
      12345678.9,
      0.1 + 0.2,
      1e-7,
      5e20,
      2 ** 53,
      -1,
      -0,
      -0.001,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ];
    for (const currency of ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'JPY']) {
      const own = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits;
      expect(currencyDecimals(currency)).toBe(own);
      for (const digits of [0, 1, 2, 3]) {
        const intl = new Intl.NumberFormat('en-US', {
          style: 'currency',
          currency,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        });
        for (const amount of amounts)
          expect(formatMoney(amount, currency, { digits }), `${amount} ${currency} ${digits}`).toBe(
            intl.format(amount),
          );
      }
    }
  });

  it('formats dates as MMM D at h:mm A and DD/MM/YYYY', () => {
    expect(formatDateTime(new Date(2026, 2, 5, 21, 7))).toBe('Mar 5 at 9:07 PM');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 0))).toBe('Jan 1 at 12:00 AM');
    expect(formatDateTime(new Date(2026, 0, 1, 12, 30))).toBe('Jan 1 at 12:30 PM');
    expect(formatDate(new Date(2026, 2, 5))).toBe('05/03/2026');
    expect(formatDateTime('not a date')).toBe('');
  });

  it("writes a calendar day as DD/MM/YYYY whatever the viewer's time zone, an instant's date part ignored", () => {
    expect(formatDay('2026-11-17')).toBe('17/11/2026');
    expect(formatDay('2026-01-01T00:00:00.000Z')).toBe('01/01/2026');
    expect(formatDay('not a day')).toBe('not a day');
  });

  it('formats log times with seconds and durations in ms or s', () => {
    expect(formatLogTime(new Date(2026, 2, 5, 21, 7, 3))).toBe('Mar 5 at 9:07:03 PM');
    expect(formatLogTime(new Date(2026, 0, 1, 0, 0, 59))).toBe('Jan 1 at 12:00:59 AM');
    expect(formatLogTime('not a date')).toBe('');
    expect([0, 12.4, 999, 1000, 10_049, 10_050].map(formatDuration)).toEqual([
      '0 ms',
      '12 ms',
      '999 ms',
      '1.0 s',
      '10.0 s',
      '10.1 s',
    ]);
  });

  it('pluralises', () => {
    expect(pluralize(0, 'item')).toBe('No items');
    expect(pluralize(1, 'item')).toBe('1 item');
    expect(pluralize(3, 'delivery', 'deliveries')).toBe('3 deliveries');
  });

  it('shows the credit bonus as money when fixed and as percent otherwise', () => {
    expect(formatCreditBonus(10, 'percentage', 'USD')).toBe('10%');
    expect(formatCreditBonus(500, 'fixed', 'JPY', 1)).toBe('¥500');
    expect(formatCreditBonus(5, 'fixed', 'EUR', 0.9)).toBe('€4.50');
  });

  it('strips HTML', () => {
    expect(stripHtml('<b>Hi</b> &amp; bye')).toBe('Hi & bye');
  });
});

describe('back-office formatting', () => {
  it('shows item money to three decimals, none for JPY, subtotals to two, months by name', async () => {
    const { formatItemMoney, formatMonth, formatSubtotal, humanizeCode, toCsv } = await import('../src/format.js');
    expect(formatItemMoney(10.32, 'USD')).toBe('$10.320');
    expect(formatItemMoney(2400, 'JPY')).toBe('¥2,400');
    expect(formatSubtotal(18.5, 'USD')).toBe('$18.50');
    expect(formatSubtotal(2400, 'JPY')).toBe('¥2,400');
    expect(humanizeCode('NO_RESPONSE')).toBe('No response');
    expect([formatMonth('2026-03'), formatMonth('2025-12'), formatMonth('2026-13'), formatMonth('soon')]).toEqual([
      'Mar 2026',
      'Dec 2025',
      '2026-13',
      'soon',
    ]);
    expect(
      toCsv([
        ['a', 'b,c'],
        ['say "hi"', '=SUM(A1)'],
        [1, null],
      ]),
    ).toBe('a,"b,c"\r\n"say ""hi""",\'=SUM(A1)\r\n1,\r\n');
  });
});

describe('invoice formatting', () => {
  it("names an invoice's month in words, whatever the viewer's time zone", async () => {
    const { formatMonth } = await import('../src/format.js');
    expect(formatMonth('2026-06', 'long')).toBe('June 2026');
    expect(formatMonth('2027-01', 'long')).toBe('January 2027');
  });

  it('keeps each kept formatter to its own style: short and long months, long dates and counts interleaved', async () => {
    const { formatCount, formatLongDate, formatMonth } = await import('../src/format.js');
    const written = () => [
      formatMonth('2026-03'),
      formatMonth('2026-03', 'long'),
      formatLongDate(new Date(2026, 2, 5, 12)),
      formatCount(12345),
      formatLongDate('not a date'),
    ];
    expect(written()).toEqual(['Mar 2026', 'March 2026', 'March 5, 2026', '12,345', '']);
    expect(formatLongDate(new Date(2025, 11, 31, 12))).toBe('December 31, 2025');
    expect(written()).toEqual(['Mar 2026', 'March 2026', 'March 5, 2026', '12,345', '']);
  });
});
