import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, emit, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../../tests/model/harness';
import { TIMINGS } from '../../../../contract/limits';
import { chatsFooterMachine, FOOTER_TAGS } from './chatsFooter.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const quiet = fromCallback(() => () => {}) as never;

describeModel({
  name: 'chatsFooter',
  machine: chatsFooterMachine.provide({ actors: { copyText: hang, chatOpened: quiet } }),
  events: {
    'footer.copy': () => [{ type: 'footer.copy', text: '1234' }],
    'xstate.done.actor.copyText': () => [{ type: 'xstate.done.actor.copyText', output: undefined }],
    'xstate.error.actor.copyText': () => [{ type: 'xstate.error.actor.copyText', error: new Error('refused') }],
  },
});

describe('chats footer among its peers', () => {
  function start(copy: (text: string) => Promise<void> = async () => {}) {
    const heard: Record<string, string[]> = { contactCode: [], avatar: [] };
    const recorder = (id: string) => createMachine({ on: { '*': { actions: ({ event }) => heard[id].push(event.type) } } });
    // The contacts actor emits `contacts.chatOpened` when asked to (a stand-in for opening a direct chat).
    const contacts = createMachine({
      types: { emitted: {} as { type: 'contacts.chatOpened'; conversationId: string } },
      on: { open: { actions: emit({ type: 'contacts.chatOpened' as const, conversationId: 'c1' }) } },
    });
    const footer = chatsFooterMachine.provide({
      actors: { copyText: fromPromise(({ input }: { input: { text: string } }) => copy(input.text)) },
    });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'contactCode', src: recorder('contactCode'), systemId: 'contactCode' },
          { id: 'avatar', src: recorder('avatar'), systemId: 'avatar' },
          { id: 'contacts', src: contacts, systemId: 'contacts' },
          { id: 'footer', src: footer, systemId: 'chatsFooter' },
        ],
      }),
    ).start();
    return { footer: root.system.get('chatsFooter'), contacts: root.system.get('contacts'), heard };
  }
  const open = (s: { hasTag(t: string): boolean }) =>
    s.hasTag(FOOTER_TAGS.contacts) ? 'contacts' : s.hasTag(FOOTER_TAGS.profile) ? 'profile' : null;

  it('closing the contacts dialog clears the EBLID search; closing the profile cancels the avatar being framed', () => {
    const { footer, heard } = start();
    footer.send({ type: 'footer.openContacts' });
    expect(open(footer.getSnapshot())).toBe('contacts');
    footer.send({ type: 'footer.close' });
    expect(open(footer.getSnapshot())).toBeNull();
    expect(heard.contactCode).toEqual(['code.reset']);
    footer.send({ type: 'footer.openProfile' });
    footer.send({ type: 'footer.close' });
    expect(heard.avatar).toEqual(['avatar.cancel']);
    expect(heard.contactCode).toEqual(['code.reset']);
  });

  it('a chat opened from the contacts dialog closes it without clearing the search', () => {
    const { footer, contacts, heard } = start();
    footer.send({ type: 'footer.openContacts' });
    contacts.send({ type: 'open' });
    expect(open(footer.getSnapshot())).toBeNull();
    expect(heard.contactCode).toEqual([]);
    // Closed already: a later chat opened elsewhere changes nothing.
    contacts.send({ type: 'open' });
    expect(open(footer.getSnapshot())).toBeNull();
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
