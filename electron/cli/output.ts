/**
 * Everything the `navi` CLI prints goes through here: human text is made inert (shared/text.ts) as a whole
 * block, so no field a formatter forgot can move the cursor, clear the screen or write the clipboard; JSON
 * keeps its values and escapes the invisible characters `JSON.stringify` leaves as they are.
 */
import { escapeInvisibleInJson, inertBlock } from '../../shared/text.ts'

/** Human output on stdout, one trailing newline. */
export function printOut(text: string): void {
  process.stdout.write(`${inertBlock(text)}\n`)
}

/** Messages and errors on stderr, one trailing newline. */
export function printErr(text: string): void {
  process.stderr.write(`${inertBlock(text)}\n`)
}

/** `value` as JSON on stdout: pretty (`indent` 2) for a document, compact (0) for one line of a stream. */
export function printJson(value: unknown, indent = 2): void {
  process.stdout.write(
    `${escapeInvisibleInJson(JSON.stringify(value, null, indent || undefined))}\n`,
  )
}

/** `(json, human)` printer of a command run with or without `--json`. */
export type Print = (json: unknown, human: string) => void

export function printerFor(json: boolean): Print {
  return (value, human) => (json ? printJson(value) : printOut(human))
}

/**
 * Resolves at the first SIGINT or SIGTERM. The handlers stay installed while the caller shuts down, so a
 * second Ctrl-C (or a supervisor's SIGTERM right after SIGINT) never kills a shutdown halfway through.
 */
export function untilStopSignal(): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false
    const onSignal = (): void => {
      if (stopping) {
        printErr('navi: still stopping…')
        return
      }
      stopping = true
      printErr('navi: stopping…')
      resolve()
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
}

/**
 * Echoes each engine error to stderr once, when it first appears (again if it comes back after it
 * cleared): a long-running `navi watch` or `navi serve` never fails silently.
 */
export function createErrorEcho(prefix: string): (errors: readonly string[]) => void {
  let shown = new Set<string>()
  return (errors) => {
    for (const error of errors) if (!shown.has(error)) printErr(`${prefix}: ${error}`)
    shown = new Set(errors)
  }
}
