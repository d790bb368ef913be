// The hand-written shape checks the browser uses instead of zod agree with the contract's schemas on every
// field: a whole, well-typed record passes both; the same record with any one field missing, mistyped or null
// (where the schema does not allow null) fails both.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Attachment, User } from './entities';
import { attachmentFields, isAttachment, isUser, userFields } from './shape';

function variants(good: Record<string, unknown>, key: string) {
  const { [key]: _, ...missing } = good;
  return [missing, { ...good, [key]: 42 }, { ...good, [key]: null }, { ...good, [key]: {} }, { ...good, [key]: [] }];
}

function agrees(schema: z.ZodObject, check: (x: unknown) => boolean, fields: object, good: Record<string, unknown>) {
  expect(Object.keys(fields).sort()).toEqual(Object.keys(schema.shape).sort());
  expect(check(good)).toBe(true);
  expect(schema.safeParse(good).success).toBe(true);
  for (const key of Object.keys(schema.shape)) {
    for (const bad of variants(good, key)) {
      expect({ key, bad, check: check(bad) }).toEqual({ key, bad, check: schema.safeParse(bad).success });
    }
  }
  for (const junk of [null, undefined, 'user', 7, [good]]) expect(check(junk)).toBe(false);
}

describe('stored-data shape checks agree with the contract', () => {
  it('User', () => {
    const anna = {
      id: 'u1',
      username: 'anna',
      displayName: 'Анна',
      avatarUrl: null,
      status: 'AWAY',
      lastSeenAt: '2026-01-01T00:00:00.000Z',
      eblid: '0420',
      bio: null,
      email: 'anna@example.org',
    };
    agrees(User, isUser, userFields, anna);
    expect(isUser({ ...anna, status: 'SLEEPING' })).toBe(false);
  });

  it('Attachment', () => {
    agrees(Attachment, isAttachment, attachmentFields, {
      url: '/uploads/a',
      type: 'IMAGE',
      name: 'a.png',
      size: 3,
      width: 1,
      height: 1,
    });
    expect(isAttachment({ url: '/uploads/a', type: 'VIDEO', name: null, size: null, width: null, height: null })).toBe(
      false,
    );
    expect(isAttachment({ url: '/uploads/a', type: 'FILE', name: null, size: 1.5, width: null, height: null })).toBe(
      false,
    );
  });
});
