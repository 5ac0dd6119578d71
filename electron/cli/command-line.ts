/** The `navi` command line: every option any command takes, parsed once (node:util parseArgs). */
import { parseArgs } from 'node:util'

export type CommandLine = ReturnType<typeof parseOptions>

/**
 * The command line, or what is wrong with it in a sentence: `parseArgs` throws for an unknown option or
 * a missing value; its message for an unknown option suggests `-- "--bogus"`, which no navi command takes.
 */
export function parseCommandLine(argv: string[]): CommandLine | { error: string } {
  try {
    return parseOptions(argv)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw error
    const message = (error as Error).message
    if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return { error: message }
    // "Unknown option '--bogus'. To specify a positional argument starting with a '-', place it…"
    return { error: `unknown option ${/'([^']+)'/.exec(message)?.[1] ?? message}` }
  }
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      since: { type: 'string' },
      project: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      'no-pm': { type: 'boolean', default: false },
      port: { type: 'string' },
      open: { type: 'boolean', default: false },
      message: { type: 'string' },
      request: { type: 'string' },
      snooze: { type: 'string' },
      cwd: { type: 'string' },
      plan: { type: 'boolean' },
      'no-plan': { type: 'boolean' },
      agent: { type: 'string' },
      model: { type: 'string' },
      'permission-mode': { type: 'string' },
      'dangerously-skip-permissions': { type: 'boolean', default: false },
      log: { type: 'boolean', default: false },
      detach: { type: 'boolean', default: false },
    },
  })
}
