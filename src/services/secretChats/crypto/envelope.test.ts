import { describe, expect, it } from 'vitest';
import { type Envelope, EnvelopeError, parseEnvelope, serializeEnvelope } from './envelope';

const att = {
  url: '/api/secret/uploads/0123456789abcdef0123456789abcdef',
  key: 'a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5',
  iv: 'aXZpdml2aXZpdml2',
  name: 'f.pdf',
  type: 'application/pdf',
  size: 10,
};

describe('secret message envelope', () => {
  it('accepts the four kinds and round-trips', () => {
    const cases: Envelope[] = [
      { v: 1, kind: 'text', text: 'привет', replyToId: 'm1' },
      { v: 1, kind: 'text', text: '', attachments: [att] },
      { v: 1, kind: 'edit', targetId: 'm1', text: 'исправлено' },
      { v: 1, kind: 'reaction', targetId: 'm1', emoji: '👍' },
      { v: 1, kind: 'delete', targetId: 'm1' },
    ];
    for (const e of cases) expect(parseEnvelope(serializeEnvelope(e))).toEqual(e);
  });

  it('reads version 2: every kind with its sender-chosen UUIDv7 id', () => {
    const id = '0192f5b2-7c3e-7a10-8b2d-3f4e5a6b7c8d';
    const to = '0192f5b2-7c3e-7a10-9b2d-3f4e5a6b7c8e';
    const cases: Envelope[] = [
      { v: 2, id, kind: 'text', text: 'привет', replyToId: to },
      { v: 2, id, kind: 'edit', targetId: to, text: 'исправлено' },
      { v: 2, id, kind: 'reaction', targetId: to, emoji: '👍' },
      { v: 2, id, kind: 'delete', targetId: to },
      { v: 2, id, kind: 'copy', targetId: 'm1', text: 'ещё раз' },
    ];
    for (const e of cases) expect(parseEnvelope(serializeEnvelope(e))).toEqual(e);
  });

  it.each([
    ['not JSON', 'привет'],
    ['an array', '[]'],
    ['another version', '{"v":3,"kind":"text","text":"a"}'],
    ['version 2 without its id', '{"v":2,"kind":"text","text":"a"}'],
    [
      'version 2 with an id that is not UUIDv7',
      '{"v":2,"id":"0192f5b2-7c3e-4a10-8b2d-3f4e5a6b7c8d","kind":"text","text":"a"}',
    ],
    ['version 1 with an id', '{"v":1,"id":"0192f5b2-7c3e-7a10-8b2d-3f4e5a6b7c8d","kind":"text","text":"a"}'],
    ['an unknown kind', '{"v":1,"kind":"poll","text":"a"}'],
    ['an extra key', '{"v":1,"kind":"text","text":"a","html":"<b>"}'],
    ['an empty text', '{"v":1,"kind":"text","text":"  "}'],
    ['a text too long', JSON.stringify({ v: 1, kind: 'text', text: 'я'.repeat(4001) })],
    ['a number as text', '{"v":1,"kind":"text","text":5}'],
    ['a bad reply id', '{"v":1,"kind":"text","text":"a","replyToId":"../x"}'],
    ['an edit without target', '{"v":1,"kind":"edit","text":"a"}'],
    ['a reaction of two emoji', '{"v":1,"kind":"reaction","targetId":"m1","emoji":"👍👍"}'],
    ['a reaction of text', '{"v":1,"kind":"reaction","targetId":"m1","emoji":"ok"}'],
    ['a delete with text', '{"v":1,"kind":"delete","targetId":"m1","text":"a"}'],
    [
      'an attachment elsewhere',
      JSON.stringify({ v: 1, kind: 'text', text: '', attachments: [{ ...att, url: 'https://evil/x' }] }),
    ],
    [
      'an attachment with a negative size',
      JSON.stringify({ v: 1, kind: 'text', text: '', attachments: [{ ...att, size: -1 }] }),
    ],
    [
      'an attachment missing its key',
      JSON.stringify({ v: 1, kind: 'text', text: '', attachments: [{ ...att, key: undefined }] }),
    ],
    ['no attachments in the list', '{"v":1,"kind":"text","text":"","attachments":[]}'],
  ])('rejects %s', (_, raw) => {
    expect(() => parseEnvelope(raw)).toThrow(EnvelopeError);
  });

  it('rejects bytes that are not UTF-8', () => {
    expect(() => parseEnvelope(new Uint8Array([0xff, 0xfe, 0x7b]))).toThrow(EnvelopeError);
  });
});
