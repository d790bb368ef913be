// Audio recognised from the bytes. file-type names a container (WebM and MP4 say video/… whatever they hold),
// so an upload counts as audio only when its header declares an audio track and no video track: the codec ids
// of a WebM/Matroska Tracks element (A_OPUS, V_VP8, …) or the handler types of an MP4 (soun, vide). The
// recorder's output (MediaRecorder) puts its track list in the first few kilobytes, which is what is sniffed.

/** Containers served inline as audio, by the type the browser is told. */
const AUDIO_MIMES = new Set([
  'audio/ogg',
  'audio/ogg; codecs=opus',
  'audio/opus',
  'audio/mpeg',
  'audio/mp4',
  'audio/x-m4a',
  'audio/aac',
  'audio/wav',
  'audio/webm',
]);

const has = (head: Buffer, marker: string) => head.includes(Buffer.from(marker, 'latin1'));

/**
 * The type to serve an upload with when it is audio only, or null. `mime` is what file-type read from `head`.
 */
export function audioType(mime: string | undefined, head: Buffer): string | null {
  if (!mime) return null;
  if (mime === 'video/webm' || mime === 'video/x-matroska') {
    const audio = has(head, 'A_OPUS') || has(head, 'A_VORBIS') || has(head, 'A_AAC');
    const video = has(head, 'V_VP8') || has(head, 'V_VP9') || has(head, 'V_AV1') || has(head, 'V_MPEG4');
    return audio && !video ? 'audio/webm' : null;
  }
  if (mime === 'video/mp4' || mime === 'audio/mp4' || mime === 'audio/x-m4a') {
    return has(head, 'soun') && !has(head, 'vide') ? 'audio/mp4' : null;
  }
  if (mime.startsWith('audio/ogg')) return 'audio/ogg';
  return AUDIO_MIMES.has(mime) ? mime : null;
}

/** A single `bytes=` range of a file of `size` bytes: [start, end] inclusive, 'unsatisfiable', or null to send it whole. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answering with the whole file is allowed (RFC 9110, section 14.2).
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
