import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WCAG_AA_TEXT_CONTRAST, type Branding, type BrandingCommand } from '@claims/contracts';
import {
  brandingContrast,
  brandingDecider,
  brandingHistory,
  contrastFailures,
  contrastRatio,
  normalizeHex,
} from '../src/index.js';
import { given, refused } from './support/givenWhenThen.js';

const storeId = 'a0cea1ca-8017-4455-8392-fa5be97b8803';
const NOW = '2026-11-23T09:00:00.000Z';
const acme: Branding = {
  brand700: '#1F4E79',
  brand800: '#173B5C',
  brand900: '#0F2740',
  brand100: '#E6EEF6',
  backgroundColor: '#FFFFFF',
  buttonStyle: 'ROUNDED',
};
const change = (branding: Branding): BrandingCommand => ({
  type: 'ChangeBranding',
  storeId,
  branding,
  baseline: acme,
  now: NOW,
});

const hexColor = fc
  .tuple(fc.nat(255), fc.nat(255), fc.nat(255))
  .map((rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`);

describe('WCAG contrast ratio', () => {
  it('matches the WCAG reference points', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBeCloseTo(1, 5);
    // #767676 on white is the well-known lightest grey that passes AA (4.54:1); #777777 fails (4.48:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(WCAG_AA_TEXT_CONTRAST);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(WCAG_AA_TEXT_CONTRAST);
  });

  it('is symmetric, between 1 and 21, and 1 only for colours of the same luminance', () => {
    fc.assert(
      fc.property(hexColor, hexColor, (a, b) => {
        const ratio = contrastRatio(a, b);
        expect(ratio).toBeCloseTo(contrastRatio(b, a), 10);
        expect(ratio).toBeGreaterThanOrEqual(1);
        expect(ratio).toBeLessThanOrEqual(21);
        expect(contrastRatio(a, a)).toBeCloseTo(1, 10);
      }),
    );
  });

  it('darkening the text on white never lowers the ratio', () => {
    fc.assert(
      fc.property(fc.nat(254), (level) => {
        const grey = (n: number) => `#${n.toString(16).padStart(2, '0').repeat(3)}`;
        expect(contrastRatio(grey(level), '#ffffff')).toBeGreaterThanOrEqual(contrastRatio(grey(level + 1), '#ffffff'));
      }),
    );
  });

  it('reads three-digit colours as their six-digit form', () => {
    expect(normalizeHex('#AbC')).toBe('#aabbcc');
    expect(normalizeHex('red')).toBeNull();
  });

  it('checks every pair the portal puts text on, with the defaults for colours a store leaves unset', () => {
    expect(brandingContrast(acme).every((check) => check.passes)).toBe(true);
    const checks = brandingContrast({ brand700: '#9ecbff' });
    expect(checks.find((c) => c.id === 'button')).toMatchObject({
      foreground: '#ffffff',
      background: '#9ecbff',
      passes: false,
    });
    expect(checks.find((c) => c.id === 'body-page')).toMatchObject({ background: '#ffffff', passes: true });
  });
});

describe('the branding stream', () => {
  it('records a change with the previous branding, and nothing when unchanged', () => {
    const next = { ...acme, brand700: '#0B3D91', buttonStyle: 'SQUARE' as const };
    const changed = given(brandingDecider)
      .when(change(next))
      .then([{ type: 'StoreBrandingChanged', data: { storeId, branding: next, previous: acme, changedAt: NOW } }]);
    expect(given(brandingDecider, changed).state?.branding).toEqual(next);
    given(brandingDecider, changed).when(change(next)).then([]);
    const history = brandingHistory([
      { version: 1, event: changed[0]!, actor: { type: 'user', id: 'u1', name: 'Alex' } },
    ]);
    expect(history[0]?.summary).toBe('brand700 #1F4E79 → #0B3D91, buttonStyle ROUNDED → SQUARE');
  });

  it('refuses any branding whose text pairs fall below AA, naming the pair, and records nothing', () => {
    fc.assert(
      fc.property(hexColor, (brand700) => {
        const failing = contrastFailures({ ...acme, brand700 });
        const decision = given(brandingDecider).when(change({ ...acme, brand700 }));
        if (failing.length === 0) decision.thenMatches([{ type: 'StoreBrandingChanged' }]);
        else decision.then(refused('insufficient_contrast', new RegExp(failing.map(escaped).join('.*'), 's')));
      }),
    );
    given(brandingDecider)
      .when(change({ ...acme, brand700: '#F0F0F0' }))
      .then(refused('insufficient_contrast', 'Button text on the primary colour: #ffffff on #f0f0f0 is 1.13:1'));
  });

  it('refuses a malformed field with its name', () => {
    given(brandingDecider)
      .when(change({ ...acme, logoUrl: 'javascript:alert(1)' }))
      .then(refused('validation_failed', 'logoUrl'));
  });

  it('keeps the domain and counts restarts', () => {
    const set = given(brandingDecider)
      .when({ type: 'SetPortalDomain', storeId, domain: 'claims.acme.example', baseline: 'claims.acme.test', now: NOW })
      .thenMatches([{ type: 'StorePortalDomainSet' }]);
    expect(given(brandingDecider, set).state).toMatchObject({
      domain: 'claims.acme.example',
      branding: null,
      revision: 0,
      version: 1,
    });
    const restarted = given(brandingDecider, set)
      .when({ type: 'RestartWhitelabel', storeId, domain: 'claims.acme.example', now: NOW })
      .thenMatches([{}]);
    expect(given(brandingDecider, [...set, ...restarted]).state).toMatchObject({
      revision: 1,
      version: 2,
      domain: 'claims.acme.example',
    });
  });
});

/** A failure's text as a pattern that matches it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
