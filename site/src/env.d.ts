/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Set by api-dynamic for server-rendered pages: the manifest of the build being served. */
    manifest?: import('../../contracts/common/build-manifest.ts').BuildManifest;
    /** Set by api-dynamic: resolves a cohort permalink (null when unknown). */
    permalink?: (hash: string) => Promise<import('../../contracts/frame/responses.ts').PermalinkView | null>;
  }
}
