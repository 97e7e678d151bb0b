/**
 * Live abstracts for `/works/{id}?abstract=1` (seed 002: abstracts are not stored). A work in the screening
 * sample has the abstract the models saw (`screening_record`); any other is fetched from the catalogue and
 * restored from its inverted index (`openalex_live`). When nothing comes back the answer says why
 * (`abstract_unavailable`) and the work record is still served: an upstream problem is never a 500.
 *
 * Answers are kept in an LRU: a catalogue answer (with or without an abstract) for 24 h, a failure for one
 * minute, so a catalogue that is down is not asked again by every request while a blip does not stick.
 * Concurrent requests for the same work share one fetch.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { lit } from '../../../../contracts/common/sql.ts';
import { ABSTRACT_SOURCES, ABSTRACT_UNAVAILABLE } from '../../../../contracts/frame/responses.ts';
import type { Build } from '../build-store.ts';
import { abstractIndexSchema, type CatalogueClient, CatalogueError, restoreAbstract } from './recent/catalogue.ts';
import { rows } from './query.ts';

export interface AbstractAnswer {
  abstract: string | null;
  abstract_source: (typeof ABSTRACT_SOURCES)[number] | null;
  abstract_unavailable?: { reason: (typeof ABSTRACT_UNAVAILABLE)[number]; message: string };
}

const HIT_TTL_MS = 24 * 3_600_000;
const FAILURE_TTL_MS = 60_000;

const upstreamWork = z.object({ abstract_inverted_index: abstractIndexSchema.nullish() }).loose();

export class AbstractService {
  private readonly cache: LRUCache<string, AbstractAnswer>;
  private readonly inFlight = new Map<string, Promise<AbstractAnswer>>();

  constructor(
    private readonly client: CatalogueClient,
    cacheSize: number,
  ) {
    this.cache = new LRUCache<string, AbstractAnswer>({ max: Math.max(1, cacheSize), ttl: HIT_TTL_MS });
  }

  /** The abstract of a frame work (id already validated and known to be in the build). */
  async forWork(build: Build, id: string): Promise<AbstractAnswer> {
    const [screened] = await rows<{ abstract: string | null }>(build, `SELECT abstract FROM screened WHERE work_id = ${lit(id)} AND abstract <> ''`);
    if (screened?.abstract) return { abstract: screened.abstract, abstract_source: 'screening_record' };
    // A generated work's id may name an unrelated real work in the catalogue: never fetch (and show) its abstract.
    if (build.manifest.snapshot.synthetic)
      return unavailable('synthetic_snapshot', 'this snapshot is generated sample data: its works are not real, so no abstract is fetched for them');
    const cached = this.cache.get(id);
    if (cached) return cached;
    let pending = this.inFlight.get(id);
    if (!pending) {
      pending = this.fetch(id).finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, pending);
    }
    return pending;
  }

  private async fetch(id: string): Promise<AbstractAnswer> {
    let answer: AbstractAnswer;
    let ttl = HIT_TTL_MS;
    try {
      const body = await this.client.work(id, ['id', 'abstract_inverted_index']);
      if (body === null) {
        answer = unavailable('not_in_catalogue', `the catalogue has no work ${id} (it may have been merged or withdrawn since the frame was pinned)`);
      } else {
        const parsed = upstreamWork.safeParse(body);
        if (!parsed.success) {
          answer = unavailable('upstream_invalid', `the catalogue's record of ${id} has an unreadable abstract index`);
          ttl = FAILURE_TTL_MS;
        } else {
          const text = restoreAbstract(parsed.data.abstract_inverted_index);
          answer =
            text === null
              ? unavailable('no_abstract_upstream', `the catalogue holds no abstract for ${id}`)
              : { abstract: text, abstract_source: 'openalex_live' };
        }
      }
    } catch (err) {
      if (!(err instanceof CatalogueError)) throw err;
      ttl = FAILURE_TTL_MS;
      const reason = err.kind === 'timeout' ? 'upstream_timeout' : err.kind === 'invalid' ? 'upstream_invalid' : 'upstream_error';
      answer = unavailable(reason, `${err.message}; the work record is complete without it`);
    }
    this.cache.set(id, answer, { ttl });
    return answer;
  }
}

function unavailable(reason: (typeof ABSTRACT_UNAVAILABLE)[number], message: string): AbstractAnswer {
  return { abstract: null, abstract_source: null, abstract_unavailable: { reason, message } };
}
