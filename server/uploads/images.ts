// Uploaded images are decoded and encoded again before anyone sees them: the EXIF orientation is applied to the
// pixels, and metadata (EXIF with GPS position and camera, XMP, IPTC, comments) and any bytes after the image's
// end are gone. The format stays (JPEG, PNG, GIF, WebP; animations stay animated). Images whose header declares
// more pixels than the limits below are refused before anything is decoded (a 30 KB PNG can declare 256 MP).
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { HttpError } from '../http/errors';
import { newStorageKey } from './file-names';
import type { UploadStorage } from './storage';

/** One frame; a 40 MP photo is larger than any phone camera's. */
export const IMAGE_MAX_PIXELS = 40_000_000;
/** All frames of an animation together. */
export const ANIMATION_MAX_PIXELS = 200_000_000;

export const imageTooLarge = () =>
  new HttpError(413, `Изображение слишком большое: не больше ${IMAGE_MAX_PIXELS / 1_000_000} мегапикселей`);

interface Header {
  width: number;
  /** Height of one frame. */
  height: number;
  frames: number;
}

/** Where sharp reads the stored bytes from: a path (libvips reads only what it needs) or a stream. */
async function source(storage: UploadStorage, key: string): Promise<string | NodeJS.ReadableStream> {
  const path = storage.localPath?.(key);
  if (path) return path;
  const stream = await storage.read(key);
  if (!stream) throw new Error(`upload ${key} vanished`);
  return stream;
}

/** Dimensions from the header alone (nothing is decoded), or null when it is not a readable image. */
async function readHeader(storage: UploadStorage, key: string): Promise<Header | null> {
  const input = await source(storage, key);
  try {
    const meta =
      typeof input === 'string'
        ? await sharp(input, { animated: true, limitInputPixels: false }).metadata()
        : await input.pipe(sharp({ animated: true, limitInputPixels: false })).metadata();
    const frames = meta.pages && meta.pages > 1 ? meta.pages : 1;
    const height = meta.pageHeight ?? (meta.height ? meta.height / frames : 0);
    return meta.width && height ? { width: meta.width, height, frames } : null;
  } catch {
    return null;
  } finally {
    if (typeof input !== 'string') (input as NodeJS.ReadableStream & { destroy?(): void }).destroy?.();
  }
}

function encoder(mime: string, image: Sharp): Sharp {
  switch (mime) {
    case 'image/jpeg':
      return image.jpeg({ quality: 85 });
    case 'image/png':
      return image.png();
    case 'image/webp':
      return image.webp({ quality: 85 });
    case 'image/gif':
      return image.gif();
    default:
      throw new Error(`not a raster image type: ${mime}`);
  }
}

export interface CleanImage {
  key: string;
  size: number;
  width: number;
  height: number;
}

/**
 * Re-encodes the stored image `key` into a new key and removes the original. Refuses (413) an image over the
 * pixel limits; returns null when the bytes do not decode (the caller keeps them as a plain file).
 */
export async function cleanImage(storage: UploadStorage, key: string, mime: string): Promise<CleanImage | null> {
  const header = await readHeader(storage, key);
  if (!header) return null;
  if (
    header.width * header.height > IMAGE_MAX_PIXELS ||
    header.width * header.height * header.frames > ANIMATION_MAX_PIXELS
  ) {
    throw imageTooLarge();
  }
  const animated = header.frames > 1;
  const input = await source(storage, key);
  // failOn 'error': warnings such as data after the image's end are no reason to refuse it (they are dropped).
  const options: SharpOptions = { animated, limitInputPixels: ANIMATION_MAX_PIXELS, failOn: 'error' };
  const decoder = typeof input === 'string' ? sharp(input, options) : sharp(options);
  const image = encoder(mime, decoder.autoOrient());
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  const cleanKey = newStorageKey();
  try {
    const writing = storage.write(cleanKey, counter);
    await Promise.all([
      typeof input === 'string' ? pipeline(image, counter) : pipeline(input as NodeJS.ReadableStream, image, counter),
      writing,
    ]);
  } catch {
    await storage.remove(cleanKey);
    return null;
  }
  const clean = await readHeader(storage, cleanKey);
  if (!clean || size === 0) {
    await storage.remove(cleanKey);
    return null;
  }
  await storage.remove(key);
  return { key: cleanKey, size, width: clean.width, height: clean.height };
}
