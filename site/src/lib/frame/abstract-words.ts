/**
 * What a reader is told when a work's abstract cannot be shown, by the API's `abstract_unavailable.reason`.
 * The API's own message is for API clients (it may name the catalogue's URL or an internal error); the page
 * and the "Load the abstract" button show these sentences instead. One place for both.
 */
import type { ABSTRACT_UNAVAILABLE } from '../../../../contracts/frame/responses.ts';

type Reason = (typeof ABSTRACT_UNAVAILABLE)[number];

export const ABSTRACT_UNAVAILABLE_WORDS: Record<Reason, string> = {
  synthetic_snapshot: 'this is generated sample data, not a real work, so there is no abstract to fetch.',
  no_abstract_upstream: 'the catalogue holds no abstract for this work.',
  not_in_catalogue: 'the catalogue no longer has this work (it may have been merged or withdrawn since the frame was pinned).',
  upstream_timeout: 'the catalogue did not answer in time. Try again in a minute.',
  upstream_error: 'the catalogue could not be reached. Try again in a minute.',
  upstream_invalid: 'the catalogue sent an answer that could not be read. Try again later.',
};

/** The sentence for a reason (an unknown reason, from a newer API, gets a generic one). */
export function abstractUnavailableWords(reason: string | undefined): string {
  return (reason && ABSTRACT_UNAVAILABLE_WORDS[reason as Reason]) || 'none came back from the catalogue.';
}
