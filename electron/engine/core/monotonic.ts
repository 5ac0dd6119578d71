/**
 * A monotonic clock in milliseconds, for intervals and schedules (never for the times events are stamped
 * with). `performance.now()` is the same clock, but its first use loads `perf_hooks` and a dozen modules
 * with it (~0.7 ms of every command); `process.hrtime` is part of the process already.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}
