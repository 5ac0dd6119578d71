/**
 * `navi status`, `navi sessions` and `navi events`: the read-only commands a terminal user runs dozens of
 * times a day. The built CLI runs them in its front part (scripts/cli-bundle.ts), which holds no engine:
 * an answer from a running Navi or kept from the last command costs no more code than this; the engine
 * is loaded only when the answer must be computed (reader.ts).
 */
import { parseDuration } from '../../shared/duration.ts'
import type { CommandLine } from './command-line.ts'
import type { ReadCommand } from './command-kind.ts'
import { resolvePaths, type EnginePaths } from '../runtime/paths.ts'
import { allEvents, eventsAsLines, openReader, readOnce } from './reader.ts'
import { printErr, printerFor, printOut } from './output.ts'
import {
  clip,
  formatEvents,
  formatSessions,
  formatStatus,
  formatSuggestions,
  pmAttentionLine,
} from './format.ts'

/** Runs a read-only command (command-kind.ts; its name is the first positional) and resolves with its exit code. */
export async function runReadCommand({ values, positionals }: CommandLine): Promise<number> {
  const paths = resolvePaths()
  const print = printerFor(values.json)
  switch (positionals[0] as ReadCommand) {
    case 'status': {
      const { reader, answer: state } = await openReader(paths, {
        channel: 'state:get',
        input: undefined,
      })
      // Only the text says them: the JSON is the engine's state, as the contract defines it.
      const suggestions = values.json
        ? []
        : await reader.read('suggestions:list', undefined).finally(() => reader.close())
      if (values.json) await reader.close()
      const pmItems = values.json ? 0 : await pmAttentionCount(paths)
      print(
        state,
        formatStatus(state.projects, Date.now()) +
          errorsFooter(state.errors) +
          formatSuggestions(suggestions) +
          pmAttentionLine(pmItems),
      )
      return 0
    }
    case 'sessions': {
      const out = await readOnce(paths, 'sessions:list', { all: values.all })
      print(out, formatSessions(out.sessions, Date.now()))
      return 0
    }
    case 'events': {
      const sinceMs = values.since ? parseDuration(values.since) : null
      if (values.since && sinceMs === null) {
        printErr(`navi: --since expects a duration such as 30m, 2h or 1d… got "${values.since}"`)
        return 2
      }
      const since = sinceMs === null ? undefined : new Date(Date.now() - sinceMs).toISOString()
      const query = { since, project: values.project }
      // Printed as text, a day of events is cheaper written by a running Navi (shared/events-text.ts).
      const asked = values.json ? null : await eventsAsLines(paths, query)
      if (asked && 'lines' in asked) {
        printOut(asked.lines)
        return 0
      }
      const events = asked?.events ?? (await allEvents(paths, query))
      print({ events }, formatEvents(events))
      return 0
    }
  }
}

/**
 * The PM's attention items the status ends with: the only part of these commands that parses with zod.
 * zod without its compiled parsers (zod-jitless.ts), set before the PM's schemas are made: a command that
 * answers and exits parses each shape once, and compiling a parser per object schema costs it more than it
 * saves. Loaded here, not at the start: `sessions`, `events` and `status --json` never start zod.
 */
async function pmAttentionCount(paths: EnginePaths): Promise<number> {
  ;(await import('./zod-jitless.ts')).parseWithoutJit()
  return (await import('../runtime/pm-attention.ts')).pmAttentionCount(paths)
}

function errorsFooter(errors: string[]): string {
  return errors.length === 0
    ? ''
    : `\n\n${errors.length} problem(s): ${errors.map((e) => clip(e, 300)).join('; ')}\nRun navi doctor for details.`
}
