// Views split off the chats page's initial bundle (issue 13, 150 KB budget): React.lazy with a preload() that
// fetches the chunk ahead of need (the call views once the realtime connection is up, the lightbox when images
// are on screen). A view whose chunk is already here renders at once, with no Suspense fallback in between.
import { type ComponentType, type JSX, lazy, useState } from 'react';

export interface LazyView<P> {
  (props: P): JSX.Element;
  /** Fetches the chunk; never rejects (a failed fetch is tried again on the next preload or render). */
  preload(): Promise<void>;
  /** Whether the chunk is here, so the view renders without a fallback. */
  isLoaded(): boolean;
}

export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): LazyView<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchChunk = () => {
    loading ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        loading = null;
        throw err;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => fetchChunk().then((component) => ({ default: component })));
  function View(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component would remount the view.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return <Component {...props} />;
  }
  return Object.assign(View, {
    preload: () => fetchChunk().then(
      () => undefined,
      () => undefined,
    ),
    isLoaded: () => loaded !== null,
  });
}

/** The fallback of a page that is still loading: visible, and announced politely. */
export function PageLoading() {
  return (
    <p className="placeholder" role="status">
      Загружаем…
    </p>
  );
}
