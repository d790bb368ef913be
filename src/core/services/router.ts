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

/** What a react-router data router offers (createBrowserRouter's result). */
interface DataRouter {
  state: { location: { pathname: string } };
  subscribe(fn: (state: { location: { pathname: string } }) => void): () => void;
  navigate(to: string | number, opts?: { replace?: boolean }): Promise<void> | void;
}

export function dataRouterService(router: DataRouter): RouterService {
  return {
    path: () => router.state.location.pathname,
    subscribe(listener) {
      let last = router.state.location.pathname;
      return router.subscribe((state) => {
        if (state.location.pathname === last) return;
        last = state.location.pathname;
        listener(last);
      });
    },
    go: (path, options) => void router.navigate(path, { replace: options?.replace ?? false }),
    back: () => void router.navigate(-1),
  };
}
