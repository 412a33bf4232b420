import { createElement, type ReactNode } from 'react';

/** A chunk-load failure reloads the page once, at most once every 10 seconds (docs/product.md#messages-the-shopper-reads). */
export const RELOAD_KEY = 'claims-portal:chunk-reload-at';
export const RELOAD_INTERVAL_MS = 10_000;

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading chunk \S+ failed/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ChunkLoadError' || CHUNK_ERROR.test(error.message));
}

interface ReloadDeps {
  now: number;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
}

let reloading = false;

/** Reloads unless the last reload was less than 10 s ago; true when a reload is under way. */
export function reloadForChunkError(
  deps: ReloadDeps = { now: Date.now(), storage: window.sessionStorage, reload: () => window.location.reload() },
): boolean {
  if (reloading) return true;
  let last = 0;
  try {
    last = Number(deps.storage.getItem(RELOAD_KEY) ?? 0) || 0;
  } catch {
    // Storage disabled: without a way to remember, never loop; reload this once.
  }
  if (deps.now - last < RELOAD_INTERVAL_MS) return false;
  try {
    deps.storage.setItem(RELOAD_KEY, String(deps.now));
  } catch {
    return false;
  }
  reloading = true;
  deps.reload();
  return true;
}

/** Vite reports a failed preload of a lazy chunk's dependencies with this event. */
export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForChunkError()) event.preventDefault();
  });
}

type PageComponent = () => ReactNode;
type Lazy = PageComponent & { preload: () => Promise<void> };

/**
 * A route component loaded on demand (the router calls `preload` while it resolves the route, so there is
 * no flash). A chunk that fails to load reloads the page under the rule above, else the error page shows.
 */
export function lazyPage<M>(importer: () => Promise<M>, pick: (module: M) => PageComponent): Lazy {
  let component: PageComponent | null = null;
  let failure: unknown = null;
  let pending: Promise<void> | null = null;
  const preload = (): Promise<void> => {
    if (component) return Promise.resolve();
    pending ??= importer().then(
      (module) => {
        component = pick(module);
      },
      (error: unknown) => {
        pending = null;
        if (isChunkLoadError(error) && reloadForChunkError()) return new Promise<void>(() => undefined);
        failure = error;
        return undefined;
      },
    );
    return pending;
  };
  const LazyPage = (): ReactNode => {
    if (failure) {
      const error = failure;
      failure = null;
      throw error;
    }
    if (!component) throw preload();
    return createElement(component);
  };
  return Object.assign(LazyPage, { preload });
}
