// The open conversation's machines are a chunk of their own (the registry line 'conversation'): a conversation
// opened before that chunk is here waits for it, and one that cannot be fetched offers «Повторить». The chunk is
// held back and failed here through a mock of its module.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appEffects } from '../app/app-effects';
import { createRuntime } from '../../machines/app/runtime';
import type { Services } from '../app/services';
import type { ApiClient } from '../app/api';
import { RuntimeProvider } from '../../ui/app/RuntimeContext';
import { ChatsPage } from '../../ui/chats/ChatsPage';
import { deferred, never, quietSocket, storedSession, user } from '../../../tests/fixtures/session';
import { conversation, entry, message, person } from '../../../tests/client/chat-fixtures';

const chunk = vi.hoisted(() => ({ fail: true, gate: null as Promise<void> | null, open: () => {} }));
vi.mock('./conversation.effects', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./conversation.effects')>();
  await chunk.gate;
  return {
    wireConversation: (s: Services) => {
      if (chunk.fail) throw new Error('the chunk could not be fetched');
      return actual.wireConversation(s);
    },
  };
});

const me = { ...person(user.id, user.displayName), eblid: user.eblid };
const direct = conversation('c1', [me, person('u2', 'Борис')], { messages: [message('m1', 'u2', 1)] });

const api: ApiClient = {
  call: (async (name: string) => {
    if (name === 'conversations') return { conversations: [entry(direct)] };
    if (name === 'messages') return { messages: [message('m1', 'u2', 1)], hasMore: false };
    if (name === 'markRead') return { ok: true };
    return never();
  }) as ApiClient['call'],
};

afterEach(() => localStorage.clear());

describe("the conversation's machines on demand", () => {
  it('an opening waits for them; a failed fetch shows «Повторить», which fetches them again', async () => {
    const gate = deferred<void>();
    chunk.gate = gate.promise;
    const runtime = createRuntime({
      effects: appEffects,
      stored: storedSession,
      services: { api, connectSocket: () => quietSocket(), ping: () => never() },
    });
    render(
      <RuntimeProvider app={runtime.app}>
        <MemoryRouter>
          <ChatsPage />
        </MemoryRouter>
      </RuntimeProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: /Борис/ }));
    // Still on their way: the conversation is not drawn (nor an error).
    expect(screen.queryByRole('heading', { name: 'Борис' })).toBeNull();
    expect(screen.queryByText('Не удалось загрузить раздел.')).toBeNull();

    gate.resolve();
    const retry = await screen.findByRole('button', { name: 'Повторить' }, { timeout: 15_000 });
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось загрузить раздел.');

    chunk.fail = false;
    await userEvent.click(retry);
    // The pane's own chunks are transformed by Vite on first use: slow on a busy machine.
    expect(await screen.findByRole('heading', { name: 'Борис' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.queryByText('Не удалось загрузить раздел.')).toBeNull();
  }, 30_000);
});
