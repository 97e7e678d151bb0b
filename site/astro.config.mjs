// The site: static pages by default (prerendered at build time from build-output/), plus a few pages with
// `export const prerender = false` that the node adapter renders at request time. The adapter runs in
// middleware mode: api-dynamic mounts its handler inside the one Fastify process.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import { docsLinks } from './src/lib/docs-links.ts';

export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  // scripts/build-site.ts passes SITE_DIR (from the server's configuration) so both agree on the location.
  outDir: process.env.SITE_DIR ?? '../build-output/site',
  // Tests build several sites at once: each gets its own cache so the builds do not write the same files.
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
  trailingSlash: 'ignore',
  build: {
    format: 'directory',
    // Styles and scripts as files, never inline: the pages then satisfy a content security policy without
    // 'unsafe-inline'.
    inlineStylesheets: 'never',
  },
  // The docs/ guides rendered under /docs: no syntax highlighting, which would write inline colours; links
  // between guides go to their pages.
  markdown: { syntaxHighlight: false, rehypePlugins: [docsLinks(new URL('../docs/', import.meta.url).pathname)] },
  vite: { build: { assetsInlineLimit: 0 } },
});
