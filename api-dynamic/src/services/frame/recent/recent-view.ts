/**
 * What the server answers /recent from: the layer store's works, held in memory in the endpoint's order
 * (publication date desc, cited desc, id) with their title terms, and the run records. The store's version is
 * polled at most every `refreshMs`; a new version (a sync succeeded, maybe in another process or replica) is
 * loaded whole before it replaces the old one. A store that cannot be read keeps the last good copy and logs.
 */
import { onRoute, type RecentQuery, type RecentWork, type SyncRun, windowStart } from '../../../../../contracts/frame/recent.ts';
import { titleTerms } from '../../../../../contracts/frame/title-terms.ts';
import { ApiError } from '../../../../../contracts/common/errors.ts';
import type { RecentLayerStore } from './layer-store.ts';

interface Indexed {
  work: RecentWork;
  terms: Set<string>;
}

export interface RecentState {
  works: Indexed[];
  byId: Map<string, RecentWork>;
  latest: SyncRun | null;
  lastSuccessful: SyncRun | null;
}

function order(a: RecentWork, b: RecentWork): number {
  if (a.publication_date !== b.publication_date) return a.publication_date < b.publication_date ? 1 : -1;
  if (a.cited_by !== b.cited_by) return b.cited_by - a.cited_by;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class RecentView {
  private state: RecentState = { works: [], byId: new Map(), latest: null, lastSuccessful: null };
  private version: string | null | undefined = undefined;
  private checkedAt = -Infinity;
  private refreshing: Promise<void> | null = null;

  constructor(
    readonly store: RecentLayerStore,
    private readonly refreshMs: number,
    private readonly log: { warn(message: string): void },
  ) {}

  /** The current state, refreshed first when the last check is older than refreshMs. */
  async current(): Promise<RecentState> {
    if (performance.now() - this.checkedAt >= this.refreshMs) {
      this.refreshing ??= this.refresh().finally(() => {
        this.refreshing = null;
      });
      await this.refreshing;
    }
    return this.state;
  }

  private async refresh(): Promise<void> {
    try {
      const [version, runs] = await Promise.all([this.store.layerVersion(), this.store.runs()]);
      let works = this.state.works;
      let byId = this.state.byId;
      if (version !== this.version) {
        const layer = await this.store.layer();
        works = layer.works.sort(order).map((work) => ({ work, terms: new Set(titleTerms(work.title)) }));
        byId = new Map(layer.works.map((w) => [w.id, w]));
        this.version = layer.version;
      }
      this.state = { works, byId, latest: runs[0] ?? null, lastSuccessful: runs.find((r) => r.status === 'succeeded') ?? null };
      this.checkedAt = performance.now();
    } catch (err) {
      // Keep answering from the last good copy; try again on the next request.
      this.log.warn(`recent layer: cannot read ${this.store.description}: ${(err as Error).message}`);
      // Nothing read yet: say so (503) rather than answer an empty layer or a 500.
      if (this.version === undefined)
        throw new ApiError('UPSTREAM_UNAVAILABLE', 'The recent layer cannot be read from the state store right now; try again shortly.');
    }
  }
}

/** The page and exact total of a /recent query over a state, for the window ending `today`. */
export function recentPage(state: RecentState, q: RecentQuery, today: string): { total: number; results: RecentWork[] } {
  const start = windowStart(today, q.days);
  const f = q.filters;
  const terms = f.q?.split(' ') ?? [];
  const from = (q.page - 1) * q.per_page;
  const results: RecentWork[] = [];
  let total = 0;
  for (const { work: w, terms: wt } of state.works) {
    if (w.publication_date < start || w.publication_date > today) continue;
    if (f.route !== undefined && !onRoute(w, f.route)) continue;
    if (f.year !== undefined && w.year !== f.year) continue;
    if (f.has_abstract !== undefined && w.has_abstract !== f.has_abstract) continue;
    if (f.type !== undefined && w.type !== f.type) continue;
    if (f.lang !== undefined && w.lang !== f.lang) continue;
    if (f.venue !== undefined && w.venue !== f.venue) continue;
    if (f.topic !== undefined && w.topic !== f.topic) continue;
    if (f.field !== undefined && w.field !== f.field) continue;
    if (terms.length > 0 && !terms.every((t) => wt.has(t))) continue;
    if (total >= from && results.length < q.per_page) results.push(w);
    total++;
  }
  return { total, results };
}
