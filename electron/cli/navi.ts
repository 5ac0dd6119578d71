/** The `navi` executable's entry point: runs the command, sets the exit code, never throws. */
import { runCli } from './main.ts'
import { printErr } from './output.ts'

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    printErr(`navi: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  },
)
