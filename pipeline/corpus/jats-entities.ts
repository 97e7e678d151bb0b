/**
 * Entity decoding for JATS text. The XML tokenizer runs with entity decoding off, and this module decodes
 * every text run and attribute value in a single pass, because real JATS uses more than the five XML
 * entities: NLM/JATS DTDs declare the ISO 8879 and MathML sets, and PLOS files use them bare (`&rsqb;`,
 * `&percnt;`, `&ndash;` in journal.pmed.0030520). We never load DTDs, so the named entities that occur in
 * practice are listed here. Numeric references are always decoded. An unknown named entity is kept as its
 * literal text (`&foo;`), so no character of the source is lost.
 */

/** Named entities seen in PMC/publisher JATS, from the ISO 8879 (ISOnum, ISOpub, ISOgrk3, ISOlat1, ISOtech) sets. */
const NAMED_LIST: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'",
  nbsp: '\u00A0', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003', hairsp: '\u200A', numsp: '\u2007',
  puncsp: '\u2008', emsp13: '\u2004', emsp14: '\u2005', ZeroWidthSpace: '\u200B', shy: '\u00AD',
  ndash: '\u2013', mdash: '\u2014', minus: '\u2212', hyphen: '\u2010', dash: '\u2010', horbar: '\u2015',
  plus: '+', plusmn: '\u00B1', pm: '\u00B1', mnplus: '\u2213', times: '\u00D7', divide: '\u00F7',
  equals: '=', ne: '\u2260', le: '\u2264', ge: '\u2265', les: '\u2A7D', ges: '\u2A7E', lE: '\u2266', gE: '\u2267',
  ll: '\u226A', gg: '\u226B', sim: '\u223C', thksim: '\u223C', asymp: '\u2248', ap: '\u2248', approx: '\u2248',
  cong: '\u2245', equiv: '\u2261', prop: '\u221D', infin: '\u221E', radic: '\u221A', sum: '\u2211',
  prod: '\u220F', int: '\u222B', part: '\u2202', nabla: '\u2207', isin: '\u2208', notin: '\u2209',
  cap: '\u2229', cup: '\u222A', sub: '\u2282', sup: '\u2283', and: '\u2227', or: '\u2228', not: '\u00AC',
  forall: '\u2200', exist: '\u2203', empty: '\u2205', deg: '\u00B0', prime: '\u2032', Prime: '\u2033',
  permil: '\u2030', percnt: '%', micro: '\u00B5', middot: '\u00B7', centerdot: '\u00B7', sdot: '\u22C5',
  bull: '\u2022', bullet: '\u2022', hellip: '\u2026', mldr: '\u2026', sect: '\u00A7', para: '\u00B6',
  dagger: '\u2020', Dagger: '\u2021', ddagger: '\u2021', copy: '\u00A9', reg: '\u00AE', trade: '\u2122',
  lsquo: '\u2018', rsquo: '\u2019', rsquor: '\u2019', sbquo: '\u201A', ldquo: '\u201C', rdquo: '\u201D',
  rdquor: '\u201D', bdquo: '\u201E', laquo: '\u00AB', raquo: '\u00BB', lsaquo: '\u2039', rsaquo: '\u203A',
  lsqb: '[', rsqb: ']', lpar: '(', rpar: ')', lcub: '{', rcub: '}', lowbar: '_', verbar: '|', vert: '|',
  sol: '/', bsol: '\\', ast: '*', midast: '*', num: '#', dollar: '$', excl: '!', quest: '?', colon: ':',
  semi: ';', comma: ',', period: '.', commat: '@', circ: '^', grave: '`', tilde: '~', Hat: '^',
  iexcl: '\u00A1', iquest: '\u00BF', cent: '\u00A2', pound: '\u00A3', euro: '\u20AC', yen: '\u00A5',
  ordf: '\u00AA', ordm: '\u00BA', sup1: '\u00B9', sup2: '\u00B2', sup3: '\u00B3', frac12: '\u00BD',
  half: '\u00BD', frac14: '\u00BC', frac34: '\u00BE', frac13: '\u2153', frac23: '\u2154', acute: '\u00B4',
  uml: '\u00A8', die: '\u00A8', cedil: '\u00B8', macr: '\u00AF', larr: '\u2190', rarr: '\u2192',
  uarr: '\u2191', darr: '\u2193', harr: '\u2194', rArr: '\u21D2', lArr: '\u21D0', hArr: '\u21D4',
  square: '\u25A1', squ: '\u25A1', squf: '\u25AA', blacksquare: '\u25AA', cir: '\u25CB', star: '\u2606',
  starf: '\u2605', loz: '\u25CA', angle: '\u2220', ang: '\u2220', perp: '\u22A5', there4: '\u2234',
  female: '\u2640', male: '\u2642', check: '\u2713', cross: '\u2717', ohm: '\u2126', angst: '\u00C5',
  alpha: '\u03B1', beta: '\u03B2', gamma: '\u03B3', delta: '\u03B4', epsi: '\u03B5', epsilon: '\u03B5',
  epsiv: '\u03F5', zeta: '\u03B6', eta: '\u03B7', theta: '\u03B8', thetav: '\u03D1', iota: '\u03B9',
  kappa: '\u03BA', lambda: '\u03BB', mu: '\u03BC', nu: '\u03BD', xi: '\u03BE', omicron: '\u03BF',
  pi: '\u03C0', piv: '\u03D6', rho: '\u03C1', sigma: '\u03C3', sigmav: '\u03C2', sigmaf: '\u03C2',
  tau: '\u03C4', upsi: '\u03C5', upsilon: '\u03C5', phi: '\u03C6', phiv: '\u03D5', chi: '\u03C7',
  psi: '\u03C8', omega: '\u03C9', Alpha: '\u0391', Beta: '\u0392', Gamma: '\u0393', Delta: '\u0394',
  Epsilon: '\u0395', Zeta: '\u0396', Eta: '\u0397', Theta: '\u0398', Iota: '\u0399', Kappa: '\u039A',
  Lambda: '\u039B', Mu: '\u039C', Nu: '\u039D', Xi: '\u039E', Omicron: '\u039F', Pi: '\u03A0',
  Rho: '\u03A1', Sigma: '\u03A3', Tau: '\u03A4', Upsi: '\u03A5', Upsilon: '\u03A5', Phi: '\u03A6',
  Chi: '\u03A7', Psi: '\u03A8', Omega: '\u03A9',
  Agrave: '\u00C0', Aacute: '\u00C1', Acirc: '\u00C2', Atilde: '\u00C3', Auml: '\u00C4', Aring: '\u00C5',
  AElig: '\u00C6', Ccedil: '\u00C7', Egrave: '\u00C8', Eacute: '\u00C9', Ecirc: '\u00CA', Euml: '\u00CB',
  Igrave: '\u00CC', Iacute: '\u00CD', Icirc: '\u00CE', Iuml: '\u00CF', ETH: '\u00D0', Ntilde: '\u00D1',
  Ograve: '\u00D2', Oacute: '\u00D3', Ocirc: '\u00D4', Otilde: '\u00D5', Ouml: '\u00D6', Oslash: '\u00D8',
  Ugrave: '\u00D9', Uacute: '\u00DA', Ucirc: '\u00DB', Uuml: '\u00DC', Yacute: '\u00DD', THORN: '\u00DE',
  szlig: '\u00DF', agrave: '\u00E0', aacute: '\u00E1', acirc: '\u00E2', atilde: '\u00E3', auml: '\u00E4',
  aring: '\u00E5', aelig: '\u00E6', ccedil: '\u00E7', egrave: '\u00E8', eacute: '\u00E9', ecirc: '\u00EA',
  euml: '\u00EB', igrave: '\u00EC', iacute: '\u00ED', icirc: '\u00EE', iuml: '\u00EF', eth: '\u00F0',
  ntilde: '\u00F1', ograve: '\u00F2', oacute: '\u00F3', ocirc: '\u00F4', otilde: '\u00F5', ouml: '\u00F6',
  oslash: '\u00F8', ugrave: '\u00F9', uacute: '\u00FA', ucirc: '\u00FB', uuml: '\u00FC', yacute: '\u00FD',
  thorn: '\u00FE', yuml: '\u00FF', Scaron: '\u0160', scaron: '\u0161', Zcaron: '\u017D', zcaron: '\u017E',
  Ccaron: '\u010C', ccaron: '\u010D', Rcaron: '\u0158', rcaron: '\u0159', Ecaron: '\u011A', ecaron: '\u011B',
  Lstrok: '\u0141', lstrok: '\u0142', OElig: '\u0152', oelig: '\u0153', Yuml: '\u0178', inodot: '\u0131',
  imath: '\u0131', ell: '\u2113', weierp: '\u2118', image: '\u2111', real: '\u211C', aleph: '\u2135',
  planck: '\u210F', hbar: '\u210F',
};

// A Map, so names such as "constructor" never resolve to Object.prototype members.
const NAMED = new Map(Object.entries(NAMED_LIST));

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{0,31}));/g;

function fromCodePoint(cp: number): string {
  // NUL, surrogates, U+FFFE/U+FFFF (the text layer's gap marker) and out-of-range code points are not XML
  // characters; U+FFFD keeps the position visible.
  if (cp === 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0xfffe || cp === 0xffff || cp > 0x10ffff) return '\uFFFD';
  return String.fromCodePoint(cp);
}

/**
 * Decodes numeric and named character references in raw XML text or an attribute value.
 * Raw text without "&" is returned unchanged (the common case), so the cost is one indexOf per text run.
 */
export function decodeEntities(raw: string): string {
  if (raw.indexOf('&') === -1) return raw;
  return raw.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10));
    if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
    return NAMED.get(name!) ?? whole;
  });
}
