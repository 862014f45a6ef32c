// Types for on-demand pages: the Express app passes its dependencies as Astro locals.
/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    deps?: import('../api/deps.ts').AppDeps;
  }
}
