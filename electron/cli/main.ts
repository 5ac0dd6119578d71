/** The `navi` command: the engine's first face. `runCli(argv)` runs one command; bin/navi.mjs calls it. */
import { parseArgs } from 'node:util'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { parseDuration } from '../../shared/duration.ts'
import { USAGE } from './usage.ts'
import type { NaviRuntime } from '../runtime/index.ts'
import { resolvePaths, type EnginePaths } from '../runtime/paths.ts'
import { askRunningNavi } from '../runtime/query-client.ts'
import type { QueryChannel } from '../runtime/query-protocol.ts'
import type { IpcOutput } from '../../shared/ipc-contract.ts'
import { parsePort } from './serve/parse-port.ts'
import {
  createErrorEcho,
  printErr,
  printerFor,
  printJson,
  printOut,
  untilStopSignal,
} from './output.ts'
import {
  clip,
  formatDoctor,
  formatEventLine,
  formatEvents,
  formatSessions,
  formatStatus,
  pmAttentionLine,
} from './format.ts'

/** Runs one `navi` command and resolves with its exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
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
    },
  })
  const [command, sub] = positionals
  if (values.help || !command) {
    printOut(USAGE)
    return command || values.help ? 0 : 2
  }
  const paths = resolvePaths()
  const print = printerFor(values.json)

  switch (command) {
    case 'status': {
      const state = await readOnce(paths, 'state:get', undefined)
      // Only the text says it: the JSON is the engine's state, as the contract defines it.
      const pmItems = values.json
        ? 0
        : await (await import('../runtime/pm-attention.ts')).pmAttentionCount(paths)
      print(
        state,
        formatStatus(state.projects, Date.now()) +
          errorsFooter(state.errors) +
          pmAttentionLine(pmItems),
      )
      return 0
    }
    case 'sessions': {
      const out = await readOnce(paths, 'sessions:list', {
        all: values.all,
      })
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
      const events = await allEvents(paths, { since, project: values.project })
      print({ events }, formatEvents(events))
      return 0
    }
    // What only some commands need is loaded by those commands alone: a read-only command starts sooner.
    case 'watch':
      return watch(paths, values.json, !values['no-pm'])
    case 'brief':
      return (await import('./brief.ts')).briefCommand(paths, print)
    case 'ask': {
      const question = positionals.slice(1).join(' ').trim()
      if (!question) {
        printErr('usage: navi ask "what did apollo do this morning?"')
        return 2
      }
      return (await import('./brief.ts')).askCommand(paths, question, values.json, print)
    }
    case 'serve': {
      const port = parsePort(values.port)
      if (port === null) {
        printErr(`navi: --port expects a port number (0-65535), got "${values.port}"`)
        return 2
      }
      const { serveCommand } = await import('./serve/serve-command.ts')
      return serveCommand(paths, {
        port,
        open: values.open,
        withPm: !values['no-pm'],
        json: values.json,
      })
    }
    case 'hooks': {
      const { hooksStatus, installHooks, uninstallHooks } = await import('../runtime/hooks.ts')
      if (sub === 'install') {
        const result = await installHooks(paths)
        print(
          result,
          `Navi hooks installed in ${result.settingsPath}${result.backupPath ? ` (backup: ${result.backupPath})` : ''}`,
        )
      } else if (sub === 'uninstall') {
        const result = await uninstallHooks(paths)
        print(
          result,
          result.removed > 0
            ? `Removed Navi's hooks from ${result.settingsPath}`
            : 'Navi hooks were not installed.',
        )
      } else if (sub === 'status') {
        const status = await hooksStatus(paths)
        print(
          status,
          status.installed
            ? `installed: ${status.events.join(', ')}\nhandler: ${status.handlerPath}${status.handlerPresent ? '' : ' (MISSING: run navi hooks install)'}\ninbox: ${status.inboxPath}${status.inboxLastWrite ? ` (last write ${status.inboxLastWrite})` : ''}${status.outdated ? "\nOUTDATED: settings.json runs another handler (an older Navi's, or another NAVI_HOME's). Run: navi hooks install" : ''}`
            : `not installed${status.missing.length ? `; missing events: ${status.missing.join(', ')}` : ''}. Run: navi hooks install`,
        )
      } else {
        printErr('usage: navi hooks install|uninstall|status')
        return 2
      }
      return 0
    }
    case 'answer':
    case 'reply':
    case 'away': {
      const commands = await import('./answer-commands.ts')
      const sessions = async () => (await readOnce(paths, 'sessions:list', { all: false })).sessions
      const args = positionals.slice(1)
      if (command === 'answer') {
        const { message, request } = values
        return commands.answerCommand({ paths, sessions, args, message, request, print })
      }
      if (command === 'reply') return commands.replyCommand({ paths, sessions, args, print })
      const { loadConfig } = await import('../engine/adapters/config-file.ts')
      const waitSeconds = async () => (await loadConfig(paths)).config.answering.waitSeconds
      return commands.awayCommand({ paths, sessions, args, waitSeconds, print })
    }
    case 'usage':
      return (await import('./pm-commands.ts')).usageCommand(paths, print)
    case 'memory':
      return (await import('./pm-commands.ts')).memoryCommand(paths, sub, positionals[2], print)
    case 'doctor': {
      const { runDoctor } = await import('./doctor.ts')
      const { createNaviRuntime } = await import('../runtime/index.ts')
      const runtime = await createNaviRuntime({ paths, mode: 'once', pm: false })
      try {
        const report = await runDoctor(paths, runtime.engine)
        print(report, formatDoctor(report))
      } finally {
        await runtime.stop()
      }
      return 0
    }
    default:
      printErr(`navi: unknown command "${command}"\n\n${USAGE}`)
      return 2
  }
}

/** Answers read-only channels, from a running Navi or from a runtime of this process. */
interface Reader {
  read<C extends QueryChannel>(
    channel: C,
    input: Parameters<NaviRuntime['handlers'][C]>[0],
  ): Promise<IpcOutput<C>>
  close(): Promise<void>
}

/**
 * A reader that asks the Navi running with this home when there is one (it keeps its state current, so
 * the answer costs a socket round trip), else refreshes a read-only runtime of this process once and
 * reads it. Repositories are read with git as a running engine reads them: when their refs or index
 * changed since the last read (any process's: repo-marks.ts) or an agent was active in them since.
 */
async function openReader<C extends QueryChannel>(
  paths: EnginePaths,
  first: { channel: C; input: Parameters<NaviRuntime['handlers'][C]>[0] },
): Promise<{ reader: Reader; answer: IpcOutput<C> }> {
  const asked = await askRunningNavi(paths, first.channel, first.input)
  if (asked.ok) {
    const remote: Reader = {
      async read(channel, input) {
        const next = await askRunningNavi(paths, channel, input)
        if (next.ok) return next.data
        throw new Error(`the running Navi stopped answering: ${next.reason}`)
      },
      close: async () => undefined,
    }
    return { reader: remote, answer: asked.data }
  }
  if (asked.reason === 'failed')
    printErr(`navi: the running Navi did not answer (${asked.message}); reading here instead`)
  const { createNaviRuntime } = await import('../runtime/index.ts')
  const runtime = await createNaviRuntime({ paths, mode: 'once', pm: false })
  const local: Reader = {
    read(channel, input) {
      const handler = runtime.handlers[channel] as (
        i: typeof input,
      ) => Promise<IpcOutput<typeof channel>>
      return handler(input)
    },
    close: () => runtime.stop(),
  }
  try {
    await runtime.start()
    return { reader: local, answer: await local.read(first.channel, first.input) }
  } catch (error) {
    await runtime.stop()
    throw error
  }
}

/** The answer of one read-only channel (see openReader). */
async function readOnce<C extends QueryChannel>(
  paths: EnginePaths,
  channel: C,
  input: Parameters<NaviRuntime['handlers'][C]>[0],
): Promise<IpcOutput<C>> {
  const { reader, answer } = await openReader(paths, { channel, input })
  await reader.close()
  return answer
}

/** Every page of `events:list`, newest first. */
async function allEvents(
  paths: EnginePaths,
  query: { since: string | undefined; project: string | undefined },
): Promise<EngineEvent[]> {
  const pageInput = (before: string | undefined) => ({
    limit: 1000,
    ...(before ? { before } : {}),
    ...(query.since ? { since: query.since } : {}),
    ...(query.project ? { project: query.project } : {}),
  })
  const opened = await openReader(paths, {
    channel: 'events:list',
    input: pageInput(undefined),
  })
  try {
    const events: EngineEvent[] = []
    let page = opened.answer
    for (;;) {
      events.push(...page.events)
      const before = page.events.at(-1)?.timestamp
      if (!page.has_more || before === undefined) return events
      page = await opened.reader.read('events:list', pageInput(before))
    }
  } finally {
    await opened.reader.close()
  }
}

async function watch(paths: EnginePaths, json: boolean, withPm: boolean): Promise<number> {
  // Listening before anything is printed: a Ctrl-C right after "ready" (or during start-up) stops cleanly.
  const stopSignal = untilStopSignal()
  const { createNaviRuntime } = await import('../runtime/index.ts')
  const runtime = await createNaviRuntime({ paths, mode: 'live', pm: withPm })
  const echoErrors = createErrorEcho('navi watch')
  runtime.engine.subscribe((events, state) => {
    for (const event of events) {
      if (json) printJson(event, 0)
      else printOut(formatEventLine(event))
    }
    echoErrors(state.errors)
  })
  if (runtime.pm) (await import('./brief.ts')).printPmForWatch(runtime.pm, json)
  try {
    const state = await runtime.start()
    echoErrors(state.errors)
    if (!json) {
      printErr(`navi: watching ${state.projects.length} projects (Ctrl-C to stop)`)
    } else {
      printErr(JSON.stringify({ ready: true, projects: state.projects.length }))
    }
    await stopSignal
  } finally {
    await runtime.stop()
  }
  return 0
}

function errorsFooter(errors: string[]): string {
  return errors.length === 0
    ? ''
    : `\n\n${errors.length} problem(s): ${errors.map((e) => clip(e, 300)).join('; ')}\nRun navi doctor for details.`
}
