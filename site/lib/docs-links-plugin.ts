// The Markdown pipeline's plugin for links between the documents of docs/: they link each other by
// file name (`[Data sync](data-sync.md#dataset-versions)`), which works where the files are read as
// files (a repository browser, an editor), and the site serves each at /docs/<name>. A relative link
// to a sibling `.md` file becomes that page's address, its fragment kept; every other link is left
// as written.
import type { Element } from 'hast';
import { defineHastPlugin } from 'satteri';

const SIBLING_DOCUMENT = /^(?:\.\/)?([a-z0-9]+(?:-[a-z0-9]+)*)\.md(#[^\s]*)?$/;

/** The site address of a link to a sibling document, or undefined for any other link. */
export function docsHref(href: string): string | undefined {
  const match = SIBLING_DOCUMENT.exec(href);
  return match ? `/docs/${match[1] ?? ''}${match[2] ?? ''}` : undefined;
}

export const docsLinks = defineHastPlugin({
  name: 'docs-links',
  element: {
    filter: ['a'],
    visit(link: Element) {
      const href = link.properties['href'];
      const target = typeof href === 'string' ? docsHref(href) : undefined;
      return target === undefined ? undefined : { ...link, properties: { ...link.properties, href: target } };
    },
  },
});
