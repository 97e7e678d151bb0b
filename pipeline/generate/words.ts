/**
 * Word lists for synthetic records. Titles draw from a head of real research vocabulary and a long tail of
 * made-up syllable words, so both common and rare title terms exist at every frame size.
 */
import type { Rng } from './prng.ts';

export const TITLE_HEAD = (
  'the of and in a for with on to from among by health study analysis care patients canada canadian effects ' +
  'risk association evidence outcomes model data review systematic research clinical population children ' +
  'women cohort trial randomized quality policy community impact factors disease treatment assessment ' +
  'learning machine network social public climate water energy cancer mental adults older survey students ' +
  'education indigenous first nations ontario quebec british columbia alberta national provincial rural urban ' +
  'hospital primary services access use early development evaluation measurement methods approach framework ' +
  'response change time trends prevalence incidence mortality exposure infection covid-19 pandemic vaccine ' +
  'genetic protein cell gene expression dynamics design performance control system systems structure ' +
  'surface temperature growth forest soil species fish river arctic northern ice carbon emissions economic ' +
  'labour market income housing immigrant language french english identity governance law rights reporting ' +
  'reproducibility peer publication citation bibliometric open science integrity metaresearch replication ' +
  'bias transparency funding grants scholarly communication preprints journals retraction misconduct'
).split(' ');

const SYLLABLES = 'ka lo mi ne su ta ri po ve da no li ber san tor vel mar qui zen dal fen gor hal jun kes'.split(' ');

/** A made-up word for tail rank k, stable for a given k. */
export function tailWord(k: number): string {
  let w = '';
  let x = k + 7;
  const parts = 2 + (k % 3);
  for (let i = 0; i < parts; i++) {
    w += SYLLABLES[x % SYLLABLES.length];
    x = Math.floor(x / SYLLABLES.length) + i * 13 + 1;
  }
  return w;
}

export const FIELDS = [
  'Medicine',
  'Social Sciences',
  'Engineering',
  'Biochemistry, Genetics and Molecular Biology',
  'Environmental Science',
  'Agricultural and Biological Sciences',
  'Computer Science',
  'Psychology',
  'Physics and Astronomy',
  'Earth and Planetary Sciences',
  'Health Professions',
  'Arts and Humanities',
  'Business, Management and Accounting',
  'Economics, Econometrics and Finance',
  'Chemistry',
  'Materials Science',
  'Nursing',
  'Neuroscience',
  'Immunology and Microbiology',
  'Mathematics',
  'Pharmacology, Toxicology and Pharmaceutics',
  'Energy',
  'Chemical Engineering',
  'Decision Sciences',
  'Veterinary',
  'Dentistry',
] as const;

const TOPIC_A =
  'Clinical Genomic Urban Coastal Pediatric Digital Indigenous Rural Molecular Social Economic Arctic Cognitive Environmental Public Forest Marine Cardiac Renal Neural'.split(
    ' ',
  );
const TOPIC_B =
  'Health Outcomes Policy Dynamics Systems Networks Methods Ecology Epidemiology Education Governance Imaging Signaling Modeling Surveillance Justice Labour Hydrology Chemistry Ethics'.split(
    ' ',
  );
const TOPIC_C =
  'and Practice|in Canada|Research|Interventions|Analysis|and Society|Assessment|Studies|and Equity|Mechanisms|Technologies|and Communities|Processes|Management|Trends'.split(
    '|',
  );

/** Display name of topic number k (k < 6,000 gives distinct names). */
export function topicName(k: number): string {
  const a = TOPIC_A[k % TOPIC_A.length];
  const b = TOPIC_B[Math.floor(k / TOPIC_A.length) % TOPIC_B.length];
  const c = TOPIC_C[Math.floor(k / (TOPIC_A.length * TOPIC_B.length)) % TOPIC_C.length];
  return `${a} ${b} ${c}`;
}

const VENUE_KIND = ['Journal of', 'Canadian Journal of', 'Annals of', 'Reviews in', 'International Journal of', 'Proceedings of', 'Bulletin of', 'Archives of'];

/** Display name of venue number k: distinct for every k. */
export function venueName(k: number): string {
  const kind = VENUE_KIND[k % VENUE_KIND.length];
  const subject = TOPIC_B[Math.floor(k / VENUE_KIND.length) % TOPIC_B.length];
  const series = Math.floor(k / (VENUE_KIND.length * TOPIC_B.length));
  const qualifier = series === 0 ? '' : ` ${tailWord(series).replace(/^./, (c) => c.toUpperCase())}`;
  return `${kind} ${subject}${qualifier}`;
}

export const CA_INSTITUTIONS = [
  'University of Toronto',
  'McGill University',
  'University of British Columbia',
  'Université de Montréal',
  'University of Alberta',
  'McMaster University',
  'University of Calgary',
  'University of Ottawa',
  'Université Laval',
  'Western University',
  'Queen’s University',
  'Dalhousie University',
  'University of Waterloo',
  'University of Manitoba',
  'University of Saskatchewan',
  'Simon Fraser University',
  'York University',
  'Université du Québec à Montréal',
  'Memorial University of Newfoundland',
  'University of Victoria',
  'Carleton University',
  'Concordia University',
  'University of Guelph',
  'Université de Sherbrooke',
  'Toronto Metropolitan University',
  'Sunnybrook Health Sciences Centre',
  'Hospital for Sick Children',
  'Public Health Agency of Canada',
  'Statistics Canada',
  'National Research Council Canada',
];

export const CA_FUNDERS = [
  'Canadian Institutes of Health Research',
  'Natural Sciences and Engineering Research Council',
  'Social Sciences and Humanities Research Council',
  'Canada Foundation for Innovation',
  'Genome Canada',
  'Fonds de recherche du Québec – Santé',
  'Canada Research Chairs',
  'Mitacs',
  'Alberta Innovates',
  'Michael Smith Health Research BC',
];

// Parts of generated Canadian funder names. The three lengths are pairwise coprime, so name k, which takes
// part k mod length of each, is distinct for every k below 37 × 23 × 9 = 7,659.
const FUNDER_PLACE = [
  'Ontario',
  'Quebec',
  'British Columbia',
  'Alberta',
  'Manitoba',
  'Saskatchewan',
  'Nova Scotia',
  'New Brunswick',
  'Newfoundland and Labrador',
  'Prince Edward Island',
  'Yukon',
  'Northwest Territories',
  'Nunavut',
  'Toronto',
  'Montréal',
  'Vancouver',
  'Calgary',
  'Edmonton',
  'Ottawa',
  'Winnipeg',
  'Halifax',
  'Québec City',
  'Hamilton',
  'Saskatoon',
  'Victoria',
  'Kingston',
  'Sherbrooke',
  'Regina',
  'St. John’s',
  'Fredericton',
  'Atlantic Canada',
  'Northern Ontario',
  'Prairie',
  'Laurentian',
  'Great Lakes',
  'Pacific',
  'Canadian',
];
const FUNDER_SUBJECT = [
  'Cancer',
  'Heart and Stroke',
  'Brain',
  'Kidney',
  'Lung',
  'Diabetes',
  'Arthritis',
  'Child Health',
  'Mental Health',
  'Ocean',
  'Forest',
  'Agriculture',
  'Energy',
  'Water',
  'Climate',
  'Arctic',
  'Indigenous Health',
  'Aging',
  'Nursing',
  'Education',
  'Arts',
  'Social Innovation',
  'Rare Disease',
];
const FUNDER_KIND = [
  'Research Foundation',
  'Research Fund',
  'Innovation Fund',
  'Research Council',
  'Foundation',
  'Research Institute',
  'Research Network',
  'Trust',
  'Society',
];

/** Display name of generated Canadian funder number k (k < 7,659 gives distinct names). */
export function canadianFunderName(k: number): string {
  const place = FUNDER_PLACE[k % FUNDER_PLACE.length]!;
  const subject = FUNDER_SUBJECT[k % FUNDER_SUBJECT.length]!;
  const kind = FUNDER_KIND[k % FUNDER_KIND.length]!;
  return `${place} ${subject} ${kind}`;
}

export const OTHER_FUNDERS = [
  'National Institutes of Health',
  'National Science Foundation',
  'European Research Council',
  'Wellcome Trust',
  'National Natural Science Foundation of China',
  'Deutsche Forschungsgemeinschaft',
  'Bill & Melinda Gates Foundation',
  'Medical Research Council',
  'Japan Society for the Promotion of Science',
  'Australian Research Council',
];

export const KEYWORDS = [
  'Canada',
  'Public health',
  'Epidemiology',
  'Machine learning',
  'Health policy',
  'Climate change',
  'Indigenous peoples',
  'Primary care',
  'Mental health',
  'Open science',
  'Peer review',
  'Reproducibility',
  'Bibliometrics',
  'Research funding',
  'Systematic review',
  'Meta-analysis',
  'Qualitative research',
  'Health equity',
  'COVID-19',
  'Genomics',
];

/** Place words of the about-Canada lexicon's tiers A and B, injected into titles of `about` works. */
export const ABOUT_CA_TERMS = [
  'Canada',
  'Canadian',
  'Ontario',
  'Quebec',
  'British Columbia',
  'Alberta',
  'Nova Scotia',
  'Manitoba',
  'Toronto',
  'Montréal',
  'First Nations',
  'Inuit',
  'Métis',
  'Nunavut',
];

const FIRST =
  'Anne Marc Sophie Jean Li Wei Priya Omar Emily David Chloé Lucas Sara Ahmed Yuki Maria Daniel Olivia Noah Fatima Pierre Isabelle Ravi Hannah Thomas Mei Jonas Aisha Elena Samuel'.split(
    ' ',
  );
const LAST =
  'Tremblay Smith Gagnon Roy Wang Chen Singh Martin Brown Côté Nguyen Wilson Bouchard Taylor Kim Lee Patel Fortin Campbell Gauthier Anderson Morin Khan Lavoie Scott Ali Bélanger Reid Thompson Li'.split(
    ' ',
  );

/** A stable person name for author number k. */
export function personName(k: number, rng: Rng): string {
  const initial = String.fromCharCode(65 + (k % 26));
  const middle = rng.chance(0.4) ? ` ${initial}.` : '';
  return `${FIRST[k % FIRST.length]}${middle} ${LAST[Math.floor(k / FIRST.length) % LAST.length]}${k >= FIRST.length * LAST.length ? `-${tailWord(Math.floor(k / (FIRST.length * LAST.length)))}` : ''}`;
}
