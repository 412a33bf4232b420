/**
 * Province lists (docs/product.md#addresses-and-provinces), the first-level subdivisions (ISO 3166-2) of the 31 countries that have one, loaded on
 * demand (`loadProvinces` in countries.ts) so that the data stays out of the pages that never show an address form.
 *
 * Each entry is `code|name|alias|…`: the short code (ISO 3166-2 subdivision code without the country prefix; JP keeps
 * the full `JP-13` form), the local name, then aliases (an English or ASCII spelling first where the local name is
 * not printable ASCII, so that the label rule of docs/product.md#addresses-and-provinces shows it; native-script names after).
 * Notes: ID and NL list their provinces, as addresses use them (ISO's geographical units and constituent countries
 * above them carry no postal meaning); BE, ES, IT and PH list ISO's regions (communities); CN lists the 31 mainland
 * divisions (Hong Kong, Macao and Taiwan addresses use their own country codes); VN keeps ISO's 63 provinces.
 */
import type { Province } from './countries.js';

const list = (text: string): Province[] =>
  text.split(';').map((entry) => {
    const [code, name, ...aliases] = entry.split('|');
    return { ...(code ? { code } : {}), name: name ?? '', ...(aliases.length ? { aliases } : {}) };
  });

/** Provinces by ISO 3166-1 alpha-2 country code. */
export const PROVINCES: Readonly<Record<string, readonly Province[]>> = {
  AR: list(
    'C|Ciudad Autónoma de Buenos Aires|Buenos Aires City;B|Buenos Aires;K|Catamarca;H|Chaco;U|Chubut;' +
      'X|Córdoba|Cordoba;W|Corrientes;E|Entre Ríos|Entre Rios;P|Formosa;Y|Jujuy;L|La Pampa;F|La Rioja;M|Mendoza;' +
      'N|Misiones;Q|Neuquén|Neuquen;R|Río Negro|Rio Negro;A|Salta;J|San Juan;D|San Luis;Z|Santa Cruz;S|Santa Fe;' +
      'G|Santiago del Estero;V|Tierra del Fuego;T|Tucumán|Tucuman',
  ),
  AT: list(
    '1|Burgenland;2|Kärnten|Carinthia;3|Niederösterreich|Lower Austria;4|Oberösterreich|Upper Austria;5|Salzburg;' +
      '6|Steiermark|Styria;7|Tirol|Tyrol;8|Vorarlberg;9|Wien|Vienna',
  ),
  AU: list(
    'ACT|Australian Capital Territory;NSW|New South Wales;NT|Northern Territory;QLD|Queensland;SA|South Australia;' +
      'TAS|Tasmania;VIC|Victoria;WA|Western Australia',
  ),
  BD: list(
    'A|Barishal|Barisal|বরিশাল;B|Chattogram|Chittagong|চট্টগ্রাম;C|Dhaka|ঢাকা;D|Khulna|খুলনা;H|Mymensingh|ময়মনসিংহ;' +
      'E|Rajshahi|রাজশাহী;F|Rangpur|রংপুর;G|Sylhet|সিলেট',
  ),
  BE: list(
    'BRU|Brussels-Capital Region|Région de Bruxelles-Capitale|Brussels Hoofdstedelijk Gewest;' +
      'VLG|Flanders|Vlaams Gewest|Flemish Region;WAL|Wallonia|Région wallonne|Walloon Region',
  ),
  BO: list('C|Cochabamba;H|Chuquisaca;B|El Beni|Beni;L|La Paz;O|Oruro;N|Pando;P|Potosí|Potosi;S|Santa Cruz;T|Tarija'),
  BR: list(
    'AC|Acre;AL|Alagoas;AP|Amapá|Amapa;AM|Amazonas;BA|Bahia;CE|Ceará|Ceara;DF|Distrito Federal;' +
      'ES|Espírito Santo|Espirito Santo;GO|Goiás|Goias;MA|Maranhão|Maranhao;MT|Mato Grosso;MS|Mato Grosso do Sul;' +
      'MG|Minas Gerais;PA|Pará|Para;PB|Paraíba|Paraiba;PR|Paraná|Parana;PE|Pernambuco;PI|Piauí|Piaui;' +
      'RJ|Rio de Janeiro;RN|Rio Grande do Norte;RS|Rio Grande do Sul;RO|Rondônia|Rondonia;RR|Roraima;' +
      'SC|Santa Catarina;SP|São Paulo|Sao Paulo;SE|Sergipe;TO|Tocantins',
  ),
  CA: list(
    'AB|Alberta;BC|British Columbia;MB|Manitoba;NB|New Brunswick;NL|Newfoundland and Labrador;' +
      'NT|Northwest Territories;NS|Nova Scotia;NU|Nunavut;ON|Ontario;PE|Prince Edward Island;QC|Québec|Quebec;' +
      'SK|Saskatchewan;YT|Yukon',
  ),
  CL: list(
    'AP|Arica y Parinacota;TA|Tarapacá|Tarapaca;AN|Antofagasta;AT|Atacama;CO|Coquimbo;VS|Valparaíso|Valparaiso;' +
      "RM|Región Metropolitana de Santiago|Santiago Metropolitan;LI|Libertador General Bernardo O'Higgins|O'Higgins;" +
      'ML|Maule;NB|Ñuble|Nuble;BI|Biobío|Biobio;AR|La Araucanía|La Araucania;LR|Los Ríos|Los Rios;LL|Los Lagos;' +
      'AI|Aysén del General Carlos Ibáñez del Campo|Aysen;MA|Magallanes y de la Antártica Chilena|Magallanes',
  ),
  CN: list(
    'AH|安徽省|Anhui;BJ|北京市|Beijing;CQ|重庆市|Chongqing;FJ|福建省|Fujian;GS|甘肃省|Gansu;GD|广东省|Guangdong;GX|广西壮族自治区|Guangxi;' +
      'GZ|贵州省|Guizhou;HI|海南省|Hainan;HE|河北省|Hebei;HL|黑龙江省|Heilongjiang;HA|河南省|Henan;HB|湖北省|Hubei;HN|湖南省|Hunan;' +
      'NM|内蒙古自治区|Inner Mongolia|Nei Mongol;JS|江苏省|Jiangsu;JX|江西省|Jiangxi;JL|吉林省|Jilin;LN|辽宁省|Liaoning;' +
      'NX|宁夏回族自治区|Ningxia;QH|青海省|Qinghai;SN|陕西省|Shaanxi;SD|山东省|Shandong;SH|上海市|Shanghai;SX|山西省|Shanxi;SC|四川省|Sichuan;' +
      'TJ|天津市|Tianjin;XZ|西藏自治区|Tibet|Xizang;XJ|新疆维吾尔自治区|Xinjiang;YN|云南省|Yunnan;ZJ|浙江省|Zhejiang',
  ),
  CU: list(
    '15|Artemisa;09|Camagüey|Camaguey;08|Ciego de Ávila|Ciego de Avila;06|Cienfuegos;12|Granma;' +
      '14|Guantánamo|Guantanamo;11|Holguín|Holguin;99|Isla de la Juventud;03|La Habana|Havana;10|Las Tunas;' +
      '04|Matanzas;16|Mayabeque;01|Pinar del Río|Pinar del Rio;07|Sancti Spíritus|Sancti Spiritus;13|Santiago de Cuba;' +
      '05|Villa Clara',
  ),
  DE: list(
    'BW|Baden-Württemberg|Baden-Wuerttemberg;BY|Bayern|Bavaria;BE|Berlin;BB|Brandenburg;HB|Bremen;HH|Hamburg;' +
      'HE|Hessen|Hesse;MV|Mecklenburg-Vorpommern;NI|Niedersachsen|Lower Saxony;' +
      'NW|Nordrhein-Westfalen|North Rhine-Westphalia;RP|Rheinland-Pfalz|Rhineland-Palatinate;SL|Saarland;' +
      'SN|Sachsen|Saxony;ST|Sachsen-Anhalt|Saxony-Anhalt;SH|Schleswig-Holstein;TH|Thüringen|Thuringia',
  ),
  DK: list(
    '84|Region Hovedstaden|Capital Region of Denmark;82|Region Midtjylland|Central Denmark Region;' +
      '81|Region Nordjylland|North Denmark Region;85|Region Sjælland|Region Zealand;' +
      '83|Region Syddanmark|Region of Southern Denmark',
  ),
  ES: list(
    'AN|Andalucía|Andalusia;AR|Aragón|Aragon;AS|Asturias|Principado de Asturias;IB|Illes Balears|Balearic Islands;' +
      'CN|Canarias|Canary Islands;CB|Cantabria;CL|Castilla y León|Castile and Leon;' +
      'CM|Castilla-La Mancha|Castile-La Mancha;CT|Catalunya|Catalonia|Cataluña;CE|Ceuta;EX|Extremadura;' +
      'GA|Galicia|Galiza;RI|La Rioja;MD|Madrid|Comunidad de Madrid;ML|Melilla;MC|Murcia|Región de Murcia;' +
      'NC|Navarra|Nafarroa|Navarre;PV|País Vasco|Basque Country|Euskadi;' +
      'VC|Comunitat Valenciana|Valencian Community|Comunidad Valenciana',
  ),
  ET: list(
    'AA|Addis Ababa|ኣዲስ ኣበባ;AF|Afar;AM|Amhara;BE|Benishangul-Gumuz;DD|Dire Dawa;GA|Gambela;HA|Harari;OR|Oromia;' +
      'SI|Sidama;SO|Somali;SN|Southern Nations, Nationalities and Peoples;SW|South West Ethiopia Peoples;TI|Tigray',
  ),
  GB: list('ENG|England;NIR|Northern Ireland;SCT|Scotland;WLS|Wales'),
  ID: list(
    'AC|Aceh;BA|Bali;BB|Kepulauan Bangka Belitung|Bangka Belitung Islands;BT|Banten;BE|Bengkulu;GO|Gorontalo;' +
      'JK|DKI Jakarta|Jakarta;JA|Jambi;JB|Jawa Barat|West Java;JT|Jawa Tengah|Central Java;JI|Jawa Timur|East Java;' +
      'KB|Kalimantan Barat|West Kalimantan;KS|Kalimantan Selatan|South Kalimantan;' +
      'KT|Kalimantan Tengah|Central Kalimantan;KI|Kalimantan Timur|East Kalimantan;' +
      'KU|Kalimantan Utara|North Kalimantan;KR|Kepulauan Riau|Riau Islands;LA|Lampung;MA|Maluku;' +
      'MU|Maluku Utara|North Maluku;NB|Nusa Tenggara Barat|West Nusa Tenggara;' +
      'NT|Nusa Tenggara Timur|East Nusa Tenggara;PA|Papua;PB|Papua Barat|West Papua;' +
      'PD|Papua Barat Daya|Southwest Papua;PE|Papua Pegunungan|Highland Papua;PS|Papua Selatan|South Papua;' +
      'PT|Papua Tengah|Central Papua;RI|Riau;SR|Sulawesi Barat|West Sulawesi;SN|Sulawesi Selatan|South Sulawesi;' +
      'ST|Sulawesi Tengah|Central Sulawesi;SG|Sulawesi Tenggara|Southeast Sulawesi;SA|Sulawesi Utara|North Sulawesi;' +
      'SB|Sumatera Barat|West Sumatra;SS|Sumatera Selatan|South Sumatra;SU|Sumatera Utara|North Sumatra;' +
      'YO|DI Yogyakarta|Yogyakarta',
  ),
  IN: list(
    'AN|Andaman and Nicobar Islands;AP|Andhra Pradesh;AR|Arunachal Pradesh;AS|Assam;BR|Bihar;CH|Chandigarh;' +
      'CG|Chhattisgarh;DH|Dadra and Nagar Haveli and Daman and Diu;DL|Delhi;GA|Goa;GJ|Gujarat;HR|Haryana;' +
      'HP|Himachal Pradesh;JK|Jammu and Kashmir;JH|Jharkhand;KA|Karnataka;KL|Kerala;LA|Ladakh;LD|Lakshadweep;' +
      'MP|Madhya Pradesh;MH|Maharashtra;MN|Manipur;ML|Meghalaya;MZ|Mizoram;NL|Nagaland;OD|Odisha|Orissa;' +
      'PY|Puducherry|Pondicherry;PB|Punjab;RJ|Rajasthan;SK|Sikkim;TN|Tamil Nadu;TS|Telangana;TR|Tripura;' +
      'UP|Uttar Pradesh;UK|Uttarakhand;WB|West Bengal',
  ),
  IT: list(
    '65|Abruzzo;77|Basilicata;78|Calabria;72|Campania;45|Emilia-Romagna;' +
      '36|Friuli-Venezia Giulia|Friuli Venezia Giulia;62|Lazio;42|Liguria;25|Lombardia|Lombardy;57|Marche;67|Molise;' +
      '21|Piemonte|Piedmont;75|Puglia|Apulia;88|Sardegna|Sardinia;82|Sicilia|Sicily;52|Toscana|Tuscany;' +
      '32|Trentino-Alto Adige|Trentino-South Tyrol|Trentino-Alto Adige/Südtirol;55|Umbria;' +
      "23|Valle d'Aosta|Aosta Valley|Vallée d'Aoste;34|Veneto",
  ),
  JO: list(
    'AJ|Ajloun|عجلون;AM|Amman|عمّان;AQ|Aqaba|العقبة;BA|Balqa|البلقاء;IR|Irbid|إربد;JA|Jerash|جرش;KA|Karak|الكرك;' +
      "MN|Ma'an|معان;MA|Mafraq|المفرق;MD|Madaba|مادبا;AT|Tafilah|الطفيلة;AZ|Zarqa|الزرقاء",
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
  KH: list(
    '2|Baat Dambang|Battambang;1|Banteay Mean Chey|Banteay Meanchey;23|Kaeb|Kep;3|Kampong Chaam|Kampong Cham;' +
      '4|Kampong Chhnang;5|Kampong Spueu|Kampong Speu;6|Kampong Thum|Kampong Thom;7|Kampot;8|Kandaal|Kandal;' +
      '9|Kaoh Kong|Koh Kong;10|Kracheh|Kratie;11|Mondol Kiri|Mondulkiri;22|Otdar Mean Chey|Oddar Meanchey;24|Pailin;' +
      '12|Phnom Penh;15|Pousaat|Pursat;18|Preah Sihanouk|Sihanoukville;13|Preah Vihear;14|Prey Veaeng|Prey Veng;' +
      '16|Rotanak Kiri|Ratanakiri;17|Siem Reab|Siem Reap;19|Stueng Traeng|Stung Treng;20|Svaay Rieng|Svay Rieng;' +
      '21|Taakaev|Takeo;25|Tbong Khmum',
  ),
  MX: list(
    'AGU|Aguascalientes;BCN|Baja California;BCS|Baja California Sur;CAM|Campeche;CHP|Chiapas;CHH|Chihuahua;' +
      'CMX|Ciudad de México|Mexico City;COA|Coahuila de Zaragoza|Coahuila;COL|Colima;DUR|Durango;GUA|Guanajuato;' +
      'GRO|Guerrero;HID|Hidalgo;JAL|Jalisco;MEX|México|Estado de Mexico;MIC|Michoacán de Ocampo|Michoacan;MOR|Morelos;' +
      'NAY|Nayarit;NLE|Nuevo León|Nuevo Leon;OAX|Oaxaca;PUE|Puebla;QUE|Querétaro|Queretaro;ROO|Quintana Roo;' +
      'SLP|San Luis Potosí|San Luis Potosi;SIN|Sinaloa;SON|Sonora;TAB|Tabasco;TAM|Tamaulipas;TLA|Tlaxcala;' +
      'VER|Veracruz de Ignacio de la Llave|Veracruz;YUC|Yucatán|Yucatan;ZAC|Zacatecas',
  ),
  NG: list(
    'AB|Abia;FC|Abuja Federal Capital Territory|Federal Capital Territory;AD|Adamawa;AK|Akwa Ibom;AN|Anambra;' +
      'BA|Bauchi;BY|Bayelsa;BE|Benue;BO|Borno;CR|Cross River;DE|Delta;EB|Ebonyi;ED|Edo;EK|Ekiti;EN|Enugu;GO|Gombe;' +
      'IM|Imo;JI|Jigawa;KD|Kaduna;KN|Kano;KT|Katsina;KE|Kebbi;KO|Kogi;KW|Kwara;LA|Lagos;NA|Nasarawa;NI|Niger;OG|Ogun;' +
      'ON|Ondo;OS|Osun;OY|Oyo;PL|Plateau;RI|Rivers;SO|Sokoto;TA|Taraba;YO|Yobe;ZA|Zamfara',
  ),
  NL: list(
    'DR|Drenthe;FL|Flevoland;FR|Fryslân|Friesland;GE|Gelderland;GR|Groningen;LI|Limburg;' +
      'NB|Noord-Brabant|North Brabant;NH|Noord-Holland|North Holland;OV|Overijssel;UT|Utrecht;ZE|Zeeland;' +
      'ZH|Zuid-Holland|South Holland',
  ),
  PE: list(
    'AMA|Amazonas;ANC|Áncash|Ancash;APU|Apurímac|Apurimac;ARE|Arequipa;AYA|Ayacucho;CAJ|Cajamarca;' +
      'CAL|El Callao|Callao;CUS|Cusco|Cuzco;HUV|Huancavelica;HUC|Huánuco|Huanuco;ICA|Ica;JUN|Junín|Junin;' +
      'LAL|La Libertad;LAM|Lambayeque;LIM|Lima;LMA|Municipalidad Metropolitana de Lima|Lima Metropolitana;LOR|Loreto;' +
      'MDD|Madre de Dios;MOQ|Moquegua;PAS|Pasco;PIU|Piura;PUN|Puno;SAM|San Martín|San Martin;TAC|Tacna;TUM|Tumbes;' +
      'UCA|Ucayali',
  ),
  PH: list(
    '14|Autonomous Region in Muslim Mindanao|Bangsamoro|BARMM;05|Bicol|Region V;02|Cagayan Valley|Region II;' +
      '40|Calabarzon|Region IV-A;13|Caraga|Region XIII;03|Central Luzon|Region III;07|Central Visayas|Region VII;' +
      '15|Cordillera Administrative Region|CAR;11|Davao|Region XI;08|Eastern Visayas|Region VIII;01|Ilocos|Region I;' +
      '41|Mimaropa|Region IV-B;00|National Capital Region|Metro Manila|NCR;10|Northern Mindanao|Region X;' +
      '12|Soccsksargen|Region XII;06|Western Visayas|Region VI;09|Zamboanga Peninsula|Region IX',
  ),
  PK: list(
    'JK|Azad Jammu and Kashmir|Azad Kashmir;BA|Balochistan;GB|Gilgit-Baltistan;' +
      'IS|Islamabad Capital Territory|Islamabad;KP|Khyber Pakhtunkhwa;PB|Punjab;SD|Sindh',
  ),
  TR: list(
    '01|Adana;02|Adıyaman|Adiyaman;03|Afyonkarahisar;04|Ağrı|Agri;05|Amasya;06|Ankara;07|Antalya;08|Artvin;' +
      '09|Aydın|Aydin;10|Balıkesir|Balikesir;11|Bilecik;12|Bingöl|Bingol;13|Bitlis;14|Bolu;15|Burdur;16|Bursa;' +
      '17|Çanakkale|Canakkale;18|Çankırı|Cankiri;19|Çorum|Corum;20|Denizli;21|Diyarbakır|Diyarbakir;22|Edirne;' +
      '23|Elazığ|Elazig;24|Erzincan;25|Erzurum;26|Eskişehir|Eskisehir;27|Gaziantep;28|Giresun;29|Gümüşhane|Gumushane;' +
      '30|Hakkâri|Hakkari;31|Hatay;32|Isparta;33|Mersin;34|İstanbul|Istanbul;35|İzmir|Izmir;36|Kars;37|Kastamonu;' +
      '38|Kayseri;39|Kırklareli|Kirklareli;40|Kırşehir|Kirsehir;41|Kocaeli;42|Konya;43|Kütahya|Kutahya;44|Malatya;' +
      '45|Manisa;46|Kahramanmaraş|Kahramanmaras;47|Mardin;48|Muğla|Mugla;49|Muş|Mus;50|Nevşehir|Nevsehir;' +
      '51|Niğde|Nigde;52|Ordu;53|Rize;54|Sakarya;55|Samsun;56|Siirt;57|Sinop;58|Sivas;59|Tekirdağ|Tekirdag;60|Tokat;' +
      '61|Trabzon;62|Tunceli;63|Şanlıurfa|Sanliurfa;64|Uşak|Usak;65|Van;66|Yozgat;67|Zonguldak;68|Aksaray;69|Bayburt;' +
      '70|Karaman;71|Kırıkkale|Kirikkale;72|Batman;73|Şırnak|Sirnak;74|Bartın|Bartin;75|Ardahan;76|Iğdır|Igdir;' +
      '77|Yalova;78|Karabük|Karabuk;79|Kilis;80|Osmaniye;81|Düzce|Duzce',
  ),
  US: list(
    'AL|Alabama;AK|Alaska;AS|American Samoa;AZ|Arizona;AR|Arkansas;CA|California;CO|Colorado;CT|Connecticut;' +
      'DE|Delaware;DC|District of Columbia;FL|Florida;GA|Georgia;GU|Guam;HI|Hawaii;ID|Idaho;IL|Illinois;IN|Indiana;' +
      'IA|Iowa;KS|Kansas;KY|Kentucky;LA|Louisiana;ME|Maine;MH|Marshall Islands;MD|Maryland;MA|Massachusetts;' +
      'MI|Michigan;FM|Micronesia;MN|Minnesota;MS|Mississippi;MO|Missouri;MT|Montana;NE|Nebraska;NV|Nevada;' +
      'NH|New Hampshire;NJ|New Jersey;NM|New Mexico;NY|New York;NC|North Carolina;ND|North Dakota;' +
      'MP|Northern Mariana Islands;OH|Ohio;OK|Oklahoma;OR|Oregon;PW|Palau;PA|Pennsylvania;PR|Puerto Rico;' +
      'RI|Rhode Island;SC|South Carolina;SD|South Dakota;TN|Tennessee;TX|Texas;UT|Utah;VT|Vermont;' +
      'VI|U.S. Virgin Islands;VA|Virginia;WA|Washington;WV|West Virginia;WI|Wisconsin;WY|Wyoming;' +
      'AA|Armed Forces Americas;AE|Armed Forces Europe;AP|Armed Forces Pacific',
  ),
  VN: list(
    '44|An Giang;43|Bà Rịa-Vũng Tàu|Ba Ria-Vung Tau;54|Bắc Giang|Bac Giang;53|Bắc Kạn|Bac Kan;55|Bạc Liêu|Bac Lieu;' +
      '56|Bắc Ninh|Bac Ninh;50|Bến Tre|Ben Tre;31|Bình Định|Binh Dinh;57|Bình Dương|Binh Duong;' +
      '58|Bình Phước|Binh Phuoc;40|Bình Thuận|Binh Thuan;59|Cà Mau|Ca Mau;CT|Cần Thơ|Can Tho;04|Cao Bằng|Cao Bang;' +
      'DN|Đà Nẵng|Da Nang;33|Đắk Lắk|Dak Lak;72|Đắk Nông|Dak Nong;71|Điện Biên|Dien Bien;39|Đồng Nai|Dong Nai;' +
      '45|Đồng Tháp|Dong Thap;30|Gia Lai;03|Hà Giang|Ha Giang;63|Hà Nam|Ha Nam;HN|Hà Nội|Hanoi;23|Hà Tĩnh|Ha Tinh;' +
      '61|Hải Dương|Hai Duong;HP|Hải Phòng|Haiphong;73|Hậu Giang|Hau Giang;SG|Hồ Chí Minh|Ho Chi Minh City;' +
      '14|Hòa Bình|Hoa Binh;66|Hưng Yên|Hung Yen;34|Khánh Hòa|Khanh Hoa;47|Kiên Giang|Kien Giang;28|Kon Tum;' +
      '01|Lai Châu|Lai Chau;35|Lâm Đồng|Lam Dong;09|Lạng Sơn|Lang Son;02|Lào Cai|Lao Cai;41|Long An;' +
      '67|Nam Định|Nam Dinh;22|Nghệ An|Nghe An;18|Ninh Bình|Ninh Binh;36|Ninh Thuận|Ninh Thuan;68|Phú Thọ|Phu Tho;' +
      '32|Phú Yên|Phu Yen;24|Quảng Bình|Quang Binh;27|Quảng Nam|Quang Nam;29|Quảng Ngãi|Quang Ngai;' +
      '13|Quảng Ninh|Quang Ninh;25|Quảng Trị|Quang Tri;52|Sóc Trăng|Soc Trang;05|Sơn La|Son La;37|Tây Ninh|Tay Ninh;' +
      '20|Thái Bình|Thai Binh;69|Thái Nguyên|Thai Nguyen;21|Thanh Hóa|Thanh Hoa;26|Thừa Thiên-Huế|Thua Thien Hue;' +
      '46|Tiền Giang|Tien Giang;51|Trà Vinh|Tra Vinh;07|Tuyên Quang|Tuyen Quang;49|Vĩnh Long|Vinh Long;' +
      '70|Vĩnh Phúc|Vinh Phuc;06|Yên Bái|Yen Bai',
  ),
};
