/** The `navi` command: the engine's first face. `runCli(argv)` runs one command; bin/navi.cjs calls it. */
import { resolve } from 'node:path'
import { USAGE } from './usage.ts'
import { parseCommandLine, type CommandLine } from './command-line.ts'
import { resolvePaths, type EnginePaths } from '../runtime/paths.ts'
import { readOnce } from './reader.ts'
import { runReadCommand } from './read-commands.ts'
import { createCliRuntime } from './cli-runtime.ts'
import { parsePort } from './serve/parse-port.ts'
import {
  createErrorEcho,
  printErr,
  printerFor,
  printJson,
  printOut,
  untilStopSignal,
} from './output.ts'
import { formatDoctor, formatEventLine } from './format.ts'

/** Runs one `navi` command and resolves with its exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv)
  if ('error' in parsed) {
    printErr(`navi: ${parsed.error} (navi --help lists the commands and their options)`)
    return 2
  }
  return runCommand(parsed)
}

async function runCommand({ values, positionals }: CommandLine): Promise<number> {
  const [command, sub] = positionals
  if (values.help || !command) {
    printOut(USAGE)
    return command || values.help ? 0 : 2
  }
  const paths = resolvePaths()
  const print = printerFor(values.json)

  switch (command) {
    case 'status':
    case 'sessions':
    case 'events':
      return runReadCommand({ values, positionals })
    // What only some commands need is loaded by those commands alone: a read-only command starts sooner.
    case 'watch':
      return watch(paths, values.json, !values['no-pm'])
    case 'background':
      return (await import('./background.ts')).backgroundCommand(paths)
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
      const { hooksStatus, installCodexHooks, installHooks, uninstallHooks } =
        await import('../runtime/hooks.ts')
      if (positionals[2] === 'codex' && (sub === 'status' || sub === 'uninstall')) {
        const { codexHooksCommand } = await import('./codex-hooks-command.ts')
        return codexHooksCommand(paths, sub, print)
      } else if (sub === 'install' && positionals[2] === 'codex') {
        const result = await installCodexHooks(paths)
        print(
          result,
          `Navi's hook ${result.changed ? 'added to' : 'already in'} ${result.hooksPath}. ${result.trust}`,
        )
      } else if (sub === 'install') {
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
        printErr('usage: navi hooks install|uninstall|status [codex]')
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
    case 'dismiss': {
      const { dismissCommand } = await import('./pm-commands.ts')
      return dismissCommand(paths, positionals.slice(1), values.snooze, print)
    }
    case 'memory':
      return (await import('./pm-commands.ts')).memoryCommand(paths, sub, positionals[2], print)
    case 'run': {
      const text = positionals.slice(1).join(' ').trim()
      if (!text || (values.plan && values['no-plan'])) {
        printErr(
          'usage: navi run "<task>" [--project NAME | --cwd DIR] [--plan | --no-plan] [--agent claude|codex] [--model M] [--permission-mode MODE] [--dangerously-skip-permissions] [--detach]',
        )
        return 2
      }
      const { runCommand } = await import('./task-commands.ts')
      return runCommand(
        paths,
        text,
        {
          project: values.project,
          // Relative to where the command runs, as a shell user means it.
          cwd: values.cwd === undefined ? undefined : resolve(values.cwd),
          plan: values.plan ? true : values['no-plan'] ? false : undefined,
          agent: values.agent,
          model: values.model,
          permissionMode: values['permission-mode'],
          skipPermissions: values['dangerously-skip-permissions'],
          detach: values.detach,
        },
        values.json,
        print,
      )
    }
    case 'tasks':
      return (await import('./task-commands.ts')).tasksCommand(paths, print)
    case 'task':
      return (await import('./task-commands.ts')).taskCommand(
        paths,
        positionals.slice(1),
        values.json,
        print,
        values.log,
      )
    case 'doctor': {
      const { runDoctor } = await import('./doctor.ts')
      const runtime = await createCliRuntime({ paths, mode: 'once', pm: false })
      try {
        const report = await runDoctor(paths, runtime.engine, {
          backgroundIdleMs: runtime.config.get().config.cli.backgroundIdleMs,
        })
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

async function watch(paths: EnginePaths, json: boolean, withPm: boolean): Promise<number> {
  // Listening before anything is printed: a Ctrl-C right after "ready" (or during start-up) stops cleanly.
  const stopSignal = untilStopSignal()
  const runtime = await createCliRuntime({ paths, mode: 'live', pm: withPm })
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
