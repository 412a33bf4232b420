import { describe, expect, it } from 'vitest';
import { PROVINCES, addressLabels, findProvince, listCountries, provinceOption, provinceOptions } from '../src/countries.js';

describe('country reference data (spec §3, §5, §9)', () => {
  it('labels a province by its name when printable ASCII with a letter, else its first alias, else its name', () => {
    expect(provinceOption({ name: 'Texas', code: 'TX' })).toEqual({ label: 'Texas', value: 'TX' });
    expect(provinceOption({ name: '東京都', code: 'JP-13', aliases: ['Tokyo'] })).toEqual({ label: 'Tokyo', value: 'JP-13' });
    expect(provinceOption({ name: 'Baden-Württemberg', code: 'BW', aliases: ['Baden-Wuerttemberg'] }).label).toBe('Baden-Wuerttemberg');
    expect(provinceOption({ name: '東京都' })).toEqual({ label: '東京都', value: '東京都' });
    expect(provinceOption({ name: '123', aliases: ['Numbers'] }).label).toBe('Numbers');
    expect(provinceOption({ name: 'Somewhere' })).toEqual({ label: 'Somewhere', value: 'Somewhere' });
  });

  it('has the province lists of US, CA, DE, JP, GB and AU', () => {
    expect(PROVINCES.US).toHaveLength(62); // 50 states, DC, 8 territories and associated states, 3 armed-forces codes
    expect(PROVINCES.CA).toHaveLength(13);
    expect(PROVINCES.DE).toHaveLength(16);
    expect(PROVINCES.JP).toHaveLength(47);
    expect(PROVINCES.GB).toHaveLength(4);
    expect(PROVINCES.AU).toHaveLength(8);
    for (const list of Object.values(PROVINCES)) expect(new Set(list.map((p) => provinceOption(p).value)).size).toBe(list.length);
    expect(provinceOptions('JP').every((o) => /^[\x20-\x7E]+$/.test(o.label))).toBe(true);
    expect(provinceOptions('FR')).toEqual([]);
  });

  it('finds a province by code, name or alias', () => {
    expect(findProvince('JP', '東京都')?.code).toBe('JP-13');
    expect(findProvince('JP', 'tokyo')?.code).toBe('JP-13');
    expect(findProvince('DE', 'BE')?.name).toBe('Berlin');
    expect(findProvince('US', undefined)).toBeUndefined();
  });

  it('lists about 250 countries by English name, and names the address fields per country', () => {
    const countries = listCountries();
    expect(countries.length).toBeGreaterThan(240);
    expect(countries.find((c) => c.code === 'DE')?.name).toBe('Germany');
    expect(addressLabels('US')).toEqual({ province: 'State', zip: 'ZIP code' });
    expect(addressLabels('JP').province).toBe('Prefecture');
  });
});
