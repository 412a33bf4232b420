import { beforeAll, describe, expect, it } from 'vitest';
import {
  PROVINCE_COUNTRIES,
  addressLabels,
  findProvince,
  listCountries,
  loadProvinces,
  provinceOption,
  provinceOptions,
  type ProvinceTable,
} from '../src/countries.js';

const PRINTABLE_WITH_LETTER = /^[\x20-\x7E]*[A-Za-z][\x20-\x7E]*$/;

describe('country reference data (docs/product.md#addresses-and-provinces)', () => {
  let table: ProvinceTable;
  beforeAll(async () => {
    table = await loadProvinces();
  });

  it('labels a province by its name when printable ASCII with a letter, else its first alias, else its name', () => {
    expect(provinceOption({ name: 'Texas', code: 'TX' })).toEqual({ label: 'Texas', value: 'TX' });
    expect(provinceOption({ name: '東京都', code: 'JP-13', aliases: ['Tokyo'] })).toEqual({
      label: 'Tokyo',
      value: 'JP-13',
    });
    expect(provinceOption({ name: 'Baden-Württemberg', code: 'BW', aliases: ['Baden-Wuerttemberg'] }).label).toBe(
      'Baden-Wuerttemberg',
    );
    expect(provinceOption({ name: '東京都' })).toEqual({ label: '東京都', value: '東京都' });
    expect(provinceOption({ name: '123', aliases: ['Numbers'] }).label).toBe('Numbers');
    expect(provinceOption({ name: 'Somewhere' })).toEqual({ label: 'Somewhere', value: 'Somewhere' });
  });

  it('has a province list for exactly the 31 countries (docs/product.md#addresses-and-provinces)', () => {
    expect(PROVINCE_COUNTRIES).toHaveLength(31);
    expect(new Set(PROVINCE_COUNTRIES).size).toBe(31);
    expect(Object.keys(table).sort()).toEqual([...PROVINCE_COUNTRIES].sort());
    for (const country of PROVINCE_COUNTRIES) expect(table[country]?.length, country).toBeGreaterThan(0);
    expect(provinceOptions(table, 'FR')).toEqual([]);
  });

  it('keeps the first-level subdivision counts', () => {
    const counts = Object.fromEntries(Object.entries(table).map(([country, list]) => [country, list.length]));
    expect(counts).toMatchObject({
      US: 62, // 50 states, DC, 8 territories and associated states, 3 armed-forces codes
      CA: 13,
      DE: 16,
      JP: 47,
      GB: 4,
      AU: 8,
      AR: 24,
      AT: 9,
      BR: 27,
      CL: 16,
      CN: 31,
      ES: 19,
      IN: 36,
      IT: 20,
      MX: 32,
      NG: 37,
      NL: 12,
      TR: 81,
      VN: 63,
    });
  });

  it('has unique codes, names and option values per country, every option with a printable label', () => {
    for (const [country, list] of Object.entries(table)) {
      const codes = list.flatMap((p) => (p.code ? [p.code] : []));
      expect(new Set(codes).size, `${country} codes`).toBe(codes.length);
      expect(new Set(list.map((p) => p.name)).size, `${country} names`).toBe(list.length);
      const options = provinceOptions(table, country);
      expect(new Set(options.map((o) => o.value)).size, `${country} values`).toBe(list.length);
      for (const [i, province] of list.entries()) {
        const option = options[i]!;
        expect(province.name.trim(), `${country} name`).toBe(province.name);
        expect(province.name.length).toBeGreaterThan(0);
        // The label is the name when printable ASCII with a letter, else the first alias, else the name (docs/product.md#addresses-and-provinces).
        const expected = PRINTABLE_WITH_LETTER.test(province.name)
          ? province.name
          : (province.aliases?.[0] ?? province.name);
        expect(option.label, `${country} ${province.name}`).toBe(expected);
        // Every list here gives each province a readable label.
        expect(option.label, `${country} ${province.name}`).toMatch(PRINTABLE_WITH_LETTER);
        // The value is the short code if present, else the name.
        expect(option.value).toBe(province.code ?? province.name);
        if (province.code) expect(province.code, `${country} ${province.name}`).toMatch(/^[A-Z0-9-]{1,6}$/);
        for (const alias of province.aliases ?? []) expect(alias.trim().length).toBeGreaterThan(0);
      }
    }
  });

  it('shows native-script names by their romanised alias', () => {
    expect(provinceOptions(table, 'JP').find((o) => o.value === 'JP-13')?.label).toBe('Tokyo');
    expect(provinceOptions(table, 'CN').find((o) => o.value === 'BJ')).toEqual({ label: 'Beijing', value: 'BJ' });
    expect(provinceOptions(table, 'VN').find((o) => o.value === 'HN')?.label).toBe('Hanoi');
    expect(provinceOptions(table, 'TR').find((o) => o.value === '34')?.label).toBe('Istanbul');
    expect(provinceOptions(table, 'BR').find((o) => o.value === 'SP')?.label).toBe('Sao Paulo');
    expect(provinceOptions(table, 'US').find((o) => o.value === 'TX')?.label).toBe('Texas');
  });

  it('finds a province by code, name or alias', () => {
    expect(findProvince(table, 'JP', '東京都')?.code).toBe('JP-13');
    expect(findProvince(table, 'JP', 'tokyo')?.code).toBe('JP-13');
    expect(findProvince(table, 'DE', 'BE')?.name).toBe('Berlin');
    expect(findProvince(table, 'MX', 'Nuevo Leon')?.code).toBe('NLE');
    expect(findProvince(table, 'CN', '上海市')?.code).toBe('SH');
    expect(findProvince(table, 'US', undefined)).toBeUndefined();
    expect(findProvince(table, 'FR', 'Paris')).toBeUndefined();
  });

  it('loads the lists once', async () => {
    expect(await loadProvinces()).toBe(table);
  });

  it('lists about 250 countries by English name, and names the address fields per country', () => {
    const countries = listCountries();
    expect(countries.length).toBeGreaterThan(240);
    expect(countries.find((c) => c.code === 'DE')?.name).toBe('Germany');
    for (const code of PROVINCE_COUNTRIES)
      expect(
        countries.some((c) => c.code === code),
        code,
      ).toBe(true);
    expect(addressLabels('US')).toEqual({ province: 'State', zip: 'ZIP code' });
    expect(addressLabels('JP').province).toBe('Prefecture');
    expect(addressLabels('IN')).toEqual({ province: 'State', zip: 'PIN code' });
  });
});
