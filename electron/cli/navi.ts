/**
 * The `navi` executable's entry point: runs the command, sets the exit code, never throws. The help is
 * answered before the rest of the CLI (the engine, its libraries) is even loaded.
 */
import { exitCodeOfOutput, printErr, printOut } from './output.ts'
import { asksForHelp, USAGE } from './usage.ts'
import { CODE_CACHE_SCOPE, widenCodeCacheScope } from './code-cache-state.ts'
import { runsUntilStopped } from './command-kind.ts'

const argv = process.argv.slice(2)

async function main(): Promise<number> {
  if (asksForHelp(argv)) {
    printOut(USAGE)
    return argv.length === 0 ? 2 : 0
  }
  // Past the help: a code cache a help wrote is not enough for this run (code-cache-state.ts).
  widenCodeCacheScope(CODE_CACHE_SCOPE.command)
  // A command that answers and exits parses each shape a few hundred times at most: zod compiling a
  // parser per object schema the first time (its `new Function` fast path) costs it more than it saves.
  // Set before the schemas are made (main.ts), since each decides at its construction.
  if (!runsUntilStopped(argv)) (await import('./zod-jitless.ts')).parseWithoutJit()
  const { runCli } = await import('./main.ts')
  return runCli(argv)
}

main().then(
  (code) => {
    // A reader that went away (`navi events | head`) or a failed stdout decides the exit code.
    process.exitCode = exitCodeOfOutput() ?? code
  },
  (error: unknown) => {
    printErr(`navi: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  },
)
