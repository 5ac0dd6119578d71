/**
 * The `navi` executable's entry point: runs the command, sets the exit code, never throws. The help is
 * answered before the rest of the CLI is even loaded; the read-only commands run here, in the CLI's
 * front (read-commands.ts), which loads the engine only when an answer must be computed; every other
 * command runs on the engine side (engine-side.ts).
 */
import { exitCodeOfOutput, printErr, printOut } from './output.ts'
import { asksForHelp, USAGE } from './usage.ts'
import { CODE_CACHE_SCOPE, widenCodeCacheScope } from './code-cache-state.ts'
import { isReadCommand } from './command-kind.ts'

const argv = process.argv.slice(2)

/** The exit code the output decides (a reader that went away), of the side that printed. */
let outputExitCode: () => number | undefined = exitCodeOfOutput

async function main(): Promise<number> {
  if (asksForHelp(argv)) {
    printOut(USAGE)
    return argv.length === 0 ? 2 : 0
  }
  // Past the help: a code cache a help wrote is not enough for this run (code-cache-state.ts).
  widenCodeCacheScope(CODE_CACHE_SCOPE.command)
  const { parseCommandLine } = await import('./command-line.ts')
  const parsed = parseCommandLine(argv)
  if (!('error' in parsed) && !parsed.values.help && isReadCommand(parsed.positionals[0]))
    return (await import('./read-commands.ts')).runReadCommand(parsed)
  const engine = await import('./engine-side.ts')
  outputExitCode = engine.exitCodeOfOutput
  return engine.runCli(argv)
}

main().then(
  (code) => {
    // A reader that went away (`navi events | head`) or a failed stdout decides the exit code.
    process.exitCode = outputExitCode() ?? code
  },
  (error: unknown) => {
    printErr(`navi: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  },
)
