// Browser image work for the avatar editor: read a chosen file for the crop view, and draw the chosen square
// of it (in the image's own pixels, as the crop view reports it) onto a canvas to upload.
export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Largest side of the uploaded avatar; it is shown at most a few hundred pixels wide. */
export const AVATAR_SIZE = 512;

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

function loadImage(source: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image failed to load'));
    img.src = source;
  });
}

/**
 * The square `area` of the image as a WebP (PNG where WebP cannot be encoded). Below 100 % zoom the area is larger
 * than the image: the uncovered part stays transparent.
 */
export async function cropToBlob(source: string, area: PixelArea, maxSize = AVATAR_SIZE): Promise<Blob> {
  const img = await loadImage(source);
  const size = Math.max(1, Math.min(maxSize, Math.round(area.width)));
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no canvas');
  const scale = size / area.width;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, -area.x * scale, -area.y * scale, img.naturalWidth * scale, img.naturalHeight * scale);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('crop failed'))), 'image/webp', 0.9);
  });
}
