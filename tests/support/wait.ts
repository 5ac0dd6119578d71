/**
 * Bounded polling for tests: `await waitUntil(() => fileExists(p), 5_000, 'the transcript')` checks
 * every `intervalMs` until the check returns a value other than `undefined`/`false`, and rejects with
 * a message naming what was awaited once `timeoutMs` has passed. There is no unbounded wait.
 */

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Resolves with the first truthy-ish result of `check` (anything but `undefined`, `null` or `false`).
 * `describe` may be a function so the timeout message can show the last observed state.
 */
export async function waitUntil<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs: number,
  describe: string | (() => string),
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== null && value !== false) return value
    if (Date.now() >= deadline) {
      const what = typeof describe === 'function' ? describe() : describe
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    }
    await sleep(intervalMs)
  }
}
