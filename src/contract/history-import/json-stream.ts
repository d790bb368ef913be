// A streaming JSON reader small enough to bound: depth and the length of any one string or number are capped, and
// only the parts a caller selects are built into values — the rest of a gigabyte file is scanned and forgotten.
import { ImportFormatError } from './types';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type PathSegment = string | number;

/**
 * Called for each value's path before it is read: 'build' makes the whole value and hands it to `onValue`,
 * 'descend' walks into a container without building it, 'skip' scans past it.
 */
export type Selector = (path: readonly PathSegment[]) => 'build' | 'descend' | 'skip';

export interface JsonStreamOptions {
  maxDepth: number;
  maxTokenBytes: number;
  /** Values (strings, numbers, containers' members) in one built value. */
  maxBuiltTokens?: number;
  select: Selector;
  onValue: (path: readonly PathSegment[], value: JsonValue) => void;
}

const enum S {
  Value,
  FirstValueOrEnd, // after '['
  KeyOrEnd, // after '{'
  Key, // after ',' in an object
  Colon,
  CommaOrEnd,
  String,
  Number,
  Literal,
  Done,
}

interface Frame {
  isArray: boolean;
  /** The next index (arrays) or the last key (objects). */
  at: PathSegment;
  mode: 'build' | 'descend' | 'skip';
  value?: JsonValue[] | { [key: string]: JsonValue };
}

const malformed = (what: string) => new ImportFormatError(`Файл экспорта повреждён: ${what}.`);

export class JsonStream {
  private state = S.Value;
  private readonly stack: Frame[] = [];
  private readonly path: PathSegment[] = [];
  private stringIsKey = false;
  private stringParts: string[] = [];
  private stringBytes = 0;
  private decoder = new TextDecoder('utf-8');
  private escape = ''; // an escape sequence split across chunks: '\\', '\\u12', …
  private pendingHigh = -1;
  private token = '';
  private builtTokens = 0;
  /** The mode of the value about to be read (decided when its key or index is known). */
  private mode: 'build' | 'descend' | 'skip' = 'descend';
  private started = false;

  constructor(private readonly o: JsonStreamOptions) {}

  write(chunk: Uint8Array): void {
    let i = 0;
    const n = chunk.length;
    if (!this.started && n > 0) {
      this.started = true;
      if (n >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
      this.mode = this.o.select(this.path);
    }
    while (i < n) {
      const c = chunk[i];
      switch (this.state) {
        case S.String: {
          i = this.readString(chunk, i);
          continue;
        }
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
      // Whitespace between tokens.
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
          this.beginValue(c);
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
              this.mode = this.childMode(top);
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
    if (this.state === S.Number || this.state === S.Literal) {
      if (this.stack.length === 0) this.endScalar();
    }
    if (this.state !== S.Done) throw malformed('файл обрывается посередине');
  }

  private childMode(parent: Frame): 'build' | 'descend' | 'skip' {
    if (parent.mode === 'descend') return this.o.select(this.path);
    return parent.mode;
  }

  private beginValue(c: number): void {
    if (c === 0x7b || c === 0x5b) {
      const isArray = c === 0x5b;
      if (this.stack.length >= this.o.maxDepth) throw malformed('слишком глубокая вложенность');
      const frame: Frame = { isArray, at: 0, mode: this.mode };
      if (this.mode === 'build') {
        this.countBuilt();
        frame.value = isArray ? [] : {};
      }
      this.stack.push(frame);
      if (isArray) {
        this.path.push(0);
        this.mode = this.childMode(frame);
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

  private beginString(isKey: boolean): void {
    this.stringIsKey = isKey;
    this.stringParts = [];
    this.stringBytes = 0;
    this.state = S.String;
  }

  /** Reads string bytes from `i`; returns where it stopped. */
  private readString(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    const keep = this.stringIsKey ? this.stack[this.stack.length - 1].mode !== 'skip' : this.mode === 'build';
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
        this.mode = this.childMode(top);
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
        const code = Number.parseInt(e.slice(2), 16);
        if (!/^[0-9a-fA-F]{4}$/.test(e.slice(2))) throw malformed('неверная escape-последовательность');
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

  private countBuilt(): void {
    if (++this.builtTokens > (this.o.maxBuiltTokens ?? 200_000)) throw malformed('слишком большое сообщение');
  }

  private scalar(v: JsonValue): void {
    if (this.mode === 'build') {
      const top = this.stack[this.stack.length - 1];
      if (top && top.mode === 'build') {
        this.countBuilt();
        this.attach(top, v);
      } else {
        this.builtTokens = 0;
        this.o.onValue(this.path, v);
      }
    }
    this.afterValue();
  }

  private attach(top: Frame, v: JsonValue): void {
    if (top.isArray) (top.value as JsonValue[]).push(v);
    else (top.value as Record<string, JsonValue>)[top.at as string] = v;
  }

  private close(isArray: boolean): void {
    const frame = this.stack.pop() as Frame;
    if (frame.isArray !== isArray) throw malformed('скобки не совпадают');
    this.path.pop();
    const parent = this.stack[this.stack.length - 1];
    this.mode = frame.mode;
    if (frame.mode === 'build') {
      if (parent && parent.mode === 'build') {
        this.attach(parent, frame.value as JsonValue);
      } else {
        this.builtTokens = 0;
        this.o.onValue(this.path, frame.value as JsonValue);
      }
    }
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
