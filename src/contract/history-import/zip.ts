// A ZIP archive read from its central directory, one file at a time, without ever holding a file whole: the export
// may be gigabytes. Hostile archives (zip bombs, lying sizes, overlapping entries, paths that climb out of the export,
// symlinks) are refused with a Russian ImportFormatError before a byte of them is used.
import { Inflate } from 'fflate';
import { type ImportLimits, withLimits } from './limits';
import { type ExportFiles, ImportFormatError } from './types';

/** Random access to a ZIP's bytes: a file handle on the server, a Blob in the browser. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

interface Entry {
  path: string;
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  headerOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const CHUNK = 16 * 1024; // compressed bytes per inflate step: at most ~16 MB of output even at deflate's 1 032:1

const damaged = () => new ImportFormatError('Архив повреждён или это не ZIP-файл.');
const bomb = (path: string) =>
  new ImportFormatError(`Файл «${path}» в архиве распаковывается не в тот размер, что заявлен: архив отклонён.`);

function u16(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8);
}
function u32(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}
function u64(b: Uint8Array, o: number): number {
  const n = u32(b, o) + u32(b, o + 4) * 2 ** 32;
  if (!Number.isSafeInteger(n)) throw damaged();
  return n;
}

async function readExactly(src: ByteSource, offset: number, length: number): Promise<Uint8Array> {
  if (offset < 0 || length < 0 || offset + length > src.size) throw damaged();
  const b = await src.read(offset, length);
  if (b.length !== length) throw damaged();
  return b;
}

const utf8 = new TextDecoder('utf-8');

/**
 * A path as the archive names it, made safe or refused: '/'-separated, relative, no '.' or '..' segments.
 * Returns null for a directory entry.
 */
export function safeArchivePath(raw: string): string | null {
  if (raw.includes('\0')) throw new ImportFormatError('Имя файла в архиве содержит недопустимый символ: архив отклонён.');
  const name = raw.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    throw new ImportFormatError(`Файл «${raw}» в архиве указан абсолютным путём: архив отклонён.`);
  }
  const parts = name.split('/');
  const isDir = parts[parts.length - 1] === '';
  const kept = parts.filter((p) => p !== '' && p !== '.');
  if (kept.some((p) => p === '..')) {
    throw new ImportFormatError(`Файл «${raw}» в архиве ведёт за пределы экспорта: архив отклонён.`);
  }
  if (isDir || kept.length === 0) return null;
  return kept.join('/');
}

/** Files the OS adds to a zipped folder, not part of any export. */
function isJunk(path: string): boolean {
  return path.startsWith('__MACOSX/') || /(^|\/)\.DS_Store$/.test(path) || /(^|\/)Thumbs\.db$/i.test(path);
}

async function findEnd(src: ByteSource): Promise<{ count: number; cdSize: number; cdOffset: number }> {
  if (src.size < 22) throw damaged();
  const tailLength = Math.min(src.size, 22 + 0xffff);
  const tailStart = src.size - tailLength;
  const tail = await readExactly(src, tailStart, tailLength);
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) !== EOCD) continue;
    let count = u16(tail, i + 10);
    let cdSize = u32(tail, i + 12);
    let cdOffset = u32(tail, i + 16);
    // ZIP64: the record sits before a locator 20 bytes ahead of the end record.
    if ((count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) && i >= 20) {
      if (u32(tail, i - 20) === EOCD64_LOCATOR) {
        const at = u64(tail, i - 20 + 8);
        const rec = await readExactly(src, at, 56);
        if (u32(rec, 0) !== EOCD64) throw damaged();
        count = u64(rec, 32);
        cdSize = u64(rec, 40);
        cdOffset = u64(rec, 48);
      }
    }
    return { count, cdSize, cdOffset };
  }
  throw damaged();
}

/** The archive's file list from its central directory, checked against the limits. */
async function readDirectory(src: ByteSource, limits: ImportLimits): Promise<Entry[]> {
  const { count, cdSize, cdOffset } = await findEnd(src);
  if (count > limits.maxEntries) {
    throw new ImportFormatError(
      `В архиве ${count} файлов — больше, чем можно импортировать (${limits.maxEntries}): архив отклонён.`,
    );
  }
  // Each record is at least 46 bytes and its name at most 64 KiB: a directory claiming more is a lie.
  if (cdSize > count * (46 + 3 * 0xffff) || cdOffset + cdSize > src.size) throw damaged();
  const cd = await readExactly(src, cdOffset, cdSize);
  const entries: Entry[] = [];
  let total = 0;
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > cd.length || u32(cd, p) !== CENTRAL) throw damaged();
    const madeBy = u16(cd, p + 4) >> 8;
    const flags = u16(cd, p + 8);
    const method = u16(cd, p + 10);
    const crc = u32(cd, p + 16);
    let compressedSize = u32(cd, p + 20);
    let size = u32(cd, p + 24);
    const nameLength = u16(cd, p + 28);
    const extraLength = u16(cd, p + 30);
    const commentLength = u16(cd, p + 32);
    const external = u32(cd, p + 38);
    let headerOffset = u32(cd, p + 42);
    const end = p + 46 + nameLength + extraLength + commentLength;
    if (end > cd.length) throw damaged();
    const raw = utf8.decode(cd.subarray(p + 46, p + 46 + nameLength));
    // ZIP64 sizes live in the extra field, in this order, only for the fields that overflowed.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = u16(cd, e);
      const len = u16(cd, e + 2);
      if (e + 4 + len > extraEnd) throw damaged();
      if (id === 0x0001) {
        let q = e + 4;
        const take = () => {
          if (q + 8 > e + 4 + len) throw damaged();
          const v = u64(cd, q);
          q += 8;
          return v;
        };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (headerOffset === 0xffffffff) headerOffset = take();
      }
      e += 4 + len;
    }
    p = end;
    // Unix symlinks (made on Unix, mode S_IFLNK) would point anywhere once unpacked.
    if (madeBy === 3 && ((external >>> 16) & 0o170000) === 0o120000) {
      throw new ImportFormatError(`Файл «${raw}» в архиве — символическая ссылка: архив отклонён.`);
    }
    const path = safeArchivePath(raw);
    if (path === null || isJunk(path)) continue;
    if (flags & 1) throw new ImportFormatError('Архив защищён паролем: сохраните экспорт без пароля.');
    total += size;
    if (total > limits.maxTotalBytes) {
      throw new ImportFormatError('Архив распаковывается в слишком большой объём: архив отклонён.');
    }
    if (size > 1024 * 1024 && size > compressedSize * limits.maxRatio) {
      throw new ImportFormatError(`Файл «${path}» в архиве сжат подозрительно сильно (похоже на zip-бомбу): архив отклонён.`);
    }
    if (method === 0 && size !== compressedSize) throw damaged();
    entries.push({ path, method, compressedSize, size, crc, headerOffset });
  }
  // Entries that share bytes (one compressed stream named a thousand times) multiply the output without limit.
  const byOffset = [...entries].sort((a, b) => a.headerOffset - b.headerOffset);
  for (let i = 0; i < byOffset.length; i++) {
    const a = byOffset[i];
    const next = i + 1 < byOffset.length ? byOffset[i + 1].headerOffset : cdOffset;
    if (a.headerOffset + 30 + a.compressedSize > next) {
      throw new ImportFormatError('Файлы в архиве накладываются друг на друга (похоже на zip-бомбу): архив отклонён.');
    }
  }
  return entries;
}

/** The top folder every file sits in ("ChatExport_2024-03-12/"), when the user zipped the export's folder. */
function commonFolder(paths: string[]): string {
  if (paths.length === 0) return '';
  const first = paths[0].split('/')[0];
  if (paths.every((p) => p.startsWith(`${first}/`))) return `${first}/`;
  return '';
}

let crcTable: Uint32Array | null = null;
function crc32(crc: number, data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const t = crcTable;
  let c = ~crc;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

async function* inflateEntry(src: ByteSource, entry: Entry): AsyncGenerator<Uint8Array> {
  const header = await readExactly(src, entry.headerOffset, 30);
  if (u32(header, 0) !== LOCAL) throw damaged();
  const start = entry.headerOffset + 30 + u16(header, 26) + u16(header, 28);
  const end = start + entry.compressedSize;
  if (end > src.size) throw damaged();
  let produced = 0;
  let crc = 0;
  if (entry.method === 0) {
    for (let at = start; at < end; at += CHUNK * 4) {
      const chunk = await readExactly(src, at, Math.min(CHUNK * 4, end - at));
      produced += chunk.length;
      crc = crc32(crc, chunk);
      yield chunk;
    }
  } else if (entry.method === 8) {
    let out: Uint8Array[] = [];
    let ended = false;
    const inflate = new Inflate((data, final) => {
      produced += data.length;
      // A lying size: stop at the first byte past the declared one, never inflate the rest.
      if (produced > entry.size) throw bomb(entry.path);
      crc = crc32(crc, data);
      out.push(data);
      if (final) ended = true;
    });
    for (let at = start; at < end; at += CHUNK) {
      const chunk = await readExactly(src, at, Math.min(CHUNK, end - at));
      try {
        inflate.push(chunk, at + chunk.length >= end);
      } catch (e) {
        if (e instanceof ImportFormatError) throw e;
        throw new ImportFormatError(`Файл «${entry.path}» в архиве повреждён.`);
      }
      const ready = out;
      out = [];
      for (const d of ready) yield d;
    }
    if (entry.compressedSize === 0) throw new ImportFormatError(`Файл «${entry.path}» в архиве повреждён.`);
    if (!ended) throw new ImportFormatError(`Файл «${entry.path}» в архиве обрезан.`);
  } else {
    throw new ImportFormatError(
      `Файл «${entry.path}» сжат способом, который не поддерживается (${entry.method}): пересохраните архив обычным ZIP.`,
    );
  }
  if (produced !== entry.size) throw bomb(entry.path);
  if (crc !== entry.crc) throw new ImportFormatError(`Файл «${entry.path}» в архиве повреждён (не сходится контрольная сумма).`);
}

/** The files of a zipped export. Reads only the central directory now; each file is inflated when opened. */
export async function zipExportFiles(src: ByteSource, limits?: Partial<ImportLimits>): Promise<ExportFiles> {
  const all = await readDirectory(src, withLimits(limits));
  const prefix = commonFolder(all.map((e) => e.path));
  const byPath = new Map<string, Entry>();
  for (const e of all) {
    const path = e.path.slice(prefix.length);
    if (byPath.has(path)) throw new ImportFormatError(`Файл «${path}» встречается в архиве дважды: архив отклонён.`);
    byPath.set(path, e);
  }
  return {
    async list() {
      return [...byPath].map(([path, e]) => ({ path, size: e.size }));
    },
    open(path: string) {
      const entry = byPath.get(path);
      if (!entry) throw new ImportFormatError(`В архиве нет файла «${path}».`);
      return inflateEntry(src, entry);
    },
  };
}

/** Whether the bytes look like a ZIP archive (a local header first, or an empty archive's end record). */
export async function looksLikeZip(src: ByteSource): Promise<boolean> {
  if (src.size < 4) return false;
  const head = await src.read(0, 4);
  const sig = u32(head, 0);
  return sig === LOCAL || sig === EOCD;
}

/** A ByteSource over bytes already in memory (tests, small exports). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    async read(offset, length) {
      return bytes.subarray(offset, offset + length);
    },
  };
}
