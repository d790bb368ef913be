import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { type LightboxEvent, type LightboxInput, lightboxMachine, lightboxView } from './lightbox.machine';

const three = [{ url: '/a.png', name: 'a.png' }, { url: '/b.png' }, { url: '/c.png', name: 'c.png' }];

describeModel({
  name: 'lightbox',
  machine: lightboxMachine,
  // Three images opened on the first, one image alone (previous/next do nothing), an out-of-range index.
  inputs: [
    { items: three, index: 0 },
    { items: [three[0]], index: 0 },
    { items: three, index: -1 },
  ] satisfies LightboxInput[],
  contextKey: (c) => ({ index: c.index, zoom: c.zoom }),
  // Events are offered where they do something: a refused one (zoom past a bound, next with one image) changes
  // nothing and would share its vertex with the real transition of the same type. The rules below test them.
  events: {
    'lightbox.zoomReset': (s) => (s.context.zoom !== 1 ? [{ type: 'lightbox.zoomReset' }] : []),
    'lightbox.zoomIn': (s) => (s.context.zoom < 4 ? [{ type: 'lightbox.zoomIn' }] : []),
    'lightbox.zoomOut': (s) => (s.context.zoom > 0.25 ? [{ type: 'lightbox.zoomOut' }] : []),
  },
});

function run(input: LightboxInput, events: LightboxEvent['type'][]) {
  const actor = createActor(lightboxMachine, { input }).start();
  for (const type of events) actor.send({ type } as LightboxEvent);
  return actor.getSnapshot();
}

describe('lightbox rules', () => {
  it('wraps previous from the first to the last and next from the last to the first', () => {
    expect(run({ items: three, index: 0 }, ['lightbox.previous']).context.index).toBe(2);
    expect(run({ items: three, index: 2 }, ['lightbox.next']).context.index).toBe(0);
    expect(run({ items: three, index: 7 }, []).context.index).toBe(1); // opened out of range: wrapped
  });

  it('zooms from 0.25 to 4 in steps of 0.25 and no further', () => {
    const up = run({ items: three, index: 0 }, Array(30).fill('lightbox.zoomIn'));
    expect(up.context.zoom).toBe(4);
    expect(lightboxView(up.context)).toMatchObject({ canZoomIn: false, canZoomOut: true });
    const down = run({ items: three, index: 0 }, Array(30).fill('lightbox.zoomOut'));
    expect(down.context.zoom).toBe(0.25);
    expect(lightboxView(down.context)).toMatchObject({ canZoomIn: true, canZoomOut: false });
    const steps = run({ items: three, index: 0 }, ['lightbox.zoomIn', 'lightbox.zoomIn', 'lightbox.zoomOut']);
    expect(steps.context.zoom).toBe(1.25);
    expect(run({ items: three, index: 0 }, ['lightbox.zoomIn', 'lightbox.zoomReset']).context.zoom).toBe(1);
  });

  it('shows the next image at 100 %', () => {
    const s = run({ items: three, index: 0 }, ['lightbox.zoomIn', 'lightbox.next']);
    expect(lightboxView(s.context)).toMatchObject({ item: three[1], index: 1, count: 3, zoom: 1 });
  });

  it('refuses what would change nothing: next with one image, zoom past a bound, 100 % at 100 %', () => {
    const one = run({ items: [three[0]], index: 0 }, ['lightbox.next', 'lightbox.previous', 'lightbox.zoomReset']);
    expect(one.context).toMatchObject({ index: 0, zoom: 1 });
    const none = run({ items: [], index: 3 }, ['lightbox.next']);
    expect(lightboxView(none.context)).toMatchObject({ item: null, index: 0, count: 0 });
  });

  it('close ends the actor', () => {
    expect(run({ items: three, index: 0 }, ['lightbox.close']).status).toBe('done');
  });
});
