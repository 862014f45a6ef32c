// The front matter of the site's articles, guides and glossary terms (see site/views/format.ts for why
// views exist): its schemas are the server's (api/content/schemas.ts), which reads the same files.
export type { ArticleFrontMatter, GlossaryFrontMatter } from '../../api/content/schemas.ts';
