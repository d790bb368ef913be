import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { LIMITS } from '../../../contract/limits';
import { sendPreviewMachine } from './sendPreview.machine';

const file = (name: string) => Object.assign(new Blob(['x'], { type: 'image/png' }), { name });
const a = file('a.png');
const b = file('b.png');

describeModel({
  name: 'sendPreview',
  machine: sendPreviewMachine,
  events: {
    'preview.add': (s) =>
      s.context.files.length < 2
        ? [
            { type: 'preview.add', files: s.context.files.length ? [b] : [a] },
            { type: 'preview.add', files: [] },
          ]
        : [],
    'preview.remove': () => [{ type: 'preview.remove', index: 0 }],
    'preview.move': () => [{ type: 'preview.move', index: 0, by: 1 }],
    'preview.caption': (s) => (s.context.caption ? [] : [{ type: 'preview.caption', text: 'Подпись' }]),
  },
  contextKey: (c) => ({ files: c.files.map((f: { name?: string }) => f.name), caption: c.caption }),
});

describe('send preview', () => {
  it('gathers files in order, reorders them, keeps a caption, and empties on sending', () => {
    const actor = createActor(sendPreviewMachine).start();
    actor.send({ type: 'preview.add', files: [a] });
    actor.send({ type: 'preview.add', files: [b] });
    actor.send({ type: 'preview.move', index: 1, by: -1 });
    actor.send({ type: 'preview.move', index: 0, by: -1 });
    actor.send({ type: 'preview.caption', text: 'Море' });
    expect(actor.getSnapshot().context.files.map((f) => f.name)).toEqual(['b.png', 'a.png']);
    expect(actor.getSnapshot().context.caption).toBe('Море');
    actor.send({ type: 'preview.sent' });
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ files: [], caption: '' });
  });

  it('keeps at most the attachment limit, and closes when the last file is removed', () => {
    const actor = createActor(sendPreviewMachine).start();
    actor.send({
      type: 'preview.add',
      files: Array.from({ length: LIMITS.attachmentsMax + 3 }, (_, i) => file(`${i}`)),
    });
    expect(actor.getSnapshot().context.files).toHaveLength(LIMITS.attachmentsMax);
    actor.send({ type: 'preview.cancel' });
    actor.send({ type: 'preview.add', files: [a] });
    actor.send({ type: 'preview.remove', index: 0 });
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
  });
});
