// Types for on-demand pages: the Express app passes its dependencies as Astro locals.
/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    deps?: import('../api/publications/render-capture.ts').PageDeps;
    /** The server's own GETs of its API, for the examples on /docs/api. */
    callApi?: import('../api/publications/render-capture.ts').ApiCaller;
    /** What /account shows, decided by the sign-in routes (api/access/account-routes.ts). */
    account?: import('../api/access/account-view.ts').AccountPageLocals;
  }
}
