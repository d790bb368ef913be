// Layout checks for the browser specs: a control lies wholly inside its container and the viewport, and nothing
// covers it (the element at its centre is the control or inside it); two boxes do not overlap.
import type { Locator } from '@playwright/test';
import { expect } from './fixtures';

/** What is wrong with where `control` lies in `container` (an empty list when it is whole, in view and on top). */
export async function placementProblems(control: Locator, container: Locator): Promise<string[]> {
  const box = await container.elementHandle();
  return control.evaluate((el, c) => {
    const problems: string[] = [];
    const r = el.getBoundingClientRect();
    const show = (b: DOMRect) =>
      `[${Math.round(b.left)},${Math.round(b.top)} → ${Math.round(b.right)},${Math.round(b.bottom)}]`;
    const within = (b: { left: number; top: number; right: number; bottom: number }) =>
      r.left >= b.left - 0.5 && r.top >= b.top - 0.5 && r.right <= b.right + 0.5 && r.bottom <= b.bottom + 0.5;
    if (r.width === 0 || r.height === 0) problems.push(`no size ${show(r)}`);
    const outer = (c as Element).getBoundingClientRect();
    if (!within(outer)) problems.push(`outside its container: ${show(r)} in ${show(outer)}`);
    if (!within({ left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight }))
      problems.push(`outside the viewport: ${show(r)} in ${window.innerWidth}×${window.innerHeight}`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit)))
      problems.push(
        `covered at its centre by ${hit ? `<${hit.tagName.toLowerCase()} class="${hit.className}">` : 'nothing'}`,
      );
    return problems;
  }, box);
}

/**
 * `control` is wholly inside `container` and the viewport, and on top at its centre. Retried whole while layout
 * settles: a resize or a theme change may re-mount the element between the scroll and the look (a call's grid
 * re-renders its tiles), which detaches what was scrolled to.
 */
export async function expectPlaced(control: Locator, container: Locator, what: string): Promise<void> {
  await expect(async () => {
    await control.scrollIntoViewIfNeeded({ timeout: 2_000 });
    expect(await placementProblems(control, container), what).toEqual([]);
  }).toPass({ timeout: 15_000 });
}

/**
 * No box of `a`'s matches overlaps one of `b`'s. `text`: `b`'s boxes are those of their text as drawn (a line that
 * overflows its box under a neighbour counts).
 */
export async function expectApart(a: Locator, b: Locator, what: string, { text = false } = {}): Promise<void> {
  const boxes = async (l: Locator, ofText: boolean) =>
    l.evaluateAll(
      (els, t) =>
        els
          .map((e) => {
            if (!t) return e.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(e);
            return range.getBoundingClientRect();
          })
          .map((r) => [r.left, r.top, r.right, r.bottom]),
      ofText,
    );
  const overlaps = async () => {
    const [as, bs] = await Promise.all([boxes(a, false), boxes(b, text)]);
    return as.flatMap((x) =>
      bs
        .filter((y) => x[0] < y[2] - 0.5 && y[0] < x[2] - 0.5 && x[1] < y[3] - 0.5 && y[1] < x[3] - 0.5)
        .map((y) => [x, y]),
    );
  };
  await expect.poll(overlaps, { message: what }).toEqual([]);
}
