// A lazily loaded view whose chunk fails to load (src/ui/shared/lazy-view.tsx) says so with «Повторить»; the retry asks
// for the chunk again (not React.lazy's remembered rejection) and shows the view once it is here. Errors of the
// view itself are not dressed up as a failed load.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component, type ReactNode, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lazyView, PageLoading } from './lazy-view';

const Section = (p: { name: string }) => <h2>Раздел: {p.name}</h2>;

/** A chunk load that fails the first `failures` times (as import() does offline), then gives the view. */
function flakyChunk(failures: number) {
  let attempts = 0;
  const load = vi.fn(async () => {
    attempts += 1;
    if (attempts <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return Section;
  });
  return load;
}

const inSuspense = (node: ReactNode) => <Suspense fallback={<PageLoading />}>{node}</Suspense>;

describe('lazy views: a chunk that fails to load', () => {
  // React reports every error a boundary catches on the console; the failures here are on purpose.
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows «Не удалось загрузить раздел» and «Повторить»; the retry fetches again and renders the view', async () => {
    const load = flakyChunk(1);
    const View = lazyView(load);
    render(inSuspense(<View name="контакты" />));
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось загрузить раздел');
    expect(screen.queryByRole('heading')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByRole('heading', { name: 'Раздел: контакты' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
    expect(View.isLoaded()).toBe(true);
  });

  it('a retry that fails again offers the retry again; a later mount tries afresh too', async () => {
    const load = flakyChunk(3);
    const View = lazyView(load);
    const first = render(inSuspense(<View name="звонки" />));
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(await screen.findByRole('button', { name: 'Повторить' })).toBeInTheDocument();
    first.unmount();

    render(inSuspense(<View name="звонки" />)); // e.g. the page opened again later
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(3));
    await userEvent.click(await screen.findByRole('button', { name: 'Повторить' }));
    expect(await screen.findByRole('heading', { name: 'Раздел: звонки' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(4); // each attempt fetched once: no retries behind the reader's back
  });

  it('a failed preload does not stick: the render fetches again', async () => {
    const load = flakyChunk(1);
    const View = lazyView(load);
    await View.preload(); // never rejects
    expect(View.isLoaded()).toBe(false);
    render(inSuspense(<View name="настройки" />));
    expect(await screen.findByRole('heading', { name: 'Раздел: настройки' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('an error thrown by the loaded view goes on to the next boundary, with no «Повторить»', async () => {
    const Broken = (): ReactNode => {
      throw new Error('bug in the view');
    };
    const View = lazyView(async () => Broken);
    class Outer extends Component<{ children: ReactNode }, { error: string | null }> {
      state = { error: null as string | null };
      static getDerivedStateFromError(e: Error) {
        return { error: e.message };
      }
      render() {
        return this.state.error ? <p>Выше: {this.state.error}</p> : this.props.children;
      }
    }
    render(<Outer>{inSuspense(<View />)}</Outer>);
    expect(await screen.findByText('Выше: bug in the view')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Повторить' })).toBeNull();
  });
});
