/// <reference types="astro/client" />

declare namespace App {
  /**
   * Set by api-dynamic (plugins/site.ts) for server-rendered pages: the manifest of the build being served,
   * an in-process `api` call and the permalink resolver. Absent at build time (prerendered pages read
   * build-output/ through lib/build-output.ts instead), hence optional here.
   */
  interface Locals extends Partial<import('../../api-dynamic/src/plugins/site.ts').SiteLocals> {}
}
