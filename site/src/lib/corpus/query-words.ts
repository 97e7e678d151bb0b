/**
 * The canonical question of an excerpt list (the API's `query` echo) in one sentence, so a reader sees how
 * the page read the address, defaults included.
 */
import type { ExcerptsResponse } from '../../../../contracts/corpus/responses.ts';

const SORTS: Record<ExcerptsResponse['meta']['query']['sort'], string> = {
  relevance: 'best match first',
  p_asc: 'smallest p-value first',
  p_desc: 'largest p-value first',
  year_desc: 'newest articles first',
  article: 'in article order',
};

const either = (xs: readonly string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`);

export function describeQuery(q: ExcerptsResponse['meta']['query']): string {
  const parts = [`Sentences with ${q.phrase ? `an occurrence of “${q.phrase}”` : 'an occurrence of any phrase'}`];
  if (q.status.length > 0) parts.push(`whose status is ${either(q.status)}`);
  if (q.band.length > 0) parts.push(`${q.status.length > 0 ? 'and ' : ''}whose band is ${either(q.band)}`);
  if (q.q !== null) parts.push(`containing the words ${q.q}`);
  return `${parts.join(' ')}, ${SORTS[q.sort]}.`;
}
