// The send preview's code comes in its own chunk (registry `load`): files picked before it is here (a quick user, a
// slow phone) are handed to the actor when it comes, not dropped. The chunk is held back through a mock of its module.
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, never, quietSocket, storedSession } from '../../../tests/fixtures/session';
import { appEffects } from '../../services/app/app-effects';
import { createRuntime } from '../../machines/app/runtime';
import type { ApiClient } from '../../services/app/api';
import { RuntimeProvider } from '../app/RuntimeContext';
import { useSendPreview } from './useSendPreview';

const chunk = vi.hoisted(() => ({ gate: null as Promise<void> | null }));
vi.mock('../../machines/composer/sendPreview/sendPreview.machine', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../machines/composer/sendPreview/sendPreview.machine')>();
  await chunk.gate;
  return actual;
});

const api: ApiClient = { call: (async () => never()) as ApiClient['call'] };

function Probe({ onView }: { onView: (v: ReturnType<typeof useSendPreview>) => void }) {
  const view = useSendPreview();
  onView(view);
  return <p data-testid="preview">{view.open ? view.files.map((f) => f.name).join(',') : 'closed'}</p>;
}

afterEach(() => localStorage.clear());

describe('the send preview before its code is here', () => {
  it('keeps a file picked meanwhile and opens with it once the actor comes', async () => {
    const gate = deferred<void>();
    chunk.gate = gate.promise;
    const runtime = createRuntime({
      effects: appEffects,
      stored: storedSession,
      services: { api, connectSocket: () => quietSocket(), ping: () => never() },
    });
    let view: ReturnType<typeof useSendPreview> | null = null;
    render(
      <RuntimeProvider app={runtime.app}>
        <Probe onView={(v) => (view = v)} />
      </RuntimeProvider>,
    );
    const file = new File(['x'], 'отчёт.pdf', { type: 'application/pdf' });
    act(() => view?.add([file]));
    expect(screen.getByTestId('preview')).toHaveTextContent('closed');
    await act(async () => gate.resolve());
    expect(await screen.findByText('отчёт.pdf', {}, { timeout: 10_000 })).toBeInTheDocument();
  }, 20_000);
});
