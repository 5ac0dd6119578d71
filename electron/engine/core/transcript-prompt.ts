/**
 * What a user line of a Claude transcript is, beyond tool results: a prompt the user typed, or one of the
 * many things the CLI writes as a `user` line without the user saying anything. Pure. Shapes are from the
 * corpus of real files (../shared/corpus) and from runs of 2.1.197 and 2.1.330:
 * - `isMeta` lines (caveats, slash-command and skill expansions, system reminders) are never prompts;
 * - `<task-notification>` lines (a background task or sub-agent finished; 2.1.x): the agent goes on by
 *   itself. 2.1.330 marks them (`origin.kind`, `promptSource: "system"`, `turnOrigin`); 2.1.39 does not,
 *   so the text is checked too;
 * - IDE context (`<ide_opened_file>`, `<ide_selection>`, `<ide_diagnostics>`; VS Code, 2.0.x) comes as
 *   separate text blocks before the prompt: dropped from it, and a line with nothing else is no prompt;
 * - slash commands: `<command-name>/x</command-name>` with `<command-message>` and `<command-args>`. A
 *   local command (/clear, /model) is answered by a `<local-command-stdout>` line; a custom command or
 *   skill is expanded into an `isMeta` line and sent to the model. Which one it is shows only on the next
 *   line, so the fold keeps it pending (`/name args`) until then. 1.0.24 writes the name without a slash;
 * - `!` bash mode (`<bash-input>`, `<bash-stdout>`) is the user's own shell, not a prompt.
 */
import { asString, isObject, type JsonObject } from './json-narrow.ts'

export type UserLineKind =
  | { kind: 'prompt'; text: string | null }
  | { kind: 'command'; text: string }
  | { kind: 'notification' }
  | { kind: 'local_output' }
  | { kind: 'interrupted' }
  | { kind: 'ignored' }

const INTERRUPTED_PREFIX = '[Request interrupted by user'
const NOTIFICATION_PREFIX = '<task-notification>'
const IDE_PREFIXES = ['<ide_opened_file>', '<ide_selection>', '<ide_diagnostics>']
const LOCAL_OUTPUT_PREFIXES = ['<local-command-stdout', '<local-command-stderr']
const IGNORED_PREFIXES = ['<bash-', '<local-command-caveat>', '<user-prompt-submit-hook>']
const COMMAND_NAME = /<command-name>\s*\/?([^<]*?)\s*<\/command-name>/
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/

/** Kind of a user line whose content holds no tool_result; `texts` are its text blocks in order. */
export function classifyUserLine(line: JsonObject, texts: readonly string[]): UserLineKind {
  if (isNotification(line)) return { kind: 'notification' }
  const kept = texts.filter((t) => !IDE_PREFIXES.some((p) => t.trimStart().startsWith(p)))
  const text = kept.length > 0 ? kept.join('\n') : null
  const trimmed = text?.trimStart() ?? ''
  if (trimmed.startsWith(NOTIFICATION_PREFIX)) return { kind: 'notification' }
  if (trimmed.startsWith(INTERRUPTED_PREFIX)) return { kind: 'interrupted' }
  if (LOCAL_OUTPUT_PREFIXES.some((p) => trimmed.startsWith(p))) return { kind: 'local_output' }
  if (IGNORED_PREFIXES.some((p) => trimmed.startsWith(p))) return { kind: 'ignored' }
  const command = slashCommand(trimmed)
  if (command !== null) return { kind: 'command', text: command }
  // IDE context alone (a file opened, nothing typed) is not a prompt.
  if (text === null && texts.length > 0) return { kind: 'ignored' }
  return { kind: 'prompt', text: trimmed === '' ? null : text }
}

function isNotification(line: JsonObject): boolean {
  const origin = isObject(line.origin) ? asString(line.origin.kind) : null
  return (
    origin === 'task-notification' ||
    line.promptSource === 'system' ||
    line.turnOrigin === 'task_notification'
  )
}

/** `/name args` of a slash-command line, or null when the text is not one. */
function slashCommand(text: string): string | null {
  if (!text.startsWith('<command-')) return null
  const name = COMMAND_NAME.exec(text)?.[1]
  if (!name) return null
  const args = COMMAND_ARGS.exec(text)?.[1]?.trim() ?? ''
  return args ? `/${name} ${args}` : `/${name}`
}

const NOT_EXPANSIONS = ['Caveat:', '<local-command-caveat>', '<system-reminder>']

/** An `isMeta` line that expands a custom command or skill for the model (not a caveat or reminder). */
export function isExpansion(line: JsonObject): boolean {
  const content = isObject(line.message) ? line.message.content : undefined
  const first = Array.isArray(content) ? content.find(isObject)?.text : content
  return typeof first === 'string' && !NOT_EXPANSIONS.some((p) => first.trimStart().startsWith(p))
}
