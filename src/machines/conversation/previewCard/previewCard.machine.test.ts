import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LinkPreview } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import { describeModel } from '../../../../tests/model/harness';
import { previewCardMachine, selectPreviewCard } from './previewCard.machine';

const hang = fromPromise<{ ok: true }, { messageId: string }>(() => new Promise<never>(() => {}));
const card = (status: LinkPreview['status']): LinkPreview => ({
  url: 'https://example.org/a',
  status,
  siteName: status === 'ready' ? 'Пример' : null,
  title: status === 'ready' ? 'Заголовок' : null,
  description: null,
  image: null,
});

describeModel({
  name: 'previewCard',
  traversal: 'simple',
  machine: previewCardMachine.provide({ actors: { removePreview: hang } }),
  inputs: [
    { messageId: 'm1', preview: card('pending'), mine: true },
    { messageId: 'm1', preview: card('ready'), mine: true },
    { messageId: 'm1', preview: card('failed'), mine: false },
    { messageId: 'm1', preview: card('ready'), mine: false },
  ],
  events: {
    'preview.arrived': () => [
      { type: 'preview.arrived', preview: card('ready') },
      { type: 'preview.arrived', preview: card('failed') },
      { type: 'preview.arrived', preview: card('pending') },
    ],
    'xstate.done.actor.removePreview': () => [{ type: 'xstate.done.actor.removePreview', output: { ok: true } }],
    'xstate.error.actor.removePreview': () => [
      {
        type: 'xstate.error.actor.removePreview',
        error: new RequestFailure(403, 'Убрать предпросмотр может только отправитель'),
      },
    ],
  },
});

describe('previewCard view', () => {
  it('draws a loading placeholder, then the card; only the sender may remove it', () => {
    const actor = createActor(previewCardMachine.provide({ actors: { removePreview: hang } }), {
      input: { messageId: 'm1', preview: card('pending'), mine: false },
    }).start();
    expect(selectPreviewCard(actor.getSnapshot())).toEqual({ state: 'loading', url: 'https://example.org/a' });
    actor.send({ type: 'preview.arrived', preview: card('ready') });
    expect(selectPreviewCard(actor.getSnapshot())).toMatchObject({
      state: 'shown',
      title: 'Заголовок',
      removable: false,
    });
    actor.send({ type: 'preview.remove' });
    expect(actor.getSnapshot().value).toBe('shown');
    actor.send({ type: 'preview.removed' });
    expect(selectPreviewCard(actor.getSnapshot())).toEqual({ state: 'none' });
  });

  it("keeps the card with the server's reason when the removal is refused", async () => {
    const refuse = fromPromise<{ ok: true }, { messageId: string }>(async () => {
      throw new RequestFailure(403, 'Убрать предпросмотр может только отправитель');
    });
    const actor = createActor(previewCardMachine.provide({ actors: { removePreview: refuse } }), {
      input: { messageId: 'm1', preview: card('ready'), mine: true },
    }).start();
    actor.send({ type: 'preview.remove' });
    expect(selectPreviewCard(actor.getSnapshot())).toMatchObject({ busy: true });
    await waitFor(actor, (snap) => !snap.hasTag('busy'));
    expect(selectPreviewCard(actor.getSnapshot())).toMatchObject({
      state: 'shown',
      busy: false,
      error: 'Убрать предпросмотр может только отправитель',
    });
  });
});
