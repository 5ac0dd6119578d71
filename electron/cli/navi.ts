/**
 * The `navi` executable's entry point: runs the command, sets the exit code, never throws. The help is
 * answered before the rest of the CLI (the engine, its libraries) is even loaded.
 */
import { printErr, printOut } from './output.ts'
import { asksForHelp, USAGE } from './usage.ts'

const argv = process.argv.slice(2)

async function main(): Promise<number> {
  if (asksForHelp(argv)) {
    printOut(USAGE)
    return argv.length === 0 ? 2 : 0
  }
  const { runCli } = await import('./main.ts')
  return runCli(argv)
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    printErr(`navi: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  },
)
