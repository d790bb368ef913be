// Actor lifetimes through the real composition root: a dialog's actor runs while the dialog is open (closing
// stops it, reopening starts a fresh one), a page's actor while the page is shown, and the call hangs up when
// the session signs out (the call actor hears it, no view has to).
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnyActorRef, waitFor as waitForActor } from 'xstate';
import { appEffects } from '../../services/app/app-effects';
import { createRuntime } from './runtime';
import type { ApiClient } from '../../services/app/api';
import { RuntimeProvider } from '../../ui/app/RuntimeContext';
import { CallsPage } from '../../ui/calls/CallsPage';
import { ChatsFooter } from '../../ui/chats/ChatsFooter';
import { never, quietSocket, storedSession, user } from '../../../tests/fixtures/session';

const api: ApiClient = {
  call: (async (name: string) => {
    if (name === 'me') return { user };
    if (name === 'contacts') return { contacts: [] };
    return never();
  }) as ApiClient['call'],
};

function renderWired(path: string) {
  const runtime = createRuntime({
    effects: appEffects,
    stored: storedSession,
    services: { api, connectSocket: () => quietSocket(), ping: () => never() },
  });
  render(
    <RuntimeProvider app={runtime.app}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/chats" element={<ChatsFooter />} />
          <Route path="/calls" element={<CallsPage />} />
          <Route path="/" element={<p>Главная</p>} />
        </Routes>
        <Link to="/">На главную</Link>
      </MemoryRouter>
    </RuntimeProvider>,
  );
  const app = runtime.app;
  const footer = () => (app.getSnapshot().children as Record<string, AnyActorRef | undefined>).chatsFooter!;
  return { app, footer };
}

afterEach(() => localStorage.clear());

describe('actor lifetimes', () => {
  it("the contacts dialog's EBLID search runs while the dialog is open; reopening starts an empty one", async () => {
    const { footer } = renderWired('/chats');
    expect(footer().getSnapshot().status).toBe('active');
    expect(footer().getSnapshot().children.contactCode).toBeUndefined();
    await userEvent.click(await screen.findByRole('button', { name: /^Контакты/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Контакты' });
    const code = footer().getSnapshot().children.contactCode;
    expect(code?.getSnapshot().status).toBe('active');
    await userEvent.type(within(within(dialog).getByRole('group', { name: 'EBLID' })).getAllByRole('textbox')[0]!, '1');
    expect(code?.getSnapshot().context.digits[0]).toBe('1');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Закрыть окно' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(code?.getSnapshot().status).toBe('stopped');
    expect(footer().getSnapshot().children.contactCode).toBeUndefined();

    await userEvent.click(screen.getByRole('button', { name: /^Контакты/ }));
    await screen.findByRole('dialog', { name: 'Контакты' });
    const fresh = footer().getSnapshot().children.contactCode;
    expect(fresh).not.toBe(code);
    expect(fresh?.getSnapshot().context.digits).toEqual(['', '', '', '']);
  });

  it("the profile dialog's avatar editor runs while the dialog is open", async () => {
    const { footer } = renderWired('/chats');
    await userEvent.click(await screen.findByRole('button', { name: /Профиль:/ }));
    const dialog = await screen.findByRole('dialog');
    const avatar = footer().getSnapshot().children.avatar;
    expect(avatar?.getSnapshot().status).toBe('active');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Закрыть' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(avatar?.getSnapshot().status).toBe('stopped');
    expect(footer().getSnapshot().children.avatar).toBeUndefined();
  });

  it("the footer's and the calls page's actors are the root's children while their view is shown, and no one else's", async () => {
    const { app } = renderWired('/calls');
    // The calls page's code comes with it: its actor is spawned once that is here.
    const children = () => app.getSnapshot().children as Record<string, AnyActorRef | undefined>;
    await waitFor(() => expect(children().callsPage).toBeDefined());
    const page = children().callsPage!;
    // Spawned for the view, not registered in the system: no other actor reaches it by id.
    expect(app.system.get('callsPage')).toBeUndefined();
    expect(page?.getSnapshot().status).toBe('active');
    expect(children().chatsFooter).toBeUndefined();
    await userEvent.click(screen.getByRole('link', { name: 'На главную' }));
    await screen.findByText('Главная');
    expect(page.getSnapshot().status).toBe('stopped');
    expect(children().callsPage).toBeUndefined();
  });

  it('signing out hangs up: a ringing call stops ringing, without any view', async () => {
    const runtime = createRuntime({
      effects: appEffects,
      stored: storedSession,
      services: { api, connectSocket: () => quietSocket(), ping: () => never() },
    });
    const call = runtime.app.getSnapshot().context.call;
    call.send({ type: 'call.startIncoming', conversationId: 'c1', from: { id: 'u2', name: 'Борис' }, video: false });
    expect(call.getSnapshot().hasTag('ringing')).toBe(true);
    runtime.app.getSnapshot().context.session.send({ type: 'session.signOut' });
    await waitForActor(call, (s) => s.matches('idle'));
    expect(call.getSnapshot().context.incoming).toBeNull();
  });
});
