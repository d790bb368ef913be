// What an export may be before it is refused as hostile. Shared by the ZIP reader and both parsers.

export interface ImportLimits {
  /** Files in one archive (a year of a busy chat with media is tens of thousands). */
  maxEntries: number;
  /** Uncompressed bytes of all files together, as the archive declares them (and as inflating confirms). */
  maxTotalBytes: number;
  /** Uncompressed ÷ compressed for one file; text compresses 5–20×, a zip bomb 1 000×. */
  maxRatio: number;
  /** One WhatsApp line, one JSON string or number, one message's text. */
  maxLineBytes: number;
  /** Nesting of JSON arrays and objects (Telegram's own export nests 6 deep). */
  maxDepth: number;
}

export const importLimits: ImportLimits = {
  maxEntries: 250_000,
  maxTotalBytes: 16 * 1024 ** 3,
  maxRatio: 200,
  maxLineBytes: 1024 * 1024,
  maxDepth: 64,
};

export function withLimits(limits?: Partial<ImportLimits>): ImportLimits {
  return { ...importLimits, ...limits };
}
