/**
 * Vocabulary for synthetic JATS articles. Filler text deliberately avoids every word a hedging lexicon could
 * match (trend, tend, marginal, approach, almost, nearly, borderline, slight, weak, strong, suggest,
 * significant), so the only hedges in an article are the ones the generator records in its ground truth.
 */

/** Conditions studied; one per article. */
export const CONDITIONS = [
  'type 2 diabetes',
  'major depression',
  'knee osteoarthritis',
  'chronic kidney disease',
  'heart failure',
  'chronic low back pain',
  'asthma',
  'hypertension',
  'obesity',
  'atrial fibrillation',
  'schizophrenia',
  'chronic obstructive pulmonary disease',
  'rheumatoid arthritis',
  'migraine',
  'insomnia',
  'sepsis',
] as const;

/** Interventions; one per article. */
export const ARMS = [
  'exercise training',
  'metformin',
  'vitamin D supplementation',
  'cognitive behavioural therapy',
  'dapagliflozin',
  'low-sodium diet',
  'mindfulness training',
  'telemonitoring',
  'physiotherapy',
  'omega-3 supplementation',
  'acupuncture',
  'high-dose statin therapy',
  'nurse-led follow-up',
  'zelvatinib',
] as const;

/** Outcome names used in results sentences (some start lower-case with a capital inside: eGFR, HbA1c). */
export const OUTCOMES = [
  'HbA1c',
  'systolic blood pressure',
  'depressive symptoms',
  'pain scores',
  'walking distance',
  'hospital readmission',
  'serum ferritin',
  'telomere length',
  'fasting glucose',
  'quality of life',
  'LDL cholesterol',
  'sleep efficiency',
  'grip strength',
  'body weight',
  'fatigue scores',
  'eGFR decline',
  'C-reactive protein',
  'exacerbation rate',
  'anxiety scores',
  'all-cause mortality',
] as const;

/** Covariates for adjustment and correlation sentences. */
export const COVARIATES = [
  'age',
  'body mass index',
  'waist circumference',
  'smoking status',
  'baseline severity',
  'sex',
  'education',
  'disease duration',
  'serum albumin',
  'physical activity',
] as const;

/** Genus and species names for the "spp." and "e.g." splitter traps. */
export const GENERA = ['Bacteroides', 'Prevotella', 'Lactobacillus', 'Bifidobacterium', 'Ruminococcus', 'Akkermansia'] as const;
export const SPECIES = ['copri', 'fragilis', 'muciniphila', 'longum', 'gnavus', 'plantarum'] as const;

/** Author and "et al."/"Dr." names, with non-ASCII letters on purpose. */
export const SURNAMES = [
  'Smith',
  'Otte',
  'Nguyen',
  'Garcia',
  'Kim',
  'Müller',
  'Okafor',
  'Rossi',
  'Tanaka',
  'Haddad',
  'Silva',
  'Kowalski',
  'Andersen',
  'Dubois',
  'Chen',
  'Patel',
  'Ivanova',
  'Mensah',
  'Jansen',
  'Schmidt',
  'López',
  'Novak',
  'Hughes',
  'Sato',
  'Ferreira',
  'Olsen',
  'Yilmaz',
  'Brown',
  'Walker',
  'Khan',
] as const;

/** Given names; initials with spaces ("Wim M") as PMC writes them. */
export const GIVEN_NAMES = [
  'Anna',
  'Wim M',
  'Thi Lan',
  'Carlos',
  'Ji-ho',
  'Lena',
  'Chidi',
  'Giulia',
  'Hiro',
  'Rania',
  'João',
  'Piotr',
  'Freja',
  'Élodie',
  'Wei',
  'Priya',
  'Olga',
  'Kwame',
  'Sanne',
  'Jonas',
  'María',
  'Tomas',
  'Grace',
  'Yuki',
  'Rui',
  'Ingrid',
  'Emre',
  'David',
  'Sarah',
  'Imran',
] as const;

/** [journal title, NLM title abbreviation, PLOS-style file code]. */
export const JOURNALS = [
  ['Journal of Synthetic Clinical Research', 'J Synth Clin Res', 'jscr'],
  ['Trials in Applied Physiology', 'Trials Appl Physiol', 'tapp'],
  ['Open Medicine Reports', 'Open Med Rep', 'omre'],
  ['International Journal of Generated Epidemiology', 'Int J Gen Epidemiol', 'ijge'],
  ['Annals of Reproducible Psychiatry', 'Ann Reprod Psychiatry', 'arps'],
  ['Computational Nephrology', 'Comput Nephrol', 'cnep'],
  ['Frontiers in Simulated Cardiology', 'Front Simul Cardiol', 'fsca'],
  ['BMC Placeholder Medicine', 'BMC Placeholder Med', 'bmcp'],
] as const;

/** Journals for reference lists only ("Trends Parasitol" is a real-world trap for naive "trend" matching). */
export const REF_JOURNALS = ['Trends Parasitol', 'Lancet', 'BMJ', 'PLoS One', 'Trends Mol Med', 'JAMA', 'N Engl J Med', 'Stat Med'] as const;

/** Statistics packages for methods sentences. */
export const SOFTWARE = ['R', 'Stata', 'SAS', 'SPSS', 'Python'] as const;
/** Ethics committee kinds for methods sentences. */
export const INSTITUTIONS = ['regional', 'university', 'national', 'hospital'] as const;

// Hedging phrases, as they are written in sentences. `otte`: in Otte et al.'s 505-phrase list exactly;
// `variant`: a hyphenation, spelling, tense or plural variant that a lexicon with variants should match.

/** Adjectival hedges: "… was marginally significant (p = 0.07)". */
export const ADJ_HEDGES: readonly (readonly [string, 'otte' | 'variant'])[] = [
  ['marginally significant', 'otte'],
  ['nearly significant', 'otte'],
  ['almost significant', 'otte'],
  ['not quite significant', 'otte'],
  ['barely significant', 'otte'],
  ['weakly significant', 'otte'],
  ['almost statistically significant', 'otte'],
  ['borderline significant', 'variant'],
  ['marginally statistically significant', 'variant'],
];

/** Trend nouns used before "toward(s) higher/lower …". */
export const TREND_HEDGES: readonly (readonly [string, 'otte' | 'variant'])[] = [
  ['a strong trend', 'otte'],
  ['a nonsignificant trend', 'otte'],
  ['a slight trend', 'otte'],
  ['a clear trend', 'otte'],
  ['a non-significant trend', 'variant'],
];

/** Noun phrases that name significance themselves: "… showed a weak trend toward significance (p = 0.08)". */
export const SIGNIFICANCE_HEDGES: readonly (readonly [string, 'otte' | 'variant'])[] = [
  ['a weak trend toward significance', 'otte'],
  ['a strong trend toward significance', 'otte'],
  ['a slight trend toward significance', 'otte'],
  ['a nonsignificant trend toward significance', 'otte'],
  ['a strong trend towards significance', 'variant'],
  ['a trend toward statistical significance', 'variant'],
];

/** Verb phrases: "The reduction … failed to reach statistical significance (p = 0.09)". */
export const VERB_HEDGES: readonly (readonly [string, 'otte' | 'variant'])[] = [
  ['failed to reach statistical significance', 'otte'],
  ['did not quite reach statistical significance', 'otte'],
  ['almost reached statistical significance', 'otte'],
  ['fell just short of significance', 'otte'],
  ['was approaching significance', 'otte'],
  ['approached statistical significance', 'variant'],
];

/** The part of a verb-phrase hedge that is the lexicon phrase ("was approaching significance" → "approaching significance"). */
export function verbPhraseCore(vp: string): string {
  return vp.startsWith('was ') ? vp.slice(4) : vp;
}

/** Caption titles; caption paragraphs add a note and sometimes a hedge. */
export const FIGURE_TITLES = [
  'Outcomes by treatment group.',
  'Change from baseline over time.',
  'Flow of participants through the trial.',
  'Subgroup estimates.',
  'Distribution of the primary outcome.',
] as const;

/** Neutral caption sentences. */
export const FIGURE_NOTES = [
  'Bars show means and whiskers show 95% confidence intervals.',
  'Each point represents one participant.',
  'Shaded areas show the interquartile range.',
  'Estimates are adjusted for centre and baseline values.',
] as const;

/** Table caption titles. */
export const TABLE_TITLES = [
  'Baseline characteristics of the participants.',
  'Primary and secondary outcomes at follow-up.',
  'Adverse events by group.',
  'Results of the sensitivity analyses.',
] as const;
