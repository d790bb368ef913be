// Imported messages in the timeline (docs/behaviour.md §10.39): an author matched to nobody keeps the export's name,
// «Ольга (из Telegram)», on the left as someone else's message though stored under the importer's id; two such
// authors in a row are two runs, each named.
import { describe, expect, it } from 'vitest';
import { message, person } from '../../../tests/client/chat-fixtures';
import { messageRows } from './view-model';

const people = new Map([
  ['me', person('me', 'Я')],
  ['u2', person('u2', 'Анна')],
]);
const options = { me: 'me', conversationId: 'c1', isGroup: true, people, now: new Date('2025-03-01T12:00:00Z') };

describe('imported rows', () => {
  it('names unmatched authors «(из Telegram)», as others’ messages, each its own run', () => {
    const rows = messageRows(
      [
        message('m1', 'me', 1, { importedFrom: 'telegram', importedAuthor: 'Ольга' } as never),
        message('m2', 'me', 2, { importedFrom: 'telegram', importedAuthor: 'Пётр' } as never),
        message('m3', 'me', 3, { importedFrom: 'telegram' } as never),
        message('m4', 'u2', 4, { importedFrom: 'whatsapp' } as never),
      ],
      [],
      options,
    );
    expect(rows.map((r) => [r.senderName, r.own, r.showSender])).toEqual([
      ['Ольга (из Telegram)', false, true],
      ['Пётр (из Telegram)', false, true],
      ['Я', true, false],
      ['Анна', false, true],
    ]);
  });
});
