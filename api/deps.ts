// The whole app: the core dependencies and every service. Only the composition root (app, server,
// route and tool registration) holds it; every other module names the narrow part it uses.
import type { CoreDeps } from './platform/core-deps.ts';
import type { Services } from './services.ts';

export interface AppDeps extends CoreDeps {
  services: Services;
}
