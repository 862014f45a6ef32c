// The front matter of our own content (content/glossary, content/articles, content/learn), as zod
// schemas shared by the Astro content collections (which fail the build on bad front matter) and
// the search indexer (which reads the same files at run time without the Astro build).
import { z } from 'zod';

export const GLOSSARY_CATEGORIES = [
  'rates',
  'costs',
  'loan-types',
  'process',
  'credit',
  'escrow-insurance',
  'regulation',
  'property',
  'data',
] as const;

export const ARTICLE_CATEGORIES = ['buying', 'refinancing', 'loan-types', 'costs', 'credit', 'escrow', 'rates', 'research', 'data'] as const;

/** A content slug is the file name: lower-case words joined by hyphens. */
export const slugSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lower-case slug such as "escrow-cushion"');

/** An outside source (https) or a page of this site (a path starting with "/"). */
const linkUrl = z.string().refine((value) => /^https?:\/\/[^\s]+$/.test(value) || /^\/[^\s]*$/.test(value), {
  message: 'must be an http(s) URL or a site path starting with "/"',
});

const nonEmpty = z.string().trim().min(1);

export const glossaryFields = {
  term: nonEmpty,
  aliases: z.array(nonEmpty).default([]),
  definition: nonEmpty,
  category: z.enum(GLOSSARY_CATEGORIES),
  faqs: z.array(z.object({ question: nonEmpty, answer: nonEmpty }).strict()).min(1).max(3),
  links: z.array(z.object({ title: nonEmpty, url: linkUrl }).strict()).min(1).max(3),
  updated: z.coerce.date(),
};

/** Glossary front matter with `related` as plain slugs (the Astro schema swaps in `reference`). */
export const glossarySchema = z.object({ ...glossaryFields, related: z.array(slugSchema).min(1) }).strict();

export const articleSchema = z
  .object({
    title: nonEmpty,
    description: nonEmpty,
    author: nonEmpty,
    date: z.coerce.date(),
    updated: z.coerce.date().optional(),
    tags: z.array(nonEmpty),
    category: z.enum(ARTICLE_CATEGORIES),
  })
  .strict();

export type GlossaryFrontMatter = z.infer<typeof glossarySchema>;
export type ArticleFrontMatter = z.infer<typeof articleSchema>;
export type GlossaryCategory = (typeof GLOSSARY_CATEGORIES)[number];
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];
