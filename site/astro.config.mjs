// The site: static pages by default (prerendered at build time from build-output/), plus a few pages with
// `export const prerender = false` that the node adapter renders at request time. The adapter runs in
// middleware mode: api-dynamic mounts its handler inside the one Fastify process.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  // scripts/build-site.ts passes SITE_DIR (from the server's configuration) so both agree on the location.
  outDir: process.env.SITE_DIR ?? '../build-output/site',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  telemetry: false,
});
