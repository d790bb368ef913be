// The announcer (docs/behaviour.md §10.48): what a screen reader hears without looking. Its view renders `polite`
// in the app's one polite live region and `assertive` in the assertive one. Messages in the chat on screen from
// others are gathered for ANNOUNCER_TIMINGS.burstMs from the first, then said: one as «Анна: привет», more as
// «Анна: 5 новых сообщений» (or «5 новых сообщений» from several people); other chats and one's own are silent.
// Someone typing there is said once («Анна печатает»), then not again until a pause without typing or a message.
// An incoming call is said at once in the assertive region (cleared after the ring). An upload's start and end are
// said politely. Where the events come from is its port's `sources` (announcer-sources.ts).
import { assertEvent, assign, setup } from 'xstate';
import { ANNOUNCER_TIMINGS, type AnnouncerContext, type AnnouncerEvent } from './announcer.protocol';
import { announcerSources } from './announcer-sources';
import { burstText, callAnnouncement, typingAnnouncement, uploadText } from './announcer-text';

export * from './announcer.protocol';

const say = (spoken: AnnouncerContext['polite'], text: string) => ({ text, n: spoken.n + 1 });

export const announcerMachine = setup({
  types: { context: {} as AnnouncerContext, events: {} as AnnouncerEvent },
  actors: { sources: announcerSources },
  delays: {
    burst: ANNOUNCER_TIMINGS.burstMs,
    typingPause: ANNOUNCER_TIMINGS.typingPauseMs,
    ringing: ANNOUNCER_TIMINGS.callMs,
  },
  guards: {
    /** Someone else's message in the chat on screen. */
    heard: ({ context, event }) =>
      event.type === 'announcer.message' && !event.own && event.conversationId === context.open,
    typingHere: ({ context, event }) => event.type === 'announcer.typing' && event.conversationId === context.open,
  },
  actions: {
    open: assign({
      open: ({ event }) => {
        assertEvent(event, 'announcer.opened');
        return event.conversationId;
      },
    }),
    gather: assign({
      burst: ({ context, event }) => {
        assertEvent(event, 'announcer.message');
        const { senderId, senderName, preview } = event;
        return [...context.burst, { senderId, senderName, preview }];
      },
    }),
    drop: assign({ burst: [] }),
    sayBurst: assign(({ context }) => ({ polite: say(context.polite, burstText(context.burst)), burst: [] })),
    sayTyping: assign({
      polite: ({ context, event }) => {
        assertEvent(event, 'announcer.typing');
        return say(context.polite, typingAnnouncement(event.name));
      },
    }),
    sayUpload: assign({
      polite: ({ context, event }) => {
        assertEvent(event, 'announcer.upload');
        return say(context.polite, uploadText(event.phase, event.names));
      },
    }),
    sayCall: assign({
      assertive: ({ context, event }) => {
        assertEvent(event, 'announcer.call');
        return say(context.assertive, callAnnouncement(event.name, event.video));
      },
    }),
    hushCall: assign({ assertive: ({ context }) => say(context.assertive, '') }),
  },
}).createMachine({
  id: 'announcer',
  context: { open: null, polite: { text: '', n: 0 }, assertive: { text: '', n: 0 }, burst: [] },
  invoke: { id: 'sources', src: 'sources' },
  on: {
    'announcer.upload': { actions: 'sayUpload' },
  },
  type: 'parallel',
  states: {
    messages: {
      initial: 'quiet',
      states: {
        quiet: {
          on: {
            'announcer.message': { guard: 'heard', target: 'gathering', actions: 'gather' },
            'announcer.opened': { actions: 'open' },
          },
        },
        // The window is counted from the first message, so a steady stream is still said every burstMs.
        gathering: {
          after: { burst: { target: 'quiet', actions: 'sayBurst' } },
          on: {
            'announcer.message': { guard: 'heard', actions: 'gather' },
            // Another chat on screen: what was gathered here is not said there.
            'announcer.opened': { target: 'quiet', actions: ['drop', 'open'] },
          },
        },
      },
    },
    typing: {
      initial: 'ready',
      states: {
        ready: {
          on: { 'announcer.typing': { guard: 'typingHere', target: 'said', actions: 'sayTyping' } },
        },
        // Said once: more typing there only keeps the pause from ending.
        said: {
          after: { typingPause: 'ready' },
          on: {
            'announcer.typing': { guard: 'typingHere', target: 'said', reenter: true },
            'announcer.message': { guard: 'heard', target: 'ready' },
            'announcer.opened': 'ready',
          },
        },
      },
    },
    call: {
      initial: 'silent',
      states: {
        silent: { on: { 'announcer.call': { target: 'ringing', actions: 'sayCall' } } },
        ringing: {
          after: { ringing: { target: 'silent', actions: 'hushCall' } },
          on: { 'announcer.call': { target: 'ringing', reenter: true, actions: 'sayCall' } },
        },
      },
    },
  },
});

export type AnnouncerActorRef = import('xstate').ActorRefFrom<typeof announcerMachine>;
