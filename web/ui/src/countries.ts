/**
 * Spec §3 country reference data, the part the address form needs: ISO 3166-1 alpha-2 codes (names come
 * from `Intl.DisplayNames`, en-US) and the province lists of spec §9 for the countries that have them here.
 */

export interface Province {
  name: string;
  /** Short code (`TX`, `JP-13`); the option's value when present (spec §5). */
  code?: string;
  aliases?: string[];
}

export interface ProvinceOption {
  label: string;
  value: string;
}

/** Printable ASCII with at least one letter. */
const PRINTABLE_ASCII = /^[\x20-\x7E]*[A-Za-z][\x20-\x7E]*$/;

/** Spec §5: the label is the name when it is printable ASCII with a letter, otherwise the first alias, else the name; the value is the short code if present, else the name. */
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
    countries = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, 'en-US'));
  }
  return countries;
}

export function countryName(code: string): string {
  return listCountries().find((c) => c.code === code)?.name ?? code;
}

const list = (text: string): Province[] =>
  text.split(';').map((entry) => {
    const [code, name, ...aliases] = entry.split('|');
    return { code: code || undefined, name: name ?? '', ...(aliases.length ? { aliases } : {}) } as Province;
  });

/** Province lists (spec §9 has 31 countries; these are the ones the portal ships today). */
export const PROVINCES: Readonly<Record<string, readonly Province[]>> = {
  US: list(
    'AL|Alabama;AK|Alaska;AS|American Samoa;AZ|Arizona;AR|Arkansas;CA|California;CO|Colorado;CT|Connecticut;DE|Delaware;' +
    'DC|District of Columbia;FL|Florida;GA|Georgia;GU|Guam;HI|Hawaii;ID|Idaho;IL|Illinois;IN|Indiana;IA|Iowa;KS|Kansas;' +
    'KY|Kentucky;LA|Louisiana;ME|Maine;MH|Marshall Islands;MD|Maryland;MA|Massachusetts;MI|Michigan;FM|Micronesia;MN|Minnesota;' +
    'MS|Mississippi;MO|Missouri;MT|Montana;NE|Nebraska;NV|Nevada;NH|New Hampshire;NJ|New Jersey;NM|New Mexico;NY|New York;' +
    'NC|North Carolina;ND|North Dakota;MP|Northern Mariana Islands;OH|Ohio;OK|Oklahoma;OR|Oregon;PW|Palau;PA|Pennsylvania;' +
    'PR|Puerto Rico;RI|Rhode Island;SC|South Carolina;SD|South Dakota;TN|Tennessee;TX|Texas;UT|Utah;VT|Vermont;' +
    'VI|U.S. Virgin Islands;VA|Virginia;WA|Washington;WV|West Virginia;WI|Wisconsin;WY|Wyoming;' +
    'AA|Armed Forces Americas;AE|Armed Forces Europe;AP|Armed Forces Pacific',
  ),
  CA: list(
    'AB|Alberta;BC|British Columbia;MB|Manitoba;NB|New Brunswick;NL|Newfoundland and Labrador;NT|Northwest Territories;' +
    'NS|Nova Scotia;NU|Nunavut;ON|Ontario;PE|Prince Edward Island;QC|Québec|Quebec;SK|Saskatchewan;YT|Yukon',
  ),
  DE: list(
    'BW|Baden-Württemberg|Baden-Wuerttemberg;BY|Bayern|Bavaria;BE|Berlin;BB|Brandenburg;HB|Bremen;HH|Hamburg;HE|Hessen|Hesse;' +
    'MV|Mecklenburg-Vorpommern;NI|Niedersachsen|Lower Saxony;NW|Nordrhein-Westfalen|North Rhine-Westphalia;' +
    'RP|Rheinland-Pfalz|Rhineland-Palatinate;SL|Saarland;SN|Sachsen|Saxony;ST|Sachsen-Anhalt|Saxony-Anhalt;' +
    'SH|Schleswig-Holstein;TH|Thüringen|Thuringia',
  ),
  JP: list(
    'JP-01|北海道|Hokkaido;JP-02|青森県|Aomori;JP-03|岩手県|Iwate;JP-04|宮城県|Miyagi;JP-05|秋田県|Akita;JP-06|山形県|Yamagata;' +
    'JP-07|福島県|Fukushima;JP-08|茨城県|Ibaraki;JP-09|栃木県|Tochigi;JP-10|群馬県|Gunma;JP-11|埼玉県|Saitama;JP-12|千葉県|Chiba;' +
    'JP-13|東京都|Tokyo;JP-14|神奈川県|Kanagawa;JP-15|新潟県|Niigata;JP-16|富山県|Toyama;JP-17|石川県|Ishikawa;JP-18|福井県|Fukui;' +
    'JP-19|山梨県|Yamanashi;JP-20|長野県|Nagano;JP-21|岐阜県|Gifu;JP-22|静岡県|Shizuoka;JP-23|愛知県|Aichi;JP-24|三重県|Mie;' +
    'JP-25|滋賀県|Shiga;JP-26|京都府|Kyoto;JP-27|大阪府|Osaka;JP-28|兵庫県|Hyogo;JP-29|奈良県|Nara;JP-30|和歌山県|Wakayama;' +
    'JP-31|鳥取県|Tottori;JP-32|島根県|Shimane;JP-33|岡山県|Okayama;JP-34|広島県|Hiroshima;JP-35|山口県|Yamaguchi;' +
    'JP-36|徳島県|Tokushima;JP-37|香川県|Kagawa;JP-38|愛媛県|Ehime;JP-39|高知県|Kochi;JP-40|福岡県|Fukuoka;JP-41|佐賀県|Saga;' +
    'JP-42|長崎県|Nagasaki;JP-43|熊本県|Kumamoto;JP-44|大分県|Oita;JP-45|宮崎県|Miyazaki;JP-46|鹿児島県|Kagoshima;JP-47|沖縄県|Okinawa',
  ),
  GB: list('ENG|England;NIR|Northern Ireland;SCT|Scotland;WLS|Wales'),
  AU: list(
    'ACT|Australian Capital Territory;NSW|New South Wales;NT|Northern Territory;QLD|Queensland;SA|South Australia;' +
    'TAS|Tasmania;VIC|Victoria;WA|Western Australia',
  ),
};

/** What the address form calls a country's provinces and postal codes. */
export function addressLabels(countryCode: string): { province: string; zip: string } {
  switch (countryCode) {
    case 'US': return { province: 'State', zip: 'ZIP code' };
    case 'CA': return { province: 'Province', zip: 'Postal code' };
    case 'AU': return { province: 'State or territory', zip: 'Postcode' };
    case 'JP': return { province: 'Prefecture', zip: 'Postal code' };
    case 'DE': return { province: 'State', zip: 'Postal code' };
    case 'GB': return { province: 'Country', zip: 'Postcode' };
    default: return { province: 'Province', zip: 'Postal code' };
  }
}

/** The province options of a country (spec §5 labels and values), in list order. */
export function provinceOptions(countryCode: string): ProvinceOption[] {
  return (PROVINCES[countryCode] ?? []).map(provinceOption);
}

/** The province of a country matching a code, name or alias (an order's address may carry any of them). */
export function findProvince(countryCode: string, value: string | undefined): Province | undefined {
  if (!value) return undefined;
  const wanted = value.trim().toLowerCase();
  return (PROVINCES[countryCode] ?? []).find((p) =>
    p.code?.toLowerCase() === wanted || p.name.toLowerCase() === wanted || (p.aliases ?? []).some((a) => a.toLowerCase() === wanted));
}
