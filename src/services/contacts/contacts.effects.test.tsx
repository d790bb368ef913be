// The contacts feature through the real composition root: the app actor, its wiring and the views' hooks, with
// only the REST client (and the socket) replaced. Checks what each control asks of the server.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { bridgedRouter } from '../app/router';
import { RouterBridge } from '../../ui/app/RouterBridge';
import { afterEach, describe, expect, it } from 'vitest';
import { appEffects } from '../app/app-effects';
import { createRuntime } from '../../machines/app/runtime';
import type { Contact, PublicUser } from '../../contract/entities';
import type { ApiClient } from '../app/api';
import { ChatsFooter } from '../../ui/chats/ChatsFooter';
import { ContactsPage } from '../../ui/contacts/ContactsPage';
import { RuntimeProvider } from '../../ui/app/RuntimeContext';
import { SettingsPage } from '../../ui/settings/SettingsPage';
import { never, quietSocket, storedSession, user } from '../../../tests/fixtures/session';

const person = (id: string, displayName: string, eblid: string): PublicUser => ({
  id,
  username: id,
  displayName,
  avatarUrl: null,
  status: 'ONLINE',
  lastSeenAt: null,
  eblid,
  bio: null,
});
const boris = person('u2', 'Борис', '1111');
const vera = person('u3', 'Вера', '2222');
const gleb = person('u4', 'Глеб', '3333');
const request: Contact = { id: 'c1', status: 'PENDING', direction: 'incoming', friend: boris };
const friendship: Contact = { id: 'c2', status: 'ACCEPTED', direction: 'outgoing', friend: vera };

type Call = [string, unknown];
function fakeApi(calls: Call[], directory = false): ApiClient {
  const answers: Record<string, (o: { body?: unknown; query?: unknown }) => unknown> = {
    instance: () => ({ uploadLimitBytes: 1 << 20, secureUrl: null, directory }),
    directoryUsers: () => ({ users: [gleb] }),
    directoryGroups: () => ({ groups: [] }),
    me: () => ({ user: { ...user, bio: 'Люблю чай' } }),
    contacts: () => ({ contacts: [request, friendship] }),
    contactRespond: () => ({ contact: { ...request, status: 'ACCEPTED' } }),
    contactSearch: (o) => ({ results: (o.query as { code: string }).code === gleb.eblid ? [gleb] : [] }),
    contactAdd: () => ({ contact: { id: 'c3', status: 'PENDING', direction: 'outgoing', friend: gleb } }),
    conversationWith: () => ({
      conversation: { id: 'conv-1', title: null, isGroup: false, participants: [], messages: [] },
    }),
    createConversation: () => ({
      conversation: { id: 'g-1', title: null, isGroup: true, participants: [], messages: [] },
    }),
    patchMe: (o) => ({ user: { ...user, ...(o.body as object) } }),
  };
  return {
    call: (async (name: string, o: { body?: unknown; query?: unknown } = {}) => {
      calls.push([name, o.body ?? o.query ?? null]);
      const answer = answers[name];
      if (!answer) return never();
      return answer(o);
    }) as ApiClient['call'],
  };
}

function Where() {
  return <span data-testid="location">{useLocation().pathname}</span>;
}

function renderWired(path: string, directory = false) {
  const calls: Call[] = [];
  // The app's router is the runtime's too: the navigation actor moves the address to an opened chat.
  const router = bridgedRouter(path);
  const runtime = createRuntime({
    effects: appEffects,
    stored: storedSession,
    baseURL: '/api',
    services: { api: fakeApi(calls, directory), connectSocket: () => quietSocket(), ping: () => never(), router },
  });
  render(
    <RuntimeProvider app={runtime.app}>
      <MemoryRouter initialEntries={[path]}>
        <RouterBridge onLocation={router.attach} />
        <Routes>
          <Route path="/chats" element={<ChatsFooter />} />
          <Route path="/contacts" element={<ContactsPage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/" element={<p>Чаты</p>} />
          <Route path="/c/:id" element={<p>Беседа</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </RuntimeProvider>,
  );
  return { calls, runtime };
}

afterEach(() => localStorage.clear());

describe('contacts feature wired to the app actor', () => {
  it('asks the instance first and the directory only when it is on (off: no request the server answers 404)', async () => {
    const asked = (calls: Call[]) => calls.map(([name]) => name).filter((n) => n.startsWith('directory'));
    const off = renderWired('/contacts');
    const directoryOf = () => off.runtime.app.getSnapshot().children.directory;
    await waitFor(() => expect(directoryOf()?.getSnapshot().hasTag('off')).toBe(true));
    expect(off.calls.map(([name]) => name)).toContain('instance');
    expect(asked(off.calls)).toEqual([]);
    off.runtime.app.stop();
    const on = renderWired('/contacts', true);
    expect(await screen.findByRole('heading', { name: 'Люди' })).toBeInTheDocument();
    expect(asked(on.calls)).toEqual(['directoryUsers', 'directoryGroups']);
  });

  it('the footer opens the contacts dialog: accept a request, find and add by EBLID, open a chat', async () => {
    const { calls, runtime } = renderWired('/chats');
    const tile = await screen.findByRole('button', { name: /^Контакты,\s?Новый запрос в друзья$/ });
    expect(calls).toContainEqual(['contacts', { filter: 'all' }]);
    await userEvent.click(tile);
    const dialog = await screen.findByRole('dialog', { name: 'Контакты' });
    expect(within(dialog).getByText(/Мой EBLID:/)).toHaveTextContent('0420');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Добавить' }));
    await waitFor(() => expect(within(dialog).getByText('Нет новых запросов')).toBeInTheDocument());
    expect(calls).toContainEqual(['contactRespond', { contactId: 'c1', action: 'accept' }]);
    // The answered request's buttons are gone; the focus stays in the dialog.
    await waitFor(() => expect(dialog).toHaveFocus());
    const friends = dialog.querySelector('.friends-list') as HTMLElement;
    expect(within(friends).getByText('Борис')).toBeInTheDocument();

    // Typing the code searches, the tile adds.
    await userEvent.click(within(dialog).getAllByRole('textbox')[0]);
    await userEvent.keyboard('3333');
    expect(await within(dialog).findByText('Найден по EBLID')).toBeInTheDocument();
    expect(calls).toContainEqual(['contactSearch', { code: '3333' }]);
    await userEvent.click(
      within(dialog.querySelector('.found-tile') as HTMLElement).getByRole('button', { name: 'Добавить' }),
    );
    expect(await within(dialog).findByText('Запрос отправлен')).toBeInTheDocument();
    expect(calls).toContainEqual(['contactAdd', { identifier: '3333' }]);
    // The contacts actor knows the new outgoing request.
    const contacts = runtime.app.system.get('contacts');
    expect(contacts.getSnapshot().context.contacts.map((c: Contact) => c.id)).toContain('c3');

    await userEvent.click(within(friends).getAllByRole('button', { name: 'Открыть чат' })[0]);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/c\/.+$/));
    expect(calls).toContainEqual(['conversationWith', { userId: 'u2' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("'Новая беседа' with one ticked friend and no title asks for the direct chat and goes to the chats page", async () => {
    const { calls } = renderWired('/chats');
    await userEvent.click(await screen.findByRole('button', { name: 'Новая беседа' }));
    const dialog = await screen.findByRole('dialog', { name: 'Создать групповой чат' });
    const box = await within(dialog).findByRole('checkbox', { name: /Вера/ });
    expect(within(dialog).queryByRole('checkbox', { name: /Борис/ })).not.toBeInTheDocument(); // a request, not a friend
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(calls.some(([name]) => name === 'createConversation')).toBe(false);
    await userEvent.click(box);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/c\/.+$/));
    expect(calls).toContainEqual(['createConversation', { participantIds: ['u3'], title: null, isGroup: false }]);
  });

  it('the own tile opens the profile dialog with the EBLID (the profile actor fetched the own record)', async () => {
    const { calls } = renderWired('/chats');
    await userEvent.click(await screen.findByRole('button', { name: /EBLID 0420/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Профиль' });
    expect(within(dialog).getByText('0420')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Закрыть' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter(([name]) => name === 'me').length).toBeGreaterThan(0);
  });

  it('settings: the fetched record fills the form; Сохранить sends it', async () => {
    const { calls } = renderWired('/settings');
    const bio = screen.getByRole('textbox', { name: 'О себе' });
    await waitFor(() => expect(bio).toHaveValue('Люблю чай'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Статус' }), 'Отошел');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Сохранено');
    expect(calls).toContainEqual([
      'patchMe',
      { displayName: 'Анна Петрова', status: 'AWAY', bio: 'Люблю чай', messagePrivacy: 'groups' },
    ]);
  });

  it('the contacts page lists every contact and accepts from its row', async () => {
    const { calls } = renderWired('/contacts');
    const row = (await screen.findByText('Борис')).closest('li') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Принять' }));
    await waitFor(() => expect(within(row).getByText('accepted')).toBeInTheDocument());
    expect(calls).toContainEqual(['contactRespond', { contactId: 'c1', action: 'accept' }]);
  });
});
