// The chats page through the real composition root (app actor, wiring, hooks) with only the REST client and the
// socket replaced: what the page asks of the server, and the outbox kept in localStorage across a restart.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { appEffects } from '../app/app-effects';
import { createRuntime } from '../../machines/app/runtime';
import type { ChatsActorRef } from '../../machines/chats/chats/chats.machine';
import type { ComposerActorRef } from '../../machines/composer/composer/composer.machine';
import type { ConversationActorRef } from '../../machines/conversation/conversation/conversation.machine';
import type { ApiClient } from '../app/api';
import { ChatsPage } from '../../ui/chats/ChatsPage';
import { RuntimeProvider } from '../../ui/app/RuntimeContext';
import { never, quietSocket, storedSession, user } from '../../../tests/fixtures/session';
import { conversation, entry, message, person } from '../../../tests/client/chat-fixtures';

const me = { ...person(user.id, user.displayName), eblid: user.eblid };
const boris = person('u2', 'Борис', { status: 'ONLINE' });
const direct = conversation('c1', [me, boris], { messages: [message('m1', 'u2', 1)] });

type Call = [string, unknown];
function fakeApi(
  calls: Call[],
  options: { failSend?: () => boolean; answer?: (name: string) => unknown } = {},
): ApiClient {
  return {
    call: (async (name: string, o: { body?: unknown; query?: unknown; params?: unknown } = {}) => {
      calls.push([
        name,
        o.body ?? (o.params ? { ...(o.params as object), ...(o.query as object) } : (o.query ?? null)),
      ]);
      const answer = options.answer?.(name);
      if (answer !== undefined) return answer;
      switch (name) {
        case 'conversations':
          return { conversations: [entry(direct, 2)] };
        case 'messages':
          return { messages: [message('m1', 'u2', 1)], hasMore: false };
        case 'markRead':
          return { ok: true };
        case 'send': {
          if (options.failSend?.()) throw new TypeError('Failed to fetch');
          const body = o.body as { content: string; clientMessageId: string; conversationId: string };
          return {
            message: message('m2', user.id, 2, { content: body.content, clientMessageId: body.clientMessageId }),
          };
        }
        default:
          return never();
      }
    }) as ApiClient['call'],
  };
}

function renderChats(api: ApiClient, socketId?: string) {
  const runtime = createRuntime({
    effects: appEffects,
    stored: storedSession,
    baseURL: '/api',
    services: {
      api,
      connectSocket: () => quietSocket(),
      ping: () => never(),
      ...(socketId ? { socketId: () => socketId } : {}),
    },
  });
  const view = render(
    <RuntimeProvider app={runtime.app}>
      <MemoryRouter>
        <ChatsPage />
      </MemoryRouter>
    </RuntimeProvider>,
  );
  const chats = runtime.app.system.get('chats') as ChatsActorRef;
  const composer = () => runtime.app.system.get('composer') as ComposerActorRef;
  /** The open conversation's actor (the chats actor's loader's child). */
  const openConversation = () =>
    chats.getSnapshot().children.loader?.getSnapshot().children.conversation as unknown as ConversationActorRef;
  const outbox = () => {
    const ref = composer().getSnapshot().children.outbox;
    if (!ref) throw new Error('no outbox');
    return ref;
  };
  return { runtime, view, chats, composer, outbox, openConversation };
}

afterEach(() => localStorage.clear());

describe('chats page wired to the app actor', () => {
  it('lists conversations, opens one (history, mark read), and sends with a clientMessageId', async () => {
    const calls: Call[] = [];
    const { chats, view, openConversation } = renderChats(fakeApi(calls));
    const tile = await screen.findByRole('button', { name: /Борис/ });
    expect(within(tile).getByTestId('chat-tile-subtitle')).toHaveTextContent('2 непрочитанных');
    expect(screen.getByText('Выберите чат')).toBeInTheDocument();

    await userEvent.click(tile);
    // The pane and the conversation's views are chunks of their own: on a busy machine Vite's first transform of
    // them takes longer than findBy's default second.
    expect(await screen.findByRole('heading', { name: 'Борис' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByTestId('conversation-status')).toHaveTextContent('ОНЛАЙН');
    await waitFor(() => expect(calls).toContainEqual(['messages', { id: 'c1', limit: 50 }]));
    expect(calls).toContainEqual(['markRead', { conversationId: 'c1' }]);
    expect(within(tile).getByTestId('chat-tile-subtitle')).toHaveTextContent('ОНЛАЙН');
    // The unread count it was opened with places «Непрочитанные сообщения» above the first unread message.
    expect(openConversation().getSnapshot().context.unreadFrom).toBe('m1');

    await userEvent.type(screen.getByPlaceholderText('Напишите сообщение...'), '  Привет, Борис!  {Enter}');
    await waitFor(() => expect(calls.find(([n]) => n === 'send')).toBeDefined());
    const [, body] = calls.find(([n]) => n === 'send')!;
    expect(body).toMatchObject({ conversationId: 'c1', type: 'TEXT', content: 'Привет, Борис!', replyToId: null });
    expect((body as { clientMessageId: string }).clientMessageId).toMatch(/^[0-9a-f]{16}-1$/);
    expect(screen.getByPlaceholderText('Напишите сообщение...')).toHaveValue('');
    // The answer reaches the conversation and the list.
    const conversation = openConversation();
    await waitFor(() => expect(conversation.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m1', 'm2']));
    expect(chats.getSnapshot().context.entries[0].conversation.messages[0].id).toBe('m2');
    view.unmount();
  });

  it('names this tab’s socket when it marks read, so the server tells only the reader’s other tabs', async () => {
    const calls: Call[] = [];
    const { view } = renderChats(fakeApi(calls), 'tab-socket-1');
    await userEvent.click(await screen.findByRole('button', { name: /Борис/ }));
    await waitFor(() => expect(calls).toContainEqual(['markRead', { conversationId: 'c1', socketId: 'tab-socket-1' }]));
    view.unmount();
  });

  it('an answer without its list (a proxy page) is a failed fetch: nothing breaks, the next fetch shows the list', async () => {
    const calls: Call[] = [];
    let proxyPage = true;
    const html = '<html><body>502 Bad Gateway</body></html>';
    const { chats, view, openConversation } = renderChats(
      fakeApi(calls, {
        answer: (name) =>
          proxyPage
            ? name === 'conversations'
              ? html
              : name === 'messages'
                ? { hasMore: false }
                : undefined
            : undefined,
      }),
    );
    await waitFor(() => expect(chats.getSnapshot().matches({ active: { list: 'idle' } })).toBe(true));
    expect(chats.getSnapshot().context.entries).toEqual([]);
    expect(screen.queryByRole('button', { name: /Борис/ })).toBeNull();

    proxyPage = false;
    chats.send({ type: 'chats.refresh' });
    const tile = await screen.findByRole('button', { name: /Борис/ });
    proxyPage = true;
    await userEvent.click(tile);
    expect(await screen.findByText('Не удалось загрузить сообщения.')).toBeInTheDocument();
    proxyPage = false;
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    await waitFor(() => expect(screen.queryByText('Не удалось загрузить сообщения.')).toBeNull());
    const conversation = openConversation();
    await waitFor(() => expect(conversation.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m1']));
    view.unmount();
  });

  it('keeps a failed send in localStorage; a restarted app shows it failed and sends it on retry', async () => {
    let offline = true;
    const calls: Call[] = [];
    const first = renderChats(fakeApi(calls, { failSend: () => offline }));
    await userEvent.click(await screen.findByRole('button', { name: /Борис/ }));
    await userEvent.type(await screen.findByPlaceholderText('Напишите сообщение...'), 'Из метро{Enter}');
    await waitFor(() => expect(first.outbox().getSnapshot().context.items[0]?.status).toBe('failed'));
    const stored = JSON.parse(localStorage.getItem(`beseda.outbox.${user.id}`) ?? '[]');
    expect(stored).toMatchObject([{ content: 'Из метро', status: 'failed', conversationId: 'c1' }]);
    first.runtime.app.stop();
    first.view.unmount();

    offline = false;
    const second = renderChats(fakeApi(calls));
    await waitFor(() => expect(second.outbox().getSnapshot().context.items).toHaveLength(1));
    const item = second.outbox().getSnapshot().context.items[0];
    expect(item).toMatchObject({ status: 'failed', content: 'Из метро', clientMessageId: stored[0].clientMessageId });
    second.outbox().send({ type: 'outbox.retry', id: item.id });
    await waitFor(() => expect(second.outbox().getSnapshot().context.items).toEqual([]));
    const sends = calls
      .filter(([n]) => n === 'send')
      .map(([, b]) => (b as { clientMessageId: string }).clientMessageId);
    expect(new Set(sends)).toEqual(new Set([stored[0].clientMessageId]));
    expect(localStorage.getItem(`beseda.outbox.${user.id}`)).toBeNull();
    second.view.unmount();
  });
});
