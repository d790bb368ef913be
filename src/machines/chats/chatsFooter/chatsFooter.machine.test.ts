import { describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, assign, createActor, createMachine, emit, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { TIMINGS } from '../../../contract/limits';
import { chatsFooterMachine, FOOTER_TAGS } from './chatsFooter.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const quiet = fromCallback(() => () => {}) as never;

// The dialogs' actors as stand-ins: each finishes when told `finish` (the group dialog closing).
const dialog = createMachine({
  initial: 'open',
  states: { open: { on: { finish: 'done' } }, done: { type: 'final' } },
});
const dialogs = { contactCode: dialog, avatar: dialog, groupDialog: dialog } as never;

describeModel({
  name: 'chatsFooter',
  machine: chatsFooterMachine.provide({ actors: { copyText: hang, chatOpened: quiet, loadOwned: hang } }),
  events: {
    'xstate.done.actor.loadOwned': () => [{ type: 'xstate.done.actor.loadOwned', output: dialogs }],
    'xstate.error.actor.loadOwned': () => [{ type: 'xstate.error.actor.loadOwned', error: new Error('offline') }],
    'xstate.done.actor.groupDialog': () => [{ type: 'xstate.done.actor.groupDialog', output: undefined }],
    'footer.copy': () => [{ type: 'footer.copy', text: '1234' }],
    // The avatar editor starts and stops sending.
    'xstate.snapshot.avatar': () =>
      [true, false].map((busy) => ({
        type: 'xstate.snapshot.avatar',
        snapshot: { hasTag: (t: string) => busy && t === 'busy' },
      })),
    'xstate.done.actor.copyText': () => [{ type: 'xstate.done.actor.copyText', output: undefined }],
    'xstate.error.actor.copyText': () => [{ type: 'xstate.error.actor.copyText', error: new Error('refused') }],
  },
});

// A stand-in dialog actor that keeps what it is told (a fresh one starts empty).
const keeper = createMachine({
  types: { context: {} as { heard: string[] } },
  context: { heard: [] },
  initial: 'open',
  states: {
    open: {
      on: {
        finish: 'done',
        send: 'sending',
        '*': { actions: assign({ heard: ({ context, event }) => [...context.heard, event.type] }) },
      },
    },
    // Like the avatar editor cropping, uploading and saving.
    sending: { tags: ['busy'], on: { saved: 'open' } },
    done: { type: 'final' },
  },
});

describe('chats footer among its peers', () => {
  function start(
    copy: (text: string) => Promise<void> = async () => {},
    load: () => Promise<unknown> = async () => ({ contactCode: keeper, avatar: keeper, groupDialog: keeper }),
  ) {
    // The contacts actor emits `contacts.chatOpened` when asked to (a stand-in for opening a direct chat).
    const contacts = createMachine({
      types: { emitted: {} as { type: 'contacts.chatOpened'; conversationId: string } },
      on: { open: { actions: emit({ type: 'contacts.chatOpened' as const, conversationId: 'c1' }) } },
    });
    const footer = chatsFooterMachine.provide({
      actors: {
        copyText: fromPromise(({ input }: { input: { text: string } }) => copy(input.text)),
        // The dialogs' machines, fetched when a dialog is first opened.
        loadOwned: fromPromise(load),
      } as never,
    });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'contacts', src: contacts, systemId: 'contacts' },
          { id: 'footer', src: footer, systemId: 'chatsFooter' },
        ],
      }),
    ).start();
    const footerRef = root.system.get('chatsFooter');
    // The dialogs' actors by their ids (they have no systemId: only the footer's views reach them).
    const system = { get: (id: string) => footerRef.getSnapshot().children[id] };
    return { footer: footerRef, contacts: root.system.get('contacts'), system };
  }
  /** The dialogs' code has come. */
  const here = (footer: AnyActorRef) => waitFor(footer, (s) => s.matches({ code: 'here' }));
  const open = (s: { hasTag(t: string): boolean }) =>
    s.hasTag(FOOTER_TAGS.group)
      ? 'group'
      : s.hasTag(FOOTER_TAGS.contacts)
        ? 'contacts'
        : s.hasTag(FOOTER_TAGS.profile)
          ? 'profile'
          : null;

  it("each dialog's actor runs while the dialog is open: closing stops it, reopening starts a fresh one", async () => {
    const { footer, system } = start();
    expect(system.get('contactCode')).toBeUndefined();
    footer.send({ type: 'footer.openContacts' });
    // The first opening waits for the dialogs' code: nothing is shown before it is here.
    expect(open(footer.getSnapshot())).toBeNull();
    await here(footer);
    expect(open(footer.getSnapshot())).toBe('contacts');
    const code = system.get('contactCode');
    expect(footer.getSnapshot().children.contactCode).toBe(code);
    code.send({ type: 'code.typed' });
    expect(code.getSnapshot().context.heard).toEqual(['code.typed']);
    footer.send({ type: 'footer.close' });
    expect(open(footer.getSnapshot())).toBeNull();
    expect(code.getSnapshot().status).toBe('stopped');
    expect(system.get('contactCode')).toBeUndefined();
    footer.send({ type: 'footer.openContacts' });
    expect(system.get('contactCode')).not.toBe(code);
    expect(system.get('contactCode').getSnapshot().context.heard).toEqual([]);
    // Switching dialogs stops one and starts the other.
    footer.send({ type: 'footer.openProfile' });
    expect(system.get('contactCode')).toBeUndefined();
    const avatar = system.get('avatar');
    expect(avatar.getSnapshot().status).toBe('active');
    footer.send({ type: 'footer.close' });
    expect(avatar.getSnapshot().status).toBe('stopped');
    expect(system.get('avatar')).toBeUndefined();
  });

  it('an avatar being sent outlives the closed profile dialog until it is done; reopening shows the same editor', async () => {
    const { footer, system } = start();
    footer.send({ type: 'footer.openProfile' });
    await here(footer);
    const avatar = system.get('avatar');
    avatar.send({ type: 'send' });
    expect(avatar.getSnapshot().hasTag('busy')).toBe(true);
    footer.send({ type: 'footer.close' });
    expect(open(footer.getSnapshot())).toBeNull();
    expect(avatar.getSnapshot().status).toBe('active');
    footer.send({ type: 'footer.openProfile' });
    expect(system.get('avatar')).toBe(avatar);
    // Another dialog while it sends: the editor still runs, and stops once the avatar is saved.
    footer.send({ type: 'footer.openContacts' });
    expect(avatar.getSnapshot().status).toBe('active');
    avatar.send({ type: 'saved' });
    expect(avatar.getSnapshot().status).toBe('stopped');
    expect(system.get('avatar')).toBeUndefined();
    expect(open(footer.getSnapshot())).toBe('contacts');
  });

  it('the group dialog closes when its actor finishes (closed or created)', async () => {
    const { footer, system } = start();
    footer.send({ type: 'footer.openGroup' });
    await here(footer);
    expect(open(footer.getSnapshot())).toBe('group');
    system.get('groupDialog').send({ type: 'finish' });
    expect(open(footer.getSnapshot())).toBeNull();
    expect(system.get('groupDialog')).toBeUndefined();
  });

  it("the folded EBLID panel gets its own search when first unfolded, apart from the dialog's", async () => {
    const { footer } = start();
    expect(footer.getSnapshot().children.foldCode).toBeUndefined();
    footer.send({ type: 'footer.unfold' });
    await here(footer);
    const fold = footer.getSnapshot().children.foldCode;
    expect(fold?.getSnapshot().status).toBe('active');
    footer.send({ type: 'footer.openContacts' });
    footer.send({ type: 'footer.close' });
    expect(footer.getSnapshot().children.foldCode).toBe(fold);
  });

  it('a chat opened from the contacts dialog closes it', async () => {
    const { footer, contacts } = start();
    footer.send({ type: 'footer.openContacts' });
    await here(footer);
    contacts.send({ type: 'open' });
    expect(open(footer.getSnapshot())).toBeNull();
    // Closed already: a later chat opened elsewhere changes nothing.
    contacts.send({ type: 'open' });
    expect(open(footer.getSnapshot())).toBeNull();
  });

  it('dialogs whose code could not be fetched close again (the panel folds); the next opening fetches it again', async () => {
    let fetches = 0;
    const { footer, system } = start(undefined, async () => {
      if (fetches++ === 0) throw new Error('offline');
      return { contactCode: keeper, avatar: keeper, groupDialog: keeper };
    });
    footer.send({ type: 'footer.unfold' });
    footer.send({ type: 'footer.openProfile' });
    await waitFor(footer, (s) => s.matches({ code: 'absent' }));
    expect(footer.getSnapshot().matches({ dialog: 'closed', avatar: 'off', fold: 'folded' })).toBe(true);
    expect(system.get('avatar')).toBeUndefined();
    footer.send({ type: 'footer.openGroup' });
    await here(footer);
    expect(fetches).toBe(2);
    expect(open(footer.getSnapshot())).toBe('group');
    expect(system.get('groupDialog')?.getSnapshot().status).toBe('active');
  });

  it("copies the EBLID and shows 'copied' for the success-message time; a refused clipboard shows nothing", async () => {
    vi.useFakeTimers();
    try {
      const copied: string[] = [];
      const ok = start(async (text) => {
        copied.push(text);
      });
      ok.footer.send({ type: 'footer.copy', text: '4821' });
      await vi.advanceTimersByTimeAsync(0);
      expect(copied).toEqual(['4821']);
      expect(ok.footer.getSnapshot().hasTag(FOOTER_TAGS.copied)).toBe(true);
      await vi.advanceTimersByTimeAsync(TIMINGS.successMessageMs - 1);
      expect(ok.footer.getSnapshot().hasTag(FOOTER_TAGS.copied)).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      expect(ok.footer.getSnapshot().hasTag(FOOTER_TAGS.copied)).toBe(false);

      const refused = start(async () => {
        throw new Error('denied');
      });
      refused.footer.send({ type: 'footer.copy', text: '4821' });
      await vi.advanceTimersByTimeAsync(0);
      expect(refused.footer.getSnapshot().hasTag(FOOTER_TAGS.copied)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
