// The part of archiver 8 (ESM, no bundled types) that the export uses.
declare module 'archiver' {
  import type { Readable, Transform } from 'node:stream';

  export interface EntryData {
    name: string;
    date?: Date | string;
  }

  export class ZipArchive extends Transform {
    constructor(options?: { zlib?: { level?: number }; forceZip64?: boolean });
    append(source: Readable | Buffer | string, data: EntryData): this;
    finalize(): Promise<void>;
    /** Bytes written so far. */
    pointer(): number;
    abort(): this;
    on(event: 'entry', listener: (entry: EntryData) => void): this;
    on(event: 'warning' | 'error', listener: (err: Error) => void): this;
    // biome-ignore lint/suspicious/noExplicitAny: Node's own EventEmitter signature
    on(event: string | symbol, listener: (...args: any[]) => void): this;
  }
}
