// On-demand pages call the services through the app's dependencies (Astro.locals.deps). This runs
// one such call and turns a service error into a status and a message the page can show.
import type { CoreDeps } from '../../api/platform/core-deps.ts';
import { inWords } from './freshness.ts';

export type Live<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

export async function live<Deps extends Pick<CoreDeps, 'logger'>, T>(
  deps: Deps | undefined,
  work: (deps: Deps) => Promise<T> | T,
): Promise<Live<T>> {
  if (!deps)
    return { ok: false, status: 503, message: 'This page needs the running service; it is not available right now.' };
  try {
    return { ok: true, value: await work(deps) };
  } catch (error) {
    // The page bundle holds its own copy of the error classes, so `instanceof HttpError` would miss
    // the services' errors: recognise them by their HTTP status instead.
    const status = (error as { status?: unknown }).status;
    // Pages name the publisher's series, never our dataset ids ("the pmms dataset").
    if (typeof status === 'number' && status >= 400 && status < 500)
      return { ok: false, status, message: inWords((error as Error).message) };
    if (status === 503) return { ok: false, status, message: inWords((error as Error).message) };
    deps.logger.error({ err: error }, 'on-demand page failed');
    return { ok: false, status: 500, message: 'Something went wrong on our side; please try again.' };
  }
}

/** The request's query string as an object of single values (repeated keys keep the first). */
export function queryObject(url: URL): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in result) && value !== '') result[key] = value;
  return result;
}
