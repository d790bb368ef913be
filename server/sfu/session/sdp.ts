// Just enough SDP reading and rewriting for the SFU: which m-lines the client offers (kind, direction, msid),
// and the answer fixes Chrome needs from werift's output.

export type Direction = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';

export interface OfferedSection {
  mid: string;
  kind: string;
  port: number;
  direction: Direction;
  /** The browser track id from `a=msid:<stream> <track>` (livekit-client's cid), when present. */
  trackId: string | null;
}

export function parseSections(sdp: string): OfferedSection[] {
  const sections: OfferedSection[] = [];
  let current: OfferedSection | null = null;
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith('m=')) {
      const [kind, port] = line.slice(2).split(' ');
      current = { mid: '', kind: kind ?? '', port: Number(port), direction: 'sendrecv', trackId: null };
      sections.push(current);
    } else if (current) {
      if (line.startsWith('a=mid:')) current.mid = line.slice(6).trim();
      else if (/^a=(sendrecv|sendonly|recvonly|inactive)$/.test(line)) current.direction = line.slice(2) as Direction;
      else if (line.startsWith('a=msid:')) current.trackId = line.slice(7).split(' ')[1]?.trim() ?? null;
    }
  }
  return sections;
}

/**
 * Keeps only host candidates whose address is advertised (werift gathers every interface), and gives m-lines
 * werift answered with port 0 but left in the BUNDLE group port 9: Chrome refuses such an answer otherwise.
 */
export function fixAnswer(sdp: string, allowedAddresses: ReadonlySet<string>): string {
  const lines = sdp.split(/\r?\n/).filter((l) => l !== '');
  const bundled = new Set(
    lines
      .find((l) => l.startsWith('a=group:BUNDLE'))
      ?.split(' ')
      .slice(1) ?? [],
  );
  const out: string[] = [];
  let mlineIndex = -1;
  const sectionMids: string[] = [];
  for (const line of lines) {
    if (line.startsWith('m=')) mlineIndex = out.push(line) - 1;
    else if (line.startsWith('a=mid:') && mlineIndex >= 0) {
      sectionMids[mlineIndex] = line.slice(6).trim();
      out.push(line);
    } else if (line.startsWith('a=candidate:')) {
      const address = line.split(' ')[4];
      if (address && allowedAddresses.has(address)) out.push(line);
    } else out.push(line);
  }
  for (const [i, mid] of sectionMids.entries()) {
    if (mid === undefined || !bundled.has(mid)) continue;
    const parts = (out[i] as string).split(' ');
    if (parts[1] === '0') {
      parts[1] = '9';
      out[i] = parts.join(' ');
    }
  }
  return `${out.join('\r\n')}\r\n`;
}
