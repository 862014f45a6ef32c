// The site's frame and the files about it (see site/views/format.ts for why views exist): the header's
// and footer's links, the service catalog /ai-info-page and /llms.txt describe, and the origin and
// dates the feeds and robots.txt write.
export { FOOTER_LINKS, SITE_NAV, isCurrent } from '../../api/site-info/site-frame.ts';
export { serviceCatalog } from '../../api/site-info/catalog.ts';
export { BUILD_ORIGIN } from '../../api/platform/static/build-origin.ts';
export { lastBuildDateElement } from '../../api/platform/feed-dates.ts';
