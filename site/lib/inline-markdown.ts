// The inline Markdown that our one-line texts use (route and parameter descriptions, tool
// descriptions): `code`, **strong** and [text](link), as HTML with everything else escaped. Single
// `*`/`_` emphasis is left alone on purpose: identifiers such as market_overview are common in these
// texts and must stay as written.
import escapeHtml from 'escape-html';

/** Links may go to this site (`/path`, `#anchor`) or to http(s) addresses; anything else stays text. */
function safeHref(href: string): string | undefined {
  return /^(https?:\/\/|\/|#)/.test(href) ? href : undefined;
}

function renderEmphasisAndLinks(text: string): string {
  let html = '';
  const pattern = /\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    html += escapeHtml(text.slice(last, match.index));
    const [whole, strong, label, href] = match;
    if (strong !== undefined) html += `<strong>${escapeHtml(strong)}</strong>`;
    else {
      const target = safeHref(href ?? '');
      html +=
        target === undefined ? escapeHtml(whole) : `<a href="${escapeHtml(target)}">${escapeHtml(label ?? '')}</a>`;
    }
    last = match.index + whole.length;
  }
  return html + escapeHtml(text.slice(last));
}

/** One line of inline Markdown as HTML. Code spans are taken first, so nothing inside them renders. */
export function inlineMarkdownToHtml(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) {
    html += renderEmphasisAndLinks(text.slice(last, match.index));
    html += `<code>${escapeHtml((match[2] ?? '').replace(/^ (.*) $/s, '$1'))}</code>`;
    last = match.index + match[0].length;
  }
  return html + renderEmphasisAndLinks(text.slice(last));
}
