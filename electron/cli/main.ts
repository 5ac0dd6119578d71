/** The `navi` command: the engine's first face. `runCli(argv)` runs one command; bin/navi.mjs calls it. */
import { parseArgs } from 'node:util'
import type { SessionsOutput } from '../../shared/schemas/cli.ts'
import { installHooks, hooksStatus, uninstallHooks } from '../engine/adapters/hooks-install.ts'
import { parseDuration } from '../engine/core/config.ts'
import { resolvePaths } from '../engine/core/paths.ts'
import { createEngine } from '../engine/index.ts'
import { runDoctor } from './doctor.ts'
import { briefCommand, startPmForWatch } from './brief.ts'
import { memoryCommand, usageCommand } from './pm-commands.ts'
import { parsePort, serveCommand } from './serve/serve-command.ts'
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
} from './format.ts'

const USAGE = `usage: navi <command> [options]

  status [--json]                          projects by attention, with sessions, branch, progress
  sessions [--json] [--all]                every session (--all: ended ones too)
  events [--since 2h] [--project NAME] [--json]
  watch [--json] [--no-pm]                 run the engine (and the PM), print events and briefings
  brief [--json]                           run the PM now and print its briefing
  serve [--port N] [--open] [--no-pm] [--json]
                                           the popover in a browser, on 127.0.0.1 (prints its URL;
                                           --port 0 or none: any free port; --open: open a browser;
                                           --json: one line {url, port, token})
  hooks install|uninstall|status           Claude Code hooks for the most accurate status
  doctor [--json]                          what was found, what is missing, how to fix it
  usage [--json]                           the PM's runs, tokens and cost today and this week
  memory list|restore [VERSION] [--json]   PM memory versions; restore without VERSION undoes the last run

Environment: NAVI_HOME (~/.navi), CLAUDE_CONFIG_DIR (~/.claude), CODEX_HOME (~/.codex)`

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
      const engine = createEngine({ paths, watch: false })
      const state = await engine.refresh({ force: true })
      await engine.stop()
      print(state, formatStatus(state.projects, Date.now()) + errorsFooter(state.errors))
      return 0
    }
    case 'sessions': {
      const engine = createEngine({ paths, watch: false })
      await engine.refresh({ force: true })
      await engine.stop()
      const sessions = engine.getSessions().filter((s) => values.all || s.status !== 'ended')
      const out: SessionsOutput = { generated_at: new Date().toISOString(), sessions }
      print(out, formatSessions(sessions, Date.now()))
      return 0
    }
    case 'events': {
      const sinceMs = values.since ? parseDuration(values.since) : null
      if (values.since && sinceMs === null) {
        printErr(`navi: --since expects a duration such as 30m, 2h or 1d… got "${values.since}"`)
        return 2
      }
      const engine = createEngine({ paths, watch: false })
      await engine.refresh()
      const events = await engine.listEvents({
        ...(sinceMs !== null ? { sinceMs } : {}),
        ...(values.project ? { project: values.project } : {}),
      })
      await engine.stop()
      print({ events }, formatEvents(events))
      return 0
    }
    case 'watch':
      return watch(paths, values.json, !values['no-pm'])
    case 'brief':
      return briefCommand(paths, print)
    case 'serve': {
      const port = parsePort(values.port)
      if (port === null) {
        printErr(`navi: --port expects a port number (0-65535), got "${values.port}"`)
        return 2
      }
      return serveCommand(paths, {
        port,
        open: values.open,
        withPm: !values['no-pm'],
        json: values.json,
      })
    }
    case 'hooks': {
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
            ? `installed: ${status.events.join(', ')}\nhandler: ${status.handlerPath}${status.handlerPresent ? '' : ' (MISSING: run navi hooks install)'}\ninbox: ${status.inboxPath}${status.inboxLastWrite ? ` (last write ${status.inboxLastWrite})` : ''}`
            : `not installed${status.missing.length ? `; missing events: ${status.missing.join(', ')}` : ''}. Run: navi hooks install`,
        )
      } else {
        printErr('usage: navi hooks install|uninstall|status')
        return 2
      }
      return 0
    }
    case 'usage':
      return usageCommand(paths, print)
    case 'memory':
      return memoryCommand(paths, sub, positionals[2], print)
    case 'doctor': {
      const engine = createEngine({ paths, watch: false })
      const report = await runDoctor(paths, engine)
      await engine.stop()
      print(report, formatDoctor(report))
      return 0
    }
    default:
      printErr(`navi: unknown command "${command}"\n\n${USAGE}`)
      return 2
  }
}

async function watch(
  paths: ReturnType<typeof resolvePaths>,
  json: boolean,
  withPm: boolean,
): Promise<number> {
  // Listening before anything is printed: a Ctrl-C right after "ready" (or during start-up) stops cleanly.
  const stopSignal = untilStopSignal()
  const engine = createEngine({ paths })
  const echoErrors = createErrorEcho('navi watch')
  engine.subscribe((events, state) => {
    for (const event of events) {
      if (json) printJson(event, 0)
      else printOut(formatEventLine(event))
    }
    echoErrors(state.errors)
  })
  const state = await engine.start()
  echoErrors(state.errors)
  const pm = withPm ? await startPmForWatch(paths, engine, json) : null
  if (!json) {
    printErr(`navi: watching ${state.projects.length} projects (Ctrl-C to stop)`)
  } else {
    printErr(JSON.stringify({ ready: true, projects: state.projects.length }))
  }
  await stopSignal
  await pm?.stop()
  await engine.stop()
  return 0
}

function errorsFooter(errors: string[]): string {
  return errors.length === 0
    ? ''
    : `\n\n${errors.length} problem(s): ${errors.map((e) => clip(e, 300)).join('; ')}\nRun navi doctor for details.`
}
