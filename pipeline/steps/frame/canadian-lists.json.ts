/**
 * Step 3c: `frame/canadian-lists.json`, the pinned lists behind routes CA-FUND and CA-VENUE, read from the
 * frame database and stamped with their route version (contracts/frame/canadian-lists.ts), so that a later
 * classifier (the recent layer's sync) applies the frame's own rules and can say which ones it used.
 */
import { type CanadianLists, canadianListsDocument } from '../../../contracts/frame/canadian-lists.ts';
import type { Duck } from '../../lib/duckdb.ts';

export async function canadianLists(duck: Duck): Promise<CanadianLists> {
  const funders = await duck.all<{ id: string; name: string }>('SELECT id, name FROM canadian_funders ORDER BY id');
  const sources = await duck.all<{ id: string; name: string }>('SELECT id, name FROM canadian_sources ORDER BY id');
  return canadianListsDocument(funders, sources);
}
