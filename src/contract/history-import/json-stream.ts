// A streaming JSON reader small enough to bound: depth and the length of any one string are capped, and only the
// parts a caller selects become values — the rest of a gigabyte file is scanned and forgotten. A selected object
// (one message) is cut out by a tight byte scan and handed to the engine's JSON.parse: the scan bounds it, the engine
// parses it fast.
import { ImportFormatError } from './types';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type PathSegment = string | number;

/**
 * Called for each value's path before it is read: 'build' makes the whole value and hands it to `onValue`,
 * 'descend' walks into a container (calling the selector for its members), 'skip' scans past it.
 */
export type Selector = (path: readonly PathSegment[]) => 'build' | 'descend' | 'skip';

export interface JsonStreamOptions {
  maxDepth: number;
  /** One string, bytes. */
  maxTokenBytes: number;
  /** One built container (a message), bytes. */
  maxValueBytes?: number;
  select: Selector;
  onValue: (path: readonly PathSegment[], value: JsonValue) => void;
}

enum S {
  Value,
  FirstValueOrEnd, // after '['
  KeyOrEnd, // after '{'
  Key, // after ',' in an object
  Colon,
  CommaOrEnd,
  String,
  Number,
  Literal,
  /** Inside a built or skipped container: only quotes, escapes and brackets matter. */
  Scan,
  Done,
}

interface Frame {
  isArray: boolean;
  /** The next index (arrays) or the last key (objects). */
  at: PathSegment;
}

const malformed = (what: string) => new ImportFormatError(`Файл экспорта повреждён: ${what}.`);

export class JsonStream {
  private state = S.Value;
  /** Containers walked into ('descend'); built and skipped ones are scanned, never pushed. */
  private readonly stack: Frame[] = [];
  private readonly path: PathSegment[] = [];
  private stringIsKey = false;
  private stringParts: string[] = [];
  private stringBytes = 0;
  private readonly decoder = new TextDecoder('utf-8');
  private escape = ''; // an escape sequence split across chunks: '\\', '\\u12', …
  private pendingHigh = -1;
  private token = '';
  /** The mode of the value about to be read. */
  private mode: 'build' | 'descend' | 'skip' = 'descend';
  private started = false;
  private head = new Uint8Array();
  // The container being scanned.
  private scanDepth = 0;
  private scanInString = false;
  private scanEscape = false;
  private scanStringBytes = 0;
  private scanBytes = 0;
  private scanKeep = false;
  private scanParts: Uint8Array[] = [];

  constructor(private readonly o: JsonStreamOptions) {}

  write(input: Uint8Array): void {
    let chunk = input;
    let i = 0;
    if (!this.started) {
      // The first three bytes decide whether there is a byte-order mark, however the file is cut.
      const head = new Uint8Array(this.head.length + chunk.length);
      head.set(this.head);
      head.set(chunk, this.head.length);
      if (head.length < 3) {
        this.head = head;
        return;
      }
      this.head = new Uint8Array();
      this.started = true;
      chunk = head;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
      this.mode = this.o.select(this.path);
    }
    const n = chunk.length;
    while (i < n) {
      switch (this.state) {
        case S.Scan:
          i = this.scan(chunk, i);
          continue;
        case S.String:
          i = this.readString(chunk, i);
          continue;
        case S.Number:
        case S.Literal: {
          const start = i;
          while (i < n && isTokenChar(chunk[i])) i++;
          this.token += String.fromCharCode(...chunk.subarray(start, i));
          if (this.token.length > 64) throw malformed('слишком длинное число');
          if (i < n) this.endScalar();
          continue;
        }
        default:
          break;
      }
      const c = chunk[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      i++;
      switch (this.state) {
        case S.Value:
        case S.FirstValueOrEnd:
          if (c === 0x5d && this.state === S.FirstValueOrEnd) {
            this.close(true);
            break;
          }
          this.beginValue(c, chunk, i - 1);
          break;
        case S.KeyOrEnd:
        case S.Key:
          if (c === 0x7d && this.state === S.KeyOrEnd) {
            this.close(false);
          } else if (c === 0x22) {
            this.beginString(true);
          } else {
            throw malformed('ожидалось имя поля');
          }
          break;
        case S.Colon:
          if (c !== 0x3a) throw malformed('ожидалось «:»');
          this.state = S.Value;
          break;
        case S.CommaOrEnd: {
          const top = this.stack[this.stack.length - 1];
          if (!top) throw malformed('лишние данные после конца');
          if (c === 0x2c) {
            if (top.isArray) {
              this.path[this.path.length - 1] = top.at;
              this.mode = this.o.select(this.path);
              this.state = S.Value;
            } else {
              this.state = S.Key;
            }
          } else if (c === (top.isArray ? 0x5d : 0x7d)) {
            this.close(top.isArray);
          } else {
            throw malformed('ожидалась «,»');
          }
          break;
        }
        case S.Done:
          throw malformed('лишние данные после конца');
        default:
          throw malformed('неожиданный символ');
      }
    }
  }

  end(): void {
    if (!this.started && this.head.length > 0) {
      this.started = true;
      this.mode = this.o.select(this.path);
      const head = this.head;
      this.head = new Uint8Array();
      this.write(head);
    }
    if ((this.state === S.Number || this.state === S.Literal) && this.stack.length === 0) this.endScalar();
    if (this.state !== S.Done) throw malformed('файл обрывается посередине');
  }

  private beginValue(c: number, chunk: Uint8Array, at: number): void {
    if (c === 0x7b || c === 0x5b) {
      if (this.stack.length >= this.o.maxDepth) throw malformed('слишком глубокая вложенность');
      if (this.mode !== 'descend') {
        this.scanDepth = 1;
        this.scanInString = false;
        this.scanEscape = false;
        this.scanBytes = 1;
        this.scanKeep = this.mode === 'build';
        this.scanParts = [];
        this.state = S.Scan;
        // The opening bracket is part of the value's bytes.
        if (this.scanKeep) this.scanParts.push(chunk.slice(at, at + 1));
        return;
      }
      const isArray = c === 0x5b;
      this.stack.push({ isArray, at: 0 });
      if (isArray) {
        this.path.push(0);
        this.mode = this.o.select(this.path);
        this.state = S.FirstValueOrEnd;
      } else {
        this.path.push('');
        this.state = S.KeyOrEnd;
      }
    } else if (c === 0x22) {
      this.beginString(false);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      this.token = String.fromCharCode(c);
      this.state = S.Number;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      this.token = String.fromCharCode(c);
      this.state = S.Literal;
    } else {
      throw malformed('неожиданный символ');
    }
  }

  /** Scans a built or skipped container from `i` to its closing bracket; returns where it stopped. */
  private scan(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    const start = i;
    const maxString = this.o.maxTokenBytes;
    const maxDepth = this.o.maxDepth - this.stack.length;
    let depth = this.scanDepth;
    let inString = this.scanInString;
    let escaped = this.scanEscape;
    let stringBytes = this.scanStringBytes;
    let done = false;
    for (; i < n; i++) {
      const c = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        if (++stringBytes > maxString) throw malformed('слишком длинная строка');
      } else if (c === 0x22) {
        inString = true;
        stringBytes = 0;
      } else if (c === 0x7b || c === 0x5b) {
        if (++depth > maxDepth) throw malformed('слишком глубокая вложенность');
      } else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) {
          i++;
          done = true;
          break;
        }
      }
    }
    this.scanDepth = depth;
    this.scanInString = inString;
    this.scanEscape = escaped;
    this.scanStringBytes = stringBytes;
    this.scanBytes += i - start;
    if (this.scanKeep) {
      if (this.scanBytes > (this.o.maxValueBytes ?? 16 * this.o.maxTokenBytes))
        throw malformed('слишком большое сообщение');
      this.scanParts.push(chunk.slice(start, i));
    }
    if (done) this.endScan();
    return i;
  }

  private endScan(): void {
    if (this.scanKeep) {
      const parts = this.scanParts;
      this.scanParts = [];
      let text: string;
      if (parts.length === 1) {
        text = this.decoder.decode(parts[0]);
      } else {
        const all = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
        let at = 0;
        for (const p of parts) {
          all.set(p, at);
          at += p.length;
        }
        text = this.decoder.decode(all);
      }
      let value: JsonValue;
      try {
        value = JSON.parse(text);
      } catch {
        throw malformed('неверный JSON');
      }
      this.o.onValue(this.path, value);
    }
    this.afterValue();
  }

  private beginString(isKey: boolean): void {
    this.stringIsKey = isKey;
    this.stringParts = [];
    this.stringBytes = 0;
    this.state = S.String;
  }

  /** Reads string bytes from `i`; returns where it stopped. */
  private readString(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    const keep = this.stringIsKey || this.mode === 'build';
    while (i < n) {
      if (this.escape) {
        i = this.readEscape(chunk, i, keep);
        continue;
      }
      let j = i;
      while (j < n && chunk[j] !== 0x22 && chunk[j] !== 0x5c) j++;
      this.stringBytes += j - i;
      if (this.stringBytes > this.o.maxTokenBytes) throw malformed('слишком длинная строка');
      if (j > i && keep) {
        this.flushHigh();
        this.stringParts.push(this.decoder.decode(chunk.subarray(i, j), { stream: true }));
      }
      if (j === n) return n;
      if (chunk[j] === 0x5c) {
        this.escape = '\\';
        i = j + 1;
        continue;
      }
      // The closing quote.
      if (keep) {
        this.flushHigh();
        this.stringParts.push(this.decoder.decode());
      }
      const s = keep ? this.stringParts.join('') : '';
      this.stringParts = [];
      if (this.stringIsKey) {
        const top = this.stack[this.stack.length - 1];
        top.at = s;
        this.path[this.path.length - 1] = s;
        this.mode = this.o.select(this.path);
        this.state = S.Colon;
      } else {
        this.scalar(s);
      }
      return j + 1;
    }
    return i;
  }

  private readEscape(chunk: Uint8Array, i: number, keep: boolean): number {
    const n = chunk.length;
    while (i < n) {
      this.escape += String.fromCharCode(chunk[i++]);
      const e = this.escape;
      if (e.length === 2 && e[1] !== 'u') {
        const ch = SIMPLE_ESCAPES[e[1]];
        if (ch === undefined) throw malformed('неверная escape-последовательность');
        if (keep) {
          this.flushHigh();
          this.stringParts.push(ch);
        }
        this.escape = '';
        this.stringBytes += 2;
        return i;
      }
      if (e.length === 6) {
        if (!/^[0-9a-fA-F]{4}$/.test(e.slice(2))) throw malformed('неверная escape-последовательность');
        const code = Number.parseInt(e.slice(2), 16);
        this.escape = '';
        this.stringBytes += 6;
        if (keep) {
          if (code >= 0xd800 && code < 0xdc00) {
            this.flushHigh();
            this.pendingHigh = code;
          } else if (code >= 0xdc00 && code < 0xe000 && this.pendingHigh >= 0) {
            this.stringParts.push(String.fromCharCode(this.pendingHigh, code));
            this.pendingHigh = -1;
          } else {
            this.flushHigh();
            this.stringParts.push(String.fromCharCode(code));
          }
        }
        return i;
      }
    }
    return i;
  }

  private flushHigh(): void {
    if (this.pendingHigh >= 0) {
      this.stringParts.push('\ufffd');
      this.pendingHigh = -1;
    }
  }

  private endScalar(): void {
    const t = this.token;
    this.token = '';
    let v: JsonValue;
    if (this.state === S.Literal) {
      if (t === 'true') v = true;
      else if (t === 'false') v = false;
      else if (t === 'null') v = null;
      else throw malformed('неизвестное слово');
    } else {
      if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(t)) throw malformed('неверное число');
      v = Number(t);
    }
    this.scalar(v);
  }

  private scalar(v: JsonValue): void {
    if (this.mode === 'build') this.o.onValue(this.path, v);
    this.afterValue();
  }

  private close(isArray: boolean): void {
    const frame = this.stack.pop() as Frame;
    if (frame.isArray !== isArray) throw malformed('скобки не совпадают');
    this.path.pop();
    this.afterValue();
  }

  private afterValue(): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.state = S.Done;
      return;
    }
    if (top.isArray) top.at = (top.at as number) + 1;
    this.state = S.CommaOrEnd;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

function isTokenChar(c: number): boolean {
  // digits, letters, '.', '+', '-'
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x45;
}
