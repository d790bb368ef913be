// The app's address as a service the navigation actor uses: where the router is, its changes, and going somewhere.
// The browser's is the data router main.tsx renders (react-router's createBrowserRouter); tests and a runtime
// without a page get an in-memory one.
export interface RouterService {
  /** The current path. */
  path(): string;
  /** Calls `listener` with each new path. */
  subscribe(listener: (path: string) => void): () => void;
  go(path: string, options?: { replace?: boolean }): void;
  back(): void;
}

/** A history kept in memory (tests, a runtime without a page). */
export function memoryRouter(initial = '/'): RouterService & { entries(): string[] } {
  const entries = [initial];
  let index = 0;
  const listeners = new Set<(path: string) => void>();
  const tell = () => {
    for (const l of [...listeners]) l(entries[index] as string);
  };
  return {
    path: () => entries[index] as string,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    go(path, options) {
      if (options?.replace) entries[index] = path;
      else {
        entries.splice(index + 1, entries.length, path);
        index += 1;
      }
      tell();
    },
    back() {
      if (index === 0) return;
      index -= 1;
      tell();
    },
    entries: () => entries.slice(0, index + 1),
  };
}

/** react-router's navigate function (useNavigate's result): to a path, or back by -1. */
export interface Navigate {
  (to: string, options?: { replace?: boolean }): void;
  (delta: number): void;
}

/**
 * The router the page renders, reached through <RouterBridge /> (src/ui/app/RouterBridge.tsx), which reports each
 * location and hands over react-router's navigate. The declarative router (BrowserRouter) keeps the first bundle
 * small: a data router would add ≈ 16 KB gzip to it.
 */
export interface BridgedRouter extends RouterService {
  /** The bridge: the page's current path and its navigate. */
  attach(path: string, navigate: Navigate): void;
  /** The page's router is at a new path. */
  moved(path: string): void;
}

export function bridgedRouter(initial: string): BridgedRouter {
  let current = initial;
  let navigate: Navigate | null = null;
  const listeners = new Set<(path: string) => void>();
  const moved = (path: string) => {
    if (path === current) return;
    current = path;
    for (const l of [...listeners]) l(path);
  };
  return {
    path: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    go: (path, options) => navigate?.(path, { replace: options?.replace ?? false }),
    back: () => navigate?.(-1),
    attach(path, nav) {
      navigate = nav;
      moved(path);
    },
    moved,
  };
}
