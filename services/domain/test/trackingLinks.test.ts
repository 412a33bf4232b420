import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CARRIER_TRACKING_URLS, carrierKey, trackingLinksOf } from '../src/index.js';

const shipment = (trackingCompany: string | null, trackingNumbers: string[], trackingUrls: string[] = []) => ({
  trackingCompany,
  trackingNumbers,
  trackingUrls,
});

describe('tracking links (docs/product.md#tracking-links)', () => {
  it("uses the URL the store supplied, else the carrier's page, else none", () => {
    expect(
      trackingLinksOf(
        shipment('FedEx', ['612999AA10NEW'], ['https://www.fedex.com/fedextrack/?trknbr=612999AA10NEW&x=1']),
      ),
    ).toEqual([{ number: '612999AA10NEW', url: 'https://www.fedex.com/fedextrack/?trknbr=612999AA10NEW&x=1' }]);
    expect(trackingLinksOf(shipment('UPS', ['1Z999AA10123456784']))).toEqual([
      { number: '1Z999AA10123456784', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' },
    ]);
    expect(trackingLinksOf(shipment(' canada-post ', ['7023 2103']))[0]?.url).toBe(
      'https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=7023%202103',
    );
    expect(trackingLinksOf(shipment('Speedy Parcels Ltd', ['SP-1']))).toEqual([{ number: 'SP-1', url: null }]);
    expect(trackingLinksOf(shipment(null, ['SP-1']))).toEqual([{ number: 'SP-1', url: null }]);
    expect(trackingLinksOf(shipment(null, [], ['https://track.example/abc']))).toEqual([
      { number: null, url: 'https://track.example/abc' },
    ]);
  });

  it('never links anything but a web address, whatever the order says (property)', () => {
    const anyUrl = fc.oneof(
      fc.webUrl(),
      fc.constantFrom('javascript:alert(1)', 'data:text/html,<b>x</b>', 'JAVASCRIPT:alert(1)', ' ', 'not a url'),
      fc.string(),
    );
    const carrier = fc.option(
      fc.oneof(fc.constantFrom(...Object.values(CARRIER_TRACKING_URLS).map((c) => c.name)), fc.string()),
    );
    fc.assert(
      fc.property(
        carrier,
        fc.array(fc.string(), { maxLength: 3 }),
        fc.array(anyUrl, { maxLength: 3 }),
        (company, numbers, urls) => {
          for (const link of trackingLinksOf(shipment(company, numbers, urls))) {
            expect(link.number !== null || link.url !== null).toBe(true);
            if (link.url !== null) expect(new URL(link.url).protocol).toMatch(/^https?:$/);
          }
        },
      ),
    );
  });

  it('keys every carrier of the table by its own name', () => {
    for (const [key, carrier] of Object.entries(CARRIER_TRACKING_URLS)) {
      expect(carrierKey(carrier.name)).toBe(key);
      expect(carrier.template).toContain('{number}');
    }
  });
});
