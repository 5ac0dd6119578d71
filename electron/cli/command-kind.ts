/**
 * Which kind of command a `navi` command line runs: one that answers and exits, or one that runs until
 * stopped. The launcher (launcher.ts) tunes V8 by it before the CLI is loaded, and the entry point
 * (navi.ts) tunes zod by it and runs the read-only commands in the CLI's front. Pure.
 */

/** Commands that run until stopped: they parse the same shapes thousands of times. */
const LONG_RUNNING = new Set(['watch', 'serve', 'run', 'background'])

/** The command of `args` (process.argv without node and the script): its first word that is no option. */
export function commandOf(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith('-'))
}

export function runsUntilStopped(args: readonly string[]): boolean {
  return LONG_RUNNING.has(commandOf(args) ?? '')
}

/** The read-only commands, which the CLI's front runs (read-commands.ts) without loading the engine. */
const READ_ONLY = ['status', 'sessions', 'events'] as const
export type ReadCommand = (typeof READ_ONLY)[number]

export function isReadCommand(command: string | undefined): command is ReadCommand {
  return (READ_ONLY as readonly (string | undefined)[]).includes(command)
}
