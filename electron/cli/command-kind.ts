/**
 * Which kind of command a `navi` command line runs: one that answers and exits, or one that runs until
 * stopped. The launcher (launcher.ts) tunes V8 by it before the CLI is loaded, and the entry point
 * (navi.ts) tunes zod by it; both read the same list. Pure.
 */

/** Commands that run until stopped: they parse the same shapes thousands of times. */
const LONG_RUNNING = new Set(['watch', 'serve', 'run'])

/** The command of `args` (process.argv without node and the script): its first word that is no option. */
export function commandOf(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith('-'))
}

export function runsUntilStopped(args: readonly string[]): boolean {
  return LONG_RUNNING.has(commandOf(args) ?? '')
}
