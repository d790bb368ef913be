// Views split off the chats page's first bundle (its gzip budget is in bench/client/bundle.ts): React.lazy with a
// preload() that fetches the chunk ahead of need (the call views once the realtime connection is up, the lightbox
// when images are on screen). A view whose chunk is already here renders at once, with no Suspense fallback in
// between. A chunk that fails to load (offline, a deploy replaced it) shows «Не удалось загрузить раздел» with
// «Повторить», which asks for the chunk again; the rest of the page keeps working.
import { Component, type ComponentType, type JSX, lazy, type ReactNode, useState } from 'react';

export interface LazyView<P> {
  (props: P): JSX.Element;
  /** Fetches the chunk; never rejects (a failed fetch is tried again on the next preload, render or retry). */
  preload(): Promise<void>;
  /** Whether the chunk is here, so the view renders without a fallback. */
  isLoaded(): boolean;
}

/** A lazy view's chunk could not be fetched; only this error shows the retry, any other goes on up. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A lazily loaded view could not be fetched', { cause });
    this.name = 'ChunkLoadError';
  }
}

/** Runs a load now or once the first screen has painted (main.tsx sets it; at once until then, and in tests). */
type Deferrer = <T>(load: () => Promise<T>) => Promise<T>;
let deferrer: Deferrer = (load) => load();

/** How views marked `afterFirstPaint` are fetched (main.tsx: src/services/app/first-paint.ts). */
export function deferLazyViews(run: Deferrer): void {
  deferrer = run;
}

export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: {
    /**
     * Nothing the chat list needs to show (the view renders nothing until it has something to say): on a load of
     * the list, fetched once the list has painted.
     */
    afterFirstPaint?: boolean;
  } = {},
): LazyView<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchChunk = () => {
    loading ??= (options.afterFirstPaint ? deferrer(load) : load()).then(
      (component) => (loaded = component),
      (err: unknown) => {
        loading = null;
        throw err;
      },
    );
    return loading;
  };
  const makeLazy = () =>
    lazy(() =>
      fetchChunk().then(
        (component) => ({ default: component }),
        (err: unknown) => {
          throw new ChunkLoadError(err);
        },
      ),
    ) as unknown as ComponentType<P>;
  let Lazy = makeLazy();
  // React.lazy keeps a rejected load for good, so once the failure is on screen the next mount or retry gets a
  // wrapper of its own. (Not at the rejection itself: a view that suspended on its first mount is mounted afresh
  // when the load settles, and would then start another fetch at once, and another, without end.)
  const renew = () => {
    Lazy = makeLazy();
  };
  function View(props: P) {
    // Chosen once per mount (switching from the lazy wrapper to the loaded component would remount the view), and
    // again on a retry after a failed load.
    const [Shown, setShown] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return (
      <ChunkErrorBoundary onFailed={renew} onRetry={() => setShown(() => loaded ?? Lazy)}>
        <Shown {...props} />
      </ChunkErrorBoundary>
    );
  }
  return Object.assign(View, {
    preload: () =>
      fetchChunk().then(
        () => undefined,
        () => undefined,
      ),
    isLoaded: () => loaded !== null,
  });
}

interface BoundaryProps {
  children: ReactNode;
  /** Called once the failure is shown. */
  onFailed(): void;
  /** Called before the view is rendered again: the view's owner picks a fresh lazy wrapper. */
  onRetry(): void;
}

/** Catches a failed chunk load below it; shows what happened and «Повторить». */
class ChunkErrorBoundary extends Component<BoundaryProps, { failed: unknown }> {
  state = { failed: null as unknown };

  static getDerivedStateFromError(failed: unknown) {
    return { failed };
  }

  componentDidCatch(error: unknown) {
    if (error instanceof ChunkLoadError) this.props.onFailed();
  }

  retry = () => {
    this.props.onRetry();
    this.setState({ failed: null });
  };

  render() {
    const { failed } = this.state;
    const { children } = this.props;
    if (!failed) return children;
    if (!(failed instanceof ChunkLoadError)) throw failed; // a bug in the view itself: not ours to hide
    return <ChunkFailed onRetry={this.retry} />;
  }
}

/** «Не удалось загрузить раздел.» with «Повторить»: code that could not be fetched (also used outside lazyView). */
export function ChunkFailed(props: { onRetry(): void }) {
  return (
    <div className="chunk-error" role="alert">
      <p>Не удалось загрузить раздел.</p>
      <button type="button" className="button primary" onClick={props.onRetry}>
        Повторить
      </button>
    </div>
  );
}

/** The fallback of a page that is still loading: visible, and announced politely. */
export function PageLoading() {
  return (
    <p className="placeholder" role="status">
      Загружаем…
    </p>
  );
}
