/**
 * Everything the `navi` CLI prints goes through here: human text is made inert (shared/text.ts) as a whole
 * block, so no field a formatter forgot can move the cursor, clear the screen or write the clipboard; JSON
 * keeps its values and escapes the invisible characters `JSON.stringify` leaves as they are.
 *
 * Text goes straight to the file descriptor: `process.stdout` and `process.stderr` are made on first use
 * and load Node's stream and socket machinery, ~2 ms of every command's start (most print once and exit).
 * A descriptor that cannot take the text now (EAGAIN: a non-blocking pipe or terminal) hands it, and all
 * that follows, to Node's stream, which waits until it can.
 */
import { writeSync } from 'node:fs'
import { escapeInvisibleInJson, inertBlock } from '../../shared/text.ts'

/** Human output on stdout, one trailing newline. */
export function printOut(text: string): void {
  emit(1, `${inertBlock(text)}\n`)
}

/** Messages and errors on stderr, one trailing newline. */
export function printErr(text: string): void {
  emit(2, `${inertBlock(text)}\n`)
}

/** A terminal's progress line on stderr (`\r`, erase), written as given: the caller's own fixed text. */
export function printProgress(text: string): void {
  emit(2, text)
}

/** `value` as JSON on stdout: pretty (`indent` 2) for a document, compact (0) for one line of a stream. */
export function printJson(value: unknown, indent = 2): void {
  emit(1, `${escapeInvisibleInJson(JSON.stringify(value, null, indent || undefined))}\n`)
}

/** Whether stdout and stderr still take direct writes; false once one has gone to Node's stream. */
const direct = { 1: true, 2: true }

/** Where the text goes instead of the descriptors: a program running commands in its own process. */
export interface OutputSink {
  out(text: string): void
  err(text: string): void
}
let sink: OutputSink | null = null

/** Sends all output to `to` until called again with null (tests/support/bad-inputs/runner.ts). */
export function redirectOutput(to: OutputSink | null): void {
  sink = to
}

function emit(fd: 1 | 2, text: string): void {
  if (sink) {
    if (fd === 1) sink.out(text)
    else sink.err(text)
    return
  }
  if (fd === 1 && outputClosed) return
  if (!direct[fd]) {
    streamOf(fd).write(text)
    return
  }
  const bytes = Buffer.from(text, 'utf8')
  let written = 0
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
      direct[fd] = false
      streamOf(fd).write(bytes.subarray(written))
    } else if (fd === 1) outputFailed(error as NodeJS.ErrnoException)
    // Nothing can be said about a stderr that is gone.
  }
}

/** Node's stream for `fd`, with the error handling of a direct write (outputFailed). */
function streamOf(fd: 1 | 2): NodeJS.WriteStream {
  const stream = fd === 1 ? process.stdout : process.stderr
  if (!streamsWatched.has(fd)) {
    streamsWatched.add(fd)
    stream.on('error', fd === 1 ? outputFailed : () => undefined)
  }
  return stream
}
const streamsWatched = new Set<1 | 2>()

/** `(json, human)` printer of a command run with or without `--json`. */
export type Print = (json: unknown, human: string) => void

export function printerFor(json: boolean): Print {
  return (value, human) => (json ? printJson(value) : printOut(human))
}

/** What a shell reports for a program its reader went away from: 128 + SIGPIPE, as `git log | head`. */
export const OUTPUT_CLOSED_EXIT_CODE = 141

let outputClosed = false
/** The exit code a failed stdout imposes on the command, whatever the command itself returns. */
let outputExitCode: number | undefined
const onOutputClosed = new Set<() => void>()

/**
 * Whoever read stdout went away (`navi events | head -3`, a closed terminal). Node ignores SIGPIPE, so
 * the write fails with EPIPE (it once died of an unhandled stream error with a stack trace). From then
 * on output is dropped and the process ends as Unix tools do: a one-shot command finishes quietly, a long
 * running one (`navi watch`) stops as on SIGTERM (untilStopSignal), and the exit code says it (141).
 * Any other write error is said once on stderr and fails the command.
 */
function outputFailed(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') {
    if (outputExitCode === undefined) {
      printErr(`navi: cannot write to standard output: ${error.message}`)
    }
    outputExitCode ??= 1
    process.exitCode = outputExitCode
    return
  }
  if (outputClosed) return
  outputClosed = true
  outputExitCode ??= OUTPUT_CLOSED_EXIT_CODE
  process.exitCode = outputExitCode
  for (const listener of onOutputClosed) listener()
}

/** The exit code stdout's failure imposes (141: its reader went away), or undefined while it works. */
export function exitCodeOfOutput(): number | undefined {
  return outputExitCode
}

/**
 * Resolves at the first SIGINT or SIGTERM, or when stdout's reader goes away (handleOutputErrors). The
 * handlers stay installed while the caller shuts down, so a second Ctrl-C (or a supervisor's SIGTERM
 * right after SIGINT) never kills a shutdown halfway through.
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
    onOutputClosed.add(() => {
      if (!stopping) onSignal()
    })
    if (outputClosed) onSignal()
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
