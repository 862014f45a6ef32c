// The Markdown pipeline's plugin for tables (a hast plugin of Sätteri, Astro's Markdown processor,
// the successor of a rehype plugin): each table of an article, learn page or glossary entry goes in
// a box of its own that keyboard users can focus and screen readers announce by name (its caption,
// else the heading it stands under, else its number), and each body cell carries its column's
// header as `data-label`, so a table of three or more columns shows its rows as cards on a phone
// (class "cards", site/styles/global.css) instead of scrolling sideways.
import type { Element, ElementContent, Parents } from 'hast';
import { defineHastPlugin } from 'satteri';

/** Tables with at least this many columns become cards on a narrow screen. */
export const CARD_COLUMNS = 3;

const isElement = (node: ElementContent | undefined, ...tagNames: string[]): node is Element =>
  node?.type === 'element' && tagNames.includes(node.tagName);

/** Text of a hast node, spaces folded (what a screen reader would read). */
export function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  return node.children.map(textOf).join('').replace(/\s+/g, ' ').trim();
}

/** The text of the last heading (h1–h4) among the siblings before `index` in `parent`. */
export function headingBefore(parent: Readonly<Parents>, index: number): string | undefined {
  for (let at = index - 1; at >= 0; at -= 1) {
    const node = parent.children[at] as ElementContent | undefined;
    if (isElement(node, 'h1', 'h2', 'h3', 'h4')) return textOf(node) || undefined;
  }
  return undefined;
}

/**
 * The table, its body cells labelled by their column and marked as cards when wide, in its
 * named box. `number` is the table's place on the page (for a caption id or a last-resort name).
 */
export function boxTable(table: Readonly<Element>, heading: string | undefined, number: number): Element {
  const sections = table.children as ElementContent[];
  const headRow = sections
    .filter((child) => isElement(child, 'thead'))
    .flatMap((head) => (head as Element).children)
    .find((row) => isElement(row, 'tr'));
  const headers =
    headRow && isElement(headRow, 'tr')
      ? headRow.children.filter((cell) => isElement(cell, 'th', 'td')).map(textOf)
      : [];
  let name: Element['properties'] = { ariaLabel: heading ?? `Table ${number}` };
  const children = sections.map((section): ElementContent => {
    if (isElement(section, 'caption') && textOf(section) !== '') {
      const id = String(section.properties['id'] ?? `table-${number}-caption`);
      name = { ariaLabelledBy: [id] };
      return { ...section, properties: { ...section.properties, id } };
    }
    if (!isElement(section, 'tbody')) return section;
    return {
      ...section,
      children: section.children.map((row) => {
        if (!isElement(row, 'tr')) return row;
        let column = 0;
        return {
          ...row,
          children: row.children.map((cell) => {
            if (!isElement(cell, 'td', 'th')) return cell;
            const label = headers[column++];
            return label ? { ...cell, properties: { ...cell.properties, dataLabel: label } } : cell;
          }),
        };
      }),
    };
  });
  const className = [
    ...((table.properties['className'] as string[] | undefined) ?? []),
    ...(headers.length >= CARD_COLUMNS ? ['cards'] : []),
  ];
  return {
    type: 'element',
    tagName: 'div',
    properties: { className: ['table-scroll'], role: 'region', tabIndex: 0, ...name },
    children: [
      { ...table, properties: { ...table.properties, ...(className.length > 0 ? { className } : {}) }, children },
    ],
  };
}

export const tableBoxes = defineHastPlugin({
  name: 'table-boxes',
  before(_root, ctx) {
    ctx.data['tableCount'] = 0;
  },
  element: {
    filter: ['table'],
    visit(table, ctx) {
      const number = (ctx.data['tableCount'] as number) + 1;
      ctx.data['tableCount'] = number;
      const parent = ctx.parent(table);
      const index = ctx.indexOf(table);
      // A table inside a table is left as it is.
      if (isElement(parent as ElementContent, 'td', 'th')) return undefined;
      return boxTable(table, parent && index !== undefined ? headingBefore(parent, index) : undefined, number);
    },
  },
});
