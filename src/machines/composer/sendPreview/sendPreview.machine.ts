// The send preview (protocol: sendPreview.protocol.ts). At most LIMITS.attachmentsMax files; a caption is a
// message's text, so it has the same limit.
import { assign, setup } from 'xstate';
import { LIMITS } from '../../../contract/limits';
import type { SendPreviewContext, SendPreviewEvent } from './sendPreview.protocol';

export * from './sendPreview.protocol';

const EMPTY: SendPreviewContext = { files: [], caption: '' };

export const sendPreviewMachine = setup({
  types: { context: {} as SendPreviewContext, events: {} as SendPreviewEvent },
  guards: {
    lastFile: ({ context, event }) => event.type === 'preview.remove' && context.files.length <= 1,
    hasFiles: ({ event }) => event.type === 'preview.add' && event.files.length > 0,
  },
  actions: {
    add: assign({
      files: ({ context, event }) =>
        event.type === 'preview.add'
          ? [...context.files, ...event.files].slice(0, LIMITS.attachmentsMax)
          : context.files,
    }),
    remove: assign({
      files: ({ context, event }) =>
        event.type === 'preview.remove' ? context.files.filter((_, i) => i !== event.index) : context.files,
    }),
    move: assign({
      files: ({ context, event }) => {
        if (event.type !== 'preview.move') return context.files;
        const to = event.index + event.by;
        if (to < 0 || to >= context.files.length) return context.files;
        const files = [...context.files];
        [files[event.index], files[to]] = [files[to], files[event.index]];
        return files;
      },
    }),
    caption: assign({
      caption: ({ event }) => (event.type === 'preview.caption' ? event.text.slice(0, LIMITS.messageTextMax) : ''),
    }),
    reset: assign(EMPTY),
  },
}).createMachine({
  id: 'sendPreview',
  context: EMPTY,
  initial: 'closed',
  states: {
    closed: { on: { 'preview.add': { guard: 'hasFiles', target: 'open', actions: 'add' } } },
    open: {
      tags: ['open'],
      on: {
        'preview.add': { actions: 'add' },
        'preview.remove': [{ guard: 'lastFile', target: 'closed', actions: 'reset' }, { actions: 'remove' }],
        'preview.move': { actions: 'move' },
        'preview.caption': { actions: 'caption' },
        'preview.sent': { target: 'closed', actions: 'reset' },
        'preview.cancel': { target: 'closed', actions: 'reset' },
      },
    },
  },
});
