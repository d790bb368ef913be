// The readers see a file as chunks cut anywhere: inside a multi-byte letter, an escape, a surrogate pair, a CRLF.
import { describe, expect, it } from 'vitest';
import { type ExportFiles, type ImportedMessage, memoryExportFiles, readExportMessages } from './index';
import { JsonStream } from './json-stream';
import { NOW, enc, tg } from './test-fixtures';

/** The same files, each streamed in pieces of 1, 2, … 7 bytes. */
function crumbled(files: ExportFiles): ExportFiles {
  return {
    list: () => files.list(),
    async *open(path) {
      let size = 1;
      for await (const chunk of files.open(path)) {
        for (let i = 0; i < chunk.length; i += size, size = (size % 7) + 1) yield chunk.subarray(i, i + size);
      }
    },
  };
}

async function all(files: ExportFiles): Promise<ImportedMessage[]> {
  const out: ImportedMessage[] = [];
  for await (const m of readExportMessages(files, { now: NOW })) out.push(m);
  return out;
}

describe('chunk boundaries', () => {
  it('Telegram: the same messages however the bytes are cut', async () => {
    // Written by hand to keep escapes JSON.stringify would not produce: \u escapes, a surrogate pair, \/.
    const json = `\ufeff{"name":"Чат \\u00ab1\\u00bb","type":"personal_chat","id":5,"about":"скип \\"\\\\ \\ud83d\\udc36","messages":[${[
      JSON.stringify(tg(1, '2024-03-12T14:05:33', { from: 'Анна', from_id: 'user1', text: 'Ёжик 🐶 «ёлка»' })),
      `{"id":2,"type":"message","date_unixtime":"1710252400","from":"Б\\u043e\\u0440\\u0438\\u0441","from_id":"user2","text":"\\ud83d\\udc36 a\\/b \\"q\\" \\n\\t\\u0000end","text_entities":[]}`,
      JSON.stringify(
        tg(3, '2024-03-12T14:07:00', {
          from: 'Анна',
          from_id: 'user1',
          text: ['x', { type: 'bold', text: '{[жир]}' }],
        }),
      ),
    ].join(',\n')}],"tail":{"a":[1,2,{"b":"}]"}]}}`;
    const files = memoryExportFiles({ 'result.json': enc(json) });
    const whole = await all(files);
    expect(whole.map((m) => m.text)).toEqual(['Ёжик 🐶 «ёлка»', '🐶 a/b "q" \n\t\u0000end', 'x{[жир]}']);
    expect(whole[1].authorName).toBe('Борис');
    expect(await all(crumbled(files))).toEqual(whole);
  });

  it('WhatsApp: the same messages however the bytes are cut', async () => {
    const text = '\ufeff[12.03.2024, 14:05:33] Анна: Ёжик 🐶\r\nвторая строка\r\n[12.03.2024, 14:06:00] Борис: ок\r\n';
    const files = memoryExportFiles({ '_chat.txt': enc(text) });
    const whole = await all(files);
    expect(whole.map((m) => m.text)).toEqual(['Ёжик 🐶\nвторая строка', 'ок']);
    expect(await all(crumbled(files))).toEqual(whole);
  });

  it('top-level scalars and the selector see the path of each value', () => {
    const seen: unknown[] = [];
    const p = new JsonStream({
      maxDepth: 8,
      maxTokenBytes: 100,
      select: (path) => (path.length < 2 ? 'descend' : path[1] === 1 || path[0] === 'n' ? 'build' : 'skip'),
      onValue: (path, v) => seen.push([...path, v]),
    });
    for (const c of enc('{"a":[10,{"x":1},-2.5e3],"n":[true,null,false,"s"]}')) p.write(new Uint8Array([c]));
    p.end();
    expect(seen).toEqual([
      ['a', 1, { x: 1 }],
      ['n', 0, true],
      ['n', 1, null],
      ['n', 2, false],
      ['n', 3, 's'],
    ]);
  });
});
