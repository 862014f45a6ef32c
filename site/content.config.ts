// Content collections: glossary, articles and learn pages from content/, validated by the shared zod
// schemas (api/content/schemas.ts), and the project's documentation from docs/. Bad front matter, or a
// related term that does not exist, fails `astro build`.
import { defineCollection, reference } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { articleSchema, glossaryFields } from '../api/content/schemas.ts';
import { DOC_SECTIONS } from './lib/doc-sections.ts';

// MDS_CONTENT_DIR points a build at another content folder (the tests build broken fixtures).
const root = process.env.MDS_CONTENT_DIR ?? './content';

const glossary = defineCollection({
  loader: glob({ pattern: '*.md', base: `${root}/glossary` }),
  schema: z.object({ ...glossaryFields, related: z.array(reference('glossary')).min(1) }).strict(),
});

const articles = defineCollection({
  loader: glob({ pattern: '*.md', base: `${root}/articles` }),
  schema: articleSchema,
});

const learn = defineCollection({
  loader: glob({ pattern: '*.md', base: `${root}/learn` }),
  schema: articleSchema,
});

// The documentation (docs/*.md, read as files in the repository too), served at /docs/<file name>.
// Each file says where the /docs index lists it: its section and its place there.
const docs = defineCollection({
  loader: glob({ pattern: '*.md', base: './docs' }),
  schema: z
    .object({
      title: z.string().min(1),
      description: z.string().min(1),
      section: z.enum(DOC_SECTIONS.map((section) => section.id) as [string, ...string[]]),
      order: z.number().int().min(1),
    })
    .strict(),
});

export const collections = { glossary, articles, learn, docs };
