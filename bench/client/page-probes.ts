// Scripts injected into the benchmark's pages (context.addInitScript, so they run before the app). They only
// observe: timestamps are `performance.timeOrigin + performance.now()` (epoch ms, sub-ms resolution) and are put
// on one clock with Node's afterwards (see calibrate in browser-parts.ts).
//
// "Painted" is the first task after the animation frame in which the element was first rendered: the mutation
// observer sees the node inserted, requestAnimationFrame runs before that frame's style/layout/paint, and a
// MessageChannel task posted from it runs once that frame's main-thread paint is done (the compositor then
// needs a few more ms to put it on the screen, which no page API can see).

export interface BenchProbe {
  /** Per token: Enter pressed (sender), request/frame left (sender), frame arrived (receiver), inserted, painted. */
  keyed: Record<string, number>;
  left: Record<string, number>;
  arrived: Record<string, number>;
  inserted: Record<string, number>;
  painted: Record<string, number>;
  /** Per data-message-id: first inserted / painted (for opening a conversation). */
  idInserted: Record<string, number>;
  idPainted: Record<string, number>;
  clicks: number[];
}

/** Installed in every benchmark page; `pattern` is the source of the token regexp (e.g. 'bench-\\d+-[a-z]+'). */
export function installProbe(pattern: string): void {
  const w = window as unknown as { __bench: BenchProbe };
  const now = () => performance.timeOrigin + performance.now();
  const token = new RegExp(pattern, 'g');
  const probe: BenchProbe = {
    keyed: {},
    left: {},
    arrived: {},
    inserted: {},
    painted: {},
    idInserted: {},
    idPainted: {},
    clicks: [],
  };
  w.__bench = probe;
  const tokensIn = (text: string) => [...text.matchAll(token)].map((m) => m[0]);
  const first = (into: Record<string, number>, keys: string[], t: number) => {
    for (const k of keys) if (into[k] === undefined) into[k] = t;
  };
  const afterPaint = (fn: (t: number) => void) =>
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => fn(now());
      ch.port2.postMessage(0);
    });

  // The sender: the moment Enter goes down in the composer with a token in it.
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.key !== 'Enter') return;
      const target = e.target as HTMLInputElement | HTMLElement | null;
      const text = (target && 'value' in target ? target.value : target?.textContent) ?? '';
      first(probe.keyed, tokensIn(String(text)), now());
    },
    true,
  );
  window.addEventListener('pointerdown', () => probe.clicks.push(now()), true);

  // The wire: frames and requests that carry a token, out of the sender and into the receiver.
  const NativeWebSocket = window.WebSocket;
  class ProbedWebSocket extends NativeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      // Registered before socket.io sets onmessage, so this runs first for every frame.
      this.addEventListener('message', (e) => {
        if (typeof e.data === 'string') first(probe.arrived, tokensIn(e.data), now());
      });
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      if (typeof data === 'string') first(probe.left, tokensIn(data), now());
      super.send(data);
    }
  }
  window.WebSocket = ProbedWebSocket as typeof WebSocket;
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    if (typeof init?.body === 'string') first(probe.left, tokensIn(init.body), now());
    return nativeFetch(input, init);
  };
  const nativeXhrSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    if (typeof body === 'string') first(probe.left, tokensIn(body), now());
    return nativeXhrSend.call(this, body);
  };

  // The screen: message elements as they are first inserted, and the end of the frame that painted them.
  const seeMessage = (el: Element, t: number) => {
    const tokens = tokensIn(el.textContent ?? '').filter((k) => probe.inserted[k] === undefined);
    first(probe.inserted, tokens, t);
    const id = el.getAttribute('data-message-id');
    const ids = id && probe.idInserted[id] === undefined ? [id] : [];
    first(probe.idInserted, ids, t);
    if (tokens.length || ids.length) {
      afterPaint((p) => {
        first(probe.painted, tokens, p);
        first(probe.idPainted, ids, p);
      });
    }
  };
  const start = () =>
    new MutationObserver((records) => {
      const t = now();
      for (const r of records) {
        for (const node of r.addedNodes) {
          if (!(node instanceof Element)) continue;
          if (node.matches('[data-testid="message"]')) seeMessage(node, t);
          for (const el of node.querySelectorAll('[data-testid="message"]')) seeMessage(el, t);
        }
        // A text filled into an existing bubble (a recycled row) counts as its insertion too.
        const host =
          r.target instanceof Element
            ? r.target.closest('[data-testid="message"]')
            : r.target.parentElement?.closest('[data-testid="message"]');
        if (host) seeMessage(host, t);
      }
    }).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start);
}

/**
 * Scrolls `selector`'s nearest scrollable ancestor (or the element itself) at `pxPerSecond` for `ms`, counting
 * animation frames: requestAnimationFrame runs once per frame Chromium renders for the page, and a frame whose
 * main-thread work (React, the virtualized list, layout) overruns delays the next callback — so the intervals
 * are the frame times the user gets. Returns the intervals and how far it scrolled.
 */
export function scrollAndCountFrames(args: {
  selector: string;
  pxPerSecond: number;
  ms: number;
  direction: 'up' | 'down';
}) {
  const start = document.querySelector(args.selector);
  let scroller: HTMLElement | null = start as HTMLElement | null;
  while (
    scroller &&
    !(scroller.scrollHeight > scroller.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(scroller).overflowY))
  ) {
    scroller = scroller.parentElement;
  }
  if (!scroller) throw new Error(`no scrollable element around ${args.selector}`);
  const el = scroller;
  return new Promise<{
    intervals: number[];
    scrolledPx: number;
    scrollHeightBefore: number;
    scrollHeightAfter: number;
  }>((resolve) => {
    const intervals: number[] = [];
    const sign = args.direction === 'up' ? -1 : 1;
    const scrollHeightBefore = el.scrollHeight;
    let scrolledPx = 0;
    let last = performance.now();
    const t0 = last;
    const frame = (t: number) => {
      intervals.push(t - last);
      const step = (args.pxPerSecond * (t - last)) / 1000;
      last = t;
      const before = el.scrollTop;
      el.scrollTop = before + sign * step;
      scrolledPx += Math.abs(el.scrollTop - before);
      if (t - t0 < args.ms) requestAnimationFrame(frame);
      else
        resolve({ intervals: intervals.slice(1), scrolledPx, scrollHeightBefore, scrollHeightAfter: el.scrollHeight });
    };
    requestAnimationFrame((t) => {
      last = t;
      requestAnimationFrame(frame);
    });
  });
}
