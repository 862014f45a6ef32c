// Turns our Markdown content and the generated market updates into search documents. Reads
// content/ directly (no Astro build needed), so the index can be rebuilt by sync on a server.
import { CONTENT_DIR, markdownHeadings, markdownToText, readArticles, readGlossary } from '../content/markdown.ts';
import type { Queryable } from '../platform/db/database.ts';
import { listMarketUpdates } from '../news/market-updates.ts';
import type { SearchDocumentInput } from './documents.ts';
import { giveWay } from '../platform/give-way.ts';
import { isoDay } from '../platform/dates.ts';

/** How many weeks of market updates the index holds (ten years; older weeks stay on the site). */
export const INDEXED_NEWS_WEEKS = 520;

/** Every glossary entry, article and learn page as a document, giving way between them (hundreds of bodies to turn into text). */
export async function contentDocuments(contentDir = CONTENT_DIR): Promise<SearchDocumentInput[]> {
  const documents: SearchDocumentInput[] = [];
  for (const entry of readGlossary(contentDir)) {
    await giveWay();
    const faqs = entry.data.faqs.map((faq) => `${faq.question} ${faq.answer}`).join('\n');
    documents.push({
      id: `glossary:${entry.slug}`,
      type: 'glossary',
      title: entry.data.term,
      path: `/glossary/${entry.slug}`,
      aliases: entry.data.aliases,
      summary: entry.data.definition,
      headings: [...markdownHeadings(entry.body), ...entry.data.faqs.map((faq) => faq.question)],
      body: `${markdownToText(entry.body)}\n${faqs}`,
      publishedOn: isoDay(entry.data.updated),
    });
  }
  for (const collection of ['articles', 'learn'] as const) {
    for (const entry of readArticles(contentDir, collection)) {
      await giveWay();
      documents.push({
        id: `${collection}:${entry.slug}`,
        // Research write-ups are their own type so `type=research` finds them; they live with articles.
        type: entry.data.category === 'research' ? 'research' : collection === 'articles' ? 'article' : 'learn',
        title: entry.data.title,
        path: `/${collection}/${entry.slug}`,
        aliases: entry.data.tags,
        summary: entry.data.description,
        headings: markdownHeadings(entry.body),
        body: markdownToText(entry.body),
        publishedOn: isoDay(entry.data.updated ?? entry.data.date),
      });
    }
  }
  return documents;
}

export async function marketUpdateDocuments(db: Queryable, weeks = INDEXED_NEWS_WEEKS): Promise<SearchDocumentInput[]> {
  const updates = await listMarketUpdates(db, { limit: weeks });
  return updates.map((update) => ({
    id: `news:${update.week}`,
    type: 'news' as const,
    title: update.title,
    path: update.path,
    aliases: ['market update', 'mortgage rates this week'],
    summary: update.summary,
    headings: [],
    body: update.paragraphs.join('\n'),
    publishedOn: update.week,
  }));
}
