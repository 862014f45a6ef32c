// The site is static-first: every page is prerendered into dist/client and served by the API
// process (or a CDN). The node adapter in middleware mode renders the few on-demand pages
// (`export const prerender = false`) inside the same Express app.
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import { BUILD_ORIGIN } from './api/platform/static/build-origin.ts';
import { satteri } from '@astrojs/markdown-satteri';
import { tableBoxes } from './site/lib/table-boxes-plugin.ts';
import { docsLinks } from './site/lib/docs-links-plugin.ts';
import { contentStoreFile } from './site/lib/content-store-file-plugin.ts';

export default defineConfig({
  // A placeholder: the server writes its running BASE_URL in its place when it loads the built files
  // (api/platform/static/build-origin.ts), so the build never depends on where the site is served.
  site: BUILD_ORIGIN,
  srcDir: './site',
  // MDS_SITE_OUT_DIR: tests build fixture sites elsewhere so dist/ stays the real site.
  outDir: process.env.MDS_SITE_OUT_DIR ?? './dist',
  ...(process.env.MDS_SITE_CACHE_DIR ? { cacheDir: process.env.MDS_SITE_CACHE_DIR } : {}),
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // Astro 7's default ('jsx') drops the whitespace at a line break before an inline element, so
  // "readable\n<a>OpenAPI</a>" became "readable<a>OpenAPI". HTML-aware compression keeps one space.
  compressHTML: true,
  telemetry: false,
  // Markdown tables in boxes named for screen readers, their cells labelled for the phone's card layout;
  // links between the documents of docs/ (written as file names) to their pages under /docs.
  markdown: { processor: satteri({ hastPlugins: [tableBoxes, docsLinks] }) },
  // The content collections' store as a file beside the server bundle, not a string in its code.
  vite: { plugins: [contentStoreFile()] },
});
