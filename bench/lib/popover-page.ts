/**
 * What bench/popover-paint.ts runs inside the popover's page. The scripts are strings, not functions:
 * tsx's keepNames would wrap inner functions in a `__name` helper the page does not have.
 */
import type { Page } from '@playwright/test'

/**
 * Installed before any page script: notes when the first event rows are drawn and when the events zone
 * holds `target` events (its `data-count`; the list draws only the rows in view).
 */
export const rowWatcher = (target: number): string => `
  globalThis.__rows = { firstAt: null, first: 0, targetAt: null, max: 0 };
  new MutationObserver(() => {
    const zone = document.querySelector('[data-testid="zone-events"]');
    const n = Number(zone?.getAttribute('data-count') ?? 0);
    const drawn = document.querySelectorAll('[data-testid="event-row"]').length;
    const r = globalThis.__rows;
    if (n > r.max) r.max = n;
    if (r.firstAt === null && drawn > 0) { r.firstAt = performance.now(); r.first = n; }
    if (r.targetAt === null && n >= ${String(target)}) r.targetAt = performance.now();
  }).observe(document, { childList: true, subtree: true, attributes: true });
`

export const readTiming = `(() => {
  const paint = (name) =>
    performance.getEntriesByType('paint').find((e) => e.name === name)?.startTime ?? null;
  return { fp: paint('first-paint'), fcp: paint('first-contentful-paint'), now: performance.now(),
    ...globalThis.__rows };
})()`

export interface PageTiming {
  fp: number | null
  fcp: number | null
  now: number
  firstAt: number | null
  first: number
  targetAt: number | null
  max: number
}

/** Scrolls the events list to its end (where it asks for older events); a string for the same reason. */
const scrollEventsToEnd = `(() => {
  const list = document.querySelector('.zone-scroll--events');
  list?.scrollTo({ top: list.scrollHeight });
})()`

/**
 * Scrolls the whole events list by, top to bottom, a screenful a frame, and returns each frame's time
 * (rAF to rAF): at 60 Hz a frame whose drawing fits its budget comes 16.7 ms after the last one.
 */
export const scrollFrames = `(async () => {
  const list = document.querySelector('.zone-scroll--events');
  if (!list) return [];
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  list.scrollTop = 0;
  await frame();
  await frame();
  const frames = [];
  let last = await frame();
  while (list.scrollTop + list.clientHeight < list.scrollHeight - 1 && frames.length < 2000) {
    list.scrollTop += list.clientHeight;
    const now = await frame();
    frames.push(now - last);
    last = now;
  }
  return frames;
})()`

/** Loads the popover at `url` with the row watcher installed; resolves once the first event rows are drawn. */
export async function openPopover(page: Page, url: string, target: number): Promise<void> {
  await page.addInitScript(rowWatcher(target))
  await page.goto(url, { waitUntil: 'load' })
  // Predicates are self-contained arrows: the page's CSP forbids string predicates (eval).
  await page.waitForFunction(
    () => (globalThis as { __rows?: PageTiming }).__rows?.firstAt != null,
    undefined,
    { timeout: 20_000 },
  )
}

/**
 * The timing when the first rows were drawn; then scrolls to the end until the popover holds `target`
 * events (it holds one page; older ones come as the list is scrolled, as a user would) or stops growing.
 */
export async function holdEvents(page: Page, target: number): Promise<PageTiming> {
  const first = (await page.evaluate(readTiming)) as PageTiming
  for (let rows = first.max; rows < target;) {
    await page.evaluate(scrollEventsToEnd)
    const grew = await page
      .waitForFunction(
        (seen) => ((globalThis as { __rows?: PageTiming }).__rows?.max ?? 0) > seen,
        rows,
        { timeout: 10_000 },
      )
      .then(
        () => true,
        () => false,
      )
    if (!grew) break
    rows = ((await page.evaluate(readTiming)) as PageTiming).max
  }
  return first
}
