// Actor lifetimes through the real composition root: a dialog's actor runs while the dialog is open (closing
// stops it, reopening starts a fresh one), a page's actor while the page is shown, and the call hangs up when
// the session signs out (the call actor hears it, no view has to). A session-long actor whose code loads after the
// first paint (the call) loses nothing sent to it before it runs, and the socket waits for it.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyStateMachine, waitFor as waitForActor } from 'xstate';
import { systemActor } from '../shared/system';
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
    // Its code comes after the first paint (here: at once, nothing holds it back).
    await waitFor(() => expect(runtime.app.getSnapshot().children.call).toBeDefined());
    const call = runtime.app.getSnapshot().children.call!;
    call.send({ type: 'call.startIncoming', conversationId: 'c1', from: { id: 'u2', name: 'Борис' }, video: false });
    expect(call.getSnapshot().hasTag('ringing')).toBe(true);
    runtime.app.getSnapshot().context.session.send({ type: 'session.signOut' });
    await waitForActor(call, (s) => s.matches('idle'));
    expect(call.getSnapshot().context.incoming).toBeNull();
  });

  it('what is sent to the call before its code is here reaches it, in order, and the socket waits for it', async () => {
    let arrive: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const opened: string[] = [];
    const runtime = createRuntime({
      effects: {
        ...appEffects,
        // The call's code held back until the test lets it come.
        call: { wired: (s) => held.then(() => appEffects.call.wired!(s)) as Promise<AnyStateMachine> },
      },
      stored: storedSession,
      services: {
        api,
        connectSocket: (token) => {
          opened.push(token);
          return quietSocket();
        },
        ping: () => never(),
      },
    });
    const app = runtime.app;
    // A stand-in holds the systemId: the chats header's «Позвонить» or a ring is sent there as to the actor.
    const early = systemActor(app.system, 'call');
    expect(early).toBeDefined();
    expect(app.getSnapshot().children.call).toBeUndefined();
    // A ring, declined, then another: only in this order does the second one ring at the end.
    early!.send({ type: 'call.startIncoming', conversationId: 'c1', from: { id: 'u2', name: 'Борис' }, video: true });
    early!.send({ type: 'call.decline' });
    early!.send({ type: 'call.startIncoming', conversationId: 'c2', from: { id: 'u3', name: 'Вера' }, video: false });
    await Promise.resolve();
    // Nothing connects before the call can hear the socket.
    expect(opened).toEqual([]);
    arrive();
    await waitFor(() => expect(app.getSnapshot().children.call).toBeDefined());
    const call = app.getSnapshot().children.call!;
    expect(systemActor(app.system, 'call')).toBe(call);
    // Every event, in the order sent: the second ring is the one ringing.
    expect(call.getSnapshot().hasTag('ringing')).toBe(true);
    expect(call.getSnapshot().context.incoming?.conversationId).toBe('c2');
    expect(app.getSnapshot().context.early).toEqual({});
    await waitFor(() => expect(opened).toEqual(['a0']));
    // Once it runs, what is sent to the systemId reaches it at once.
    systemActor(app.system, 'call')!.send({ type: 'call.decline' });
    expect(call.getSnapshot().hasTag('ringing')).toBe(false);
  });
});
