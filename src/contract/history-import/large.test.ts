// A 200 000-message export, generated and zipped as a stream: how long reading it takes and how much memory it holds.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Zip, ZipDeflate } from 'fflate';
import { describe, expect, it } from 'vitest';
import { analyseExport, readExportMessages, zipExportFiles } from './index';
import { enc } from './test-fixtures';
import { bytesSource } from './zip';

const COUNT = 200_000;
const START = Date.UTC(2020, 0, 1);
const NOW = Date.UTC(2024, 0, 1);
const WORDS = [
  'собака',
  'кошка',
  'завтра',
  'встречаемся',
  'в',
  'парке',
  'привет',
  'как',
  'дела',
  'отлично',
  'смотри',
  'фото',
];

function sentence(i: number): string {
  const n = 3 + (i % 9);
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(WORDS[(i * 7 + k * 3) % WORDS.length]);
  return out.join(' ');
}

/** Zips one file whose text comes from `parts`, deflating as it goes: the whole text never exists at once. */
function zipStream(name: string, parts: () => Generator<string>): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    chunks.push(data);
  });
  const file = new ZipDeflate(name, { level: 1 });
  zip.add(file);
  let buf = '';
  for (const p of parts()) {
    buf += p;
    if (buf.length > 256 * 1024) {
      file.push(enc(buf));
      buf = '';
    }
  }
  file.push(enc(buf), true);
  zip.end();
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function* telegram(): Generator<string> {
  yield '{\n "name": "Большой чат",\n "type": "private_supergroup",\n "id": 42,\n "messages": [\n';
  for (let i = 0; i < COUNT; i++) {
    const at = START + i * 60_000;
    const iso = new Date(at).toISOString().slice(0, 19);
    const user = i % 50;
    const text =
      i % 10 === 0
        ? JSON.stringify([
            sentence(i),
            { type: 'bold', text: ' важно' },
            ' ',
            { type: 'link', text: 'https://example.org' },
          ])
        : JSON.stringify(sentence(i));
    yield `${i ? ',\n' : ''}  {\n   "id": ${i + 1},\n   "type": "message",\n   "date": "${iso}",\n   "date_unixtime": "${at / 1000}",\n   "from": "Участник ${user}",\n   "from_id": "user${user}",\n${i % 7 === 0 && i ? `   "reply_to_message_id": ${i},\n` : ''}   "text": ${text},\n   "text_entities": []\n  }`;
  }
  yield '\n ]\n}\n';
}

function* whatsapp(): Generator<string> {
  for (let i = 0; i < COUNT; i++) {
    const d = new Date(START + i * 60_000);
    const p = (n: number) => String(n).padStart(2, '0');
    const head = `[${p(d.getUTCDate())}.${p(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}, ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:00]`;
    yield `${head} Участник ${i % 50}: ${sentence(i)}${i % 5 === 0 ? `\n${sentence(i + 1)}` : ''}\n`;
  }
}

// What the readers keep, not the garbage they leave: the heap is measured after a full collection (other tests share
// this process, and when a collection runs is theirs as much as ours).
setFlagsFromString('--expose_gc');
const collect = runInNewContext('gc') as () => void;

async function measure(zip: Uint8Array) {
  const files = await zipExportFiles(bytesSource(zip));
  collect();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const sample = () => {
    collect();
    const h = process.memoryUsage().heapUsed;
    if (h > peak) peak = h;
  };
  const t0 = performance.now();
  const summary = await analyseExport(files, { now: NOW });
  const t1 = performance.now();
  let n = 0;
  let last = 0;
  for await (const m of readExportMessages(files, { now: NOW })) {
    if (m.date < last) throw new Error('out of order');
    last = m.date;
    if (++n % 5000 === 0) sample();
  }
  const t2 = performance.now();
  sample();
  return { summary, n, analyseMs: t1 - t0, readMs: t2 - t1, growthMb: (peak - base) / 2 ** 20 };
}

describe(`a ${COUNT} message export`, () => {
  it('Telegram: analysed and read in bounded time and memory', async () => {
    const zip = zipStream('ChatExport_2024-01-01/result.json', telegram);
    const r = await measure(zip);
    console.info(
      `Telegram ${COUNT}: zip ${(zip.length / 2 ** 20).toFixed(1)} MB; analyse ${Math.round(r.analyseMs)} ms, read ${Math.round(r.readMs)} ms, heap growth ${r.growthMb.toFixed(1)} MB`,
    );
    expect(r.summary.messageCount).toBe(COUNT);
    expect(r.summary.authors).toHaveLength(50);
    expect(r.n).toBe(COUNT);
    expect(r.growthMb).toBeLessThan(25);
    expect(r.analyseMs + r.readMs).toBeLessThan(60_000);
  }, 120_000);

  it('WhatsApp: analysed and read in bounded time and memory', async () => {
    const zip = zipStream('_chat.txt', whatsapp);
    const r = await measure(zip);
    console.info(
      `WhatsApp ${COUNT}: zip ${(zip.length / 2 ** 20).toFixed(1)} MB; analyse ${Math.round(r.analyseMs)} ms, read ${Math.round(r.readMs)} ms, heap growth ${r.growthMb.toFixed(1)} MB`,
    );
    expect(r.summary.messageCount).toBe(COUNT);
    expect(r.n).toBe(COUNT);
    expect(r.growthMb).toBeLessThan(25);
    expect(r.analyseMs + r.readMs).toBeLessThan(60_000);
  }, 120_000);
});
