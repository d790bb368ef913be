// Draws the app icons of the web app manifest (vite.config.ts) from the brand mark (public/brand.svg):
// 192 and 512 px as drawn, and a maskable 512 px whose mark sits inside the 80 % safe zone on a full-bleed
// background (launchers cut it to a circle or a squircle). Run once after changing the mark:
// `node scripts/make-icons.mjs`; the PNGs are committed under public/icons/.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const mark = fs.readFileSync(path.join(root, 'public/brand.svg'));
const out = path.join(root, 'public/icons');
fs.mkdirSync(out, { recursive: true });

for (const size of [192, 512]) {
  await sharp(mark, { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, `icon-${size}.png`));
}

// Maskable: the mark at 70 % on the gradient's middle colour.
const inner = Math.round(512 * 0.7);
const markPng = await sharp(mark, { density: (72 * inner) / 64 })
  .resize(inner, inner)
  .png()
  .toBuffer();
await sharp({ create: { width: 512, height: 512, channels: 4, background: '#4366ec' } })
  .composite([{ input: markPng, gravity: 'center' }])
  .png({ compressionLevel: 9 })
  .toFile(path.join(out, 'maskable-512.png'));
console.log('icons written to public/icons/');
