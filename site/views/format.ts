// The view layer (site/views): the one place the site's pages and components read the service's
// modules under api/. Each module serves one family of pages and turns service data into the typed
// values a page draws, so a page keeps its markup and one call to its view, and a change inside api/
// meets the site in these files instead of in every page. This one holds the dates every page prints.
export { isoDay, longDate as formatDate } from '../../api/platform/dates.ts';
