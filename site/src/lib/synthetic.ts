/**
 * Whether the build a page shows is generated sample data (the snapshot manifest's `synthetic` flag, carried
 * into the build manifest). One rule for every page: a synthetic build shows a banner and links no identifier
 * (PMC, DOI, ORCID, the catalogue) outward, since a made-up id may name an unrelated real record.
 */
import type { BuildManifest } from '../../../contracts/common/build-manifest.ts';
import { currentManifest } from './build-output.ts';

/**
 * The manifest of the build a page shows: the served build for a server-rendered page (locals), the one read
 * at build time for a static page.
 */
export function pageManifest(locals: App.Locals): BuildManifest | null {
  return locals.manifest ?? currentManifest();
}

/** True unless the build is known to be of real records: without a manifest nothing can vouch for the ids. */
export function isSynthetic(locals: App.Locals): boolean {
  return pageManifest(locals)?.snapshot.synthetic ?? true;
}

/** An outbound link to a record's identifier, or null on a synthetic build (the id is shown as text instead). */
export function outboundLink(locals: App.Locals, url: string | null | undefined): string | null {
  return url && !isSynthetic(locals) ? url : null;
}
