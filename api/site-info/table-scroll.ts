// Every table on a page scrolls sideways inside its own box on a narrow screen instead of widening
// the page. The layout wraps each <table> of the page's HTML in a region that keyboard users can
// focus (and so scroll) and that screen readers announce by the table's name: its caption, its own
// aria-label, or else the heading it stands under.
const HEADING = /<h([1-4])\b[^>]*>([\s\S]*?)<\/h\1>/g;

function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The last heading's text before `offset` in `html`, or undefined. */
function headingBefore(html: string, offset: number): string | undefined {
  let text: string | undefined;
  for (const match of html.slice(0, offset).matchAll(HEADING)) text = plainText(match[2] ?? '') || text;
  return text;
}

/** `html` with each (non-nested) table inside `<div class="table-scroll" role="region" tabindex="0">`. */
export function wrapTables(html: string): string {
  let index = 0;
  return html.replace(/<table\b[\s\S]*?<\/table>/g, (table, offset: number) => {
    if (/<table\b/.test(table.slice(1))) return table; // a table inside a table: not wrapped
    index += 1;
    let wrapped = table;
    let name: string;
    const caption = /<caption\b([^>]*)>([\s\S]*?)<\/caption>/.exec(table);
    const ownLabel = /^<table\b[^>]*\baria-label="([^"]*)"/.exec(table)?.[1];
    if (caption && plainText(caption[2] ?? '') !== '') {
      let id = /\bid="([^"]+)"/.exec(caption[1] ?? '')?.[1];
      if (id === undefined) {
        id = `table-${index}-caption`;
        wrapped = table.replace(/<caption\b/, `<caption id="${id}"`);
      }
      name = `aria-labelledby="${id}"`;
    } else {
      name = `aria-label="${ownLabel ?? attribute(headingBefore(html, offset) ?? `Table ${index}`)}"`;
    }
    return `<div class="table-scroll" role="region" tabindex="0" ${name}>${wrapped}</div>`;
  });
}
