// An RSS channel's <lastBuildDate>: when its content last changed, which for a feed written from
// dated items is the newest item's date (RFC 822, as RSS 2.0 wants), so the same items give the same
// bytes however often the feed is rendered. Nothing when it has no item.

export function lastBuildDateElement(dates: readonly Date[]): string {
  const newest = Math.max(...dates.map((date) => date.getTime()));
  return Number.isFinite(newest) ? `<lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>` : '';
}
