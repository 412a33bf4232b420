/**
 * Country reference data (docs/product.md#addresses-and-provinces), the part the address form needs: ISO 3166-1 alpha-2 codes (names come
 * from `Intl.DisplayNames`, en-US), the province option rule and the province lists of docs/product.md#addresses-and-provinces (./provinces.ts,
 * loaded on demand by `loadProvinces`).
 */

export interface Province {
  name: string;
  /** Short code (`TX`, `JP-13`); the option's value when present (docs/product.md#claimable-quantity). */
  code?: string;
  aliases?: string[];
}

export interface ProvinceOption {
  label: string;
  value: string;
}

/** Printable ASCII with at least one letter. */
const PRINTABLE_ASCII = /^[\x20-\x7E]*[A-Za-z][\x20-\x7E]*$/;

/** The label is the name when it is printable ASCII with a letter, otherwise the first alias, else the name; the value is the short code if present, else the name (docs/product.md#addresses-and-provinces). */
export function provinceOption(province: Province): ProvinceOption {
  const label = PRINTABLE_ASCII.test(province.name) ? province.name : (province.aliases?.[0] ?? province.name);
  return { label, value: province.code ?? province.name };
}

const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI ' +
  'CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ ' +
  'GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS ' +
  'LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG ' +
  'PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK ' +
  'TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

export interface Country {
  code: string;
  name: string;
}

let countries: Country[] | null = null;

/** Every country, by English name. */
export function listCountries(): Country[] {
  if (!countries) {
    const names = new Intl.DisplayNames(['en-US'], { type: 'region' });
    countries = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, 'en-US'),
    );
  }
  return countries;
}

export function countryName(code: string): string {
  return listCountries().find((c) => c.code === code)?.name ?? code;
}

/** The countries with a province list (docs/product.md#addresses-and-provinces). */
export const PROVINCE_COUNTRIES: readonly string[] =
  'AR AT AU BD BE BO BR CA CL CN CU DE DK ES ET GB ID IN IT JO JP KH MX NG NL PE PH PK TR US VN'.split(' ');

/** Province lists by country code (./provinces.ts). */
export type ProvinceTable = Readonly<Record<string, readonly Province[]>>;

let provinces: Promise<ProvinceTable> | null = null;

/** The province lists, a chunk of their own fetched on first use (an address form), so pages without one skip it. */
export function loadProvinces(): Promise<ProvinceTable> {
  provinces ??= import('./provinces.js').then(
    (module) => module.PROVINCES,
    (error: unknown) => {
      provinces = null;
      throw error;
    },
  );
  return provinces;
}

/** What the address form calls a country's provinces and postal codes. */
export function addressLabels(countryCode: string): { province: string; zip: string } {
  switch (countryCode) {
    case 'US':
      return { province: 'State', zip: 'ZIP code' };
    case 'CA':
      return { province: 'Province', zip: 'Postal code' };
    case 'AU':
      return { province: 'State or territory', zip: 'Postcode' };
    case 'JP':
      return { province: 'Prefecture', zip: 'Postal code' };
    case 'DE':
      return { province: 'State', zip: 'Postal code' };
    case 'GB':
      return { province: 'Country', zip: 'Postcode' };
    case 'AT':
    case 'BR':
    case 'MX':
    case 'NG':
      return { province: 'State', zip: 'Postal code' };
    case 'IN':
      return { province: 'State', zip: 'PIN code' };
    case 'BE':
    case 'CL':
    case 'DK':
    case 'ET':
    case 'IT':
    case 'PE':
    case 'PH':
      return { province: 'Region', zip: 'Postal code' };
    case 'ES':
      return { province: 'Autonomous community', zip: 'Postal code' };
    case 'BD':
      return { province: 'Division', zip: 'Postal code' };
    case 'JO':
      return { province: 'Governorate', zip: 'Postal code' };
    case 'BO':
      return { province: 'Department', zip: 'Postal code' };
    default:
      return { province: 'Province', zip: 'Postal code' };
  }
}

/** The province options of a country (labels and values: docs/product.md#addresses-and-provinces), in list order. */
export function provinceOptions(table: ProvinceTable, countryCode: string): ProvinceOption[] {
  return (table[countryCode] ?? []).map(provinceOption);
}

/** The province of a country matching a code, name or alias (an order's address may carry any of them). */
export function findProvince(
  table: ProvinceTable,
  countryCode: string,
  value: string | undefined,
): Province | undefined {
  if (!value) return undefined;
  const wanted = value.trim().toLowerCase();
  return (table[countryCode] ?? []).find(
    (p) =>
      p.code?.toLowerCase() === wanted ||
      p.name.toLowerCase() === wanted ||
      (p.aliases ?? []).some((a) => a.toLowerCase() === wanted),
  );
}
