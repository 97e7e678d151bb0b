/**
 * The Canada-only collaboration network: construction rules, stated once here and repeated in every
 * `/frame/api/v1/network` response (`meta`).
 */

/** Works with more Canadian-affiliated authorships than this are left out of the edges (density guard). */
export const MAX_CA_AUTHORS = 25;
/** Overview: the strongest edges of the whole network. */
export const OVERVIEW_EDGES = 350;
/** Ego view: the strongest spokes around one researcher. */
export const EGO_SPOKES = 30;

export const NETWORK_RULES = {
  nodes: 'researchers with at least one Canadian-affiliated authorship on a frame work',
  edges: 'coauthorship where BOTH authorships on the shared work are Canadian-affiliated',
  weight: 'sum over shared works of 1/(n_authors - 1), n_authors being the work’s total authorship count (Newman fractional counting)',
  overview: `the ${OVERVIEW_EDGES} strongest edges by weight, then shared works, then ids; nodes are their endpoints in first-seen order`,
  ego: `the ${EGO_SPOKES} strongest edges of the researcher by weight, then shared works, then id, plus every edge among those neighbours`,
};
