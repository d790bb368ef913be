// What a secret chat's import derives before encrypting: the export's key (the same file, chosen again, continues
// where it stopped) and the text each message carries (its author's name first, within the message limit).
import { describe, expect, it } from 'vitest';
import type { ImportedMessage } from '../../contract/history-import/types';
import { LIMITS } from '../../contract/limits';
import { importedText, importKeyOf } from './secret-import';
import { memoryPositions } from './positions';

const msg = (over: Partial<ImportedMessage>): ImportedMessage => ({
  sourceId: '1',
  date: Date.UTC(2024, 2, 12),
  authorKey: 'user1',
  authorName: 'Ольга',
  kind: 'text',
  text: 'Наша собака спит',
  ...over,
});

describe('secret import', () => {
  it('keys an export by its bytes and the chat chosen, not by its name', async () => {
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 31) % 251);
    const a = await importKeyOf(new File([bytes], 'export.zip'), null);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(await importKeyOf(new File([bytes], 'другое имя.zip'), null)).toBe(a);
    expect(await importKeyOf(new File([bytes], 'export.zip'), '42')).not.toBe(a);
    const changed = bytes.slice();
    changed[changed.length - 1] ^= 1;
    expect(await importKeyOf(new File([changed], 'export.zip'), null)).not.toBe(a);
  });

  it('writes the author on the first line; service lines and placeholders as they are; never past the limit', () => {
    expect(importedText(msg({}), 'telegram')).toBe('Ольга (из Telegram)\nНаша собака спит');
    expect(importedText(msg({ authorKey: null, kind: 'service', text: 'Анна создала группу' }), 'telegram')).toBe(
      'Анна создала группу',
    );
    expect(importedText(msg({ kind: 'placeholder', text: '', placeholder: 'Стикер 🐶' }), 'whatsapp')).toBe(
      'Ольга (из WhatsApp)\nСтикер 🐶',
    );
    const long = importedText(msg({ text: 'а'.repeat(LIMITS.messageTextMax + 50) }), 'telegram');
    expect(long).toHaveLength(LIMITS.messageTextMax);
    expect(long.endsWith('…')).toBe(true);
  });

  it('keeps the position per user, chat and export', async () => {
    const p = memoryPositions();
    await p.set('u1', 's1', 'k', { done: 50, total: 120 });
    expect(await p.get('u1', 's1', 'k')).toEqual({ done: 50, total: 120 });
    expect(await p.get('u1', 's2', 'k')).toBeNull();
    expect(await p.get('u2', 's1', 'k')).toBeNull();
  });
});
