/**
 * Pure edits of Claude Code's `settings.json` for Navi's hooks (format: agent-cli-formats.md §11.1).
 *
 * How Navi's entries are recognized: a hook entry is Navi's when it is `{"type":"command"}` and its
 * command ends with the shell comment {@link NAVI_HOOK_MARKER} (`# navi-hook`). The comment is ignored
 * by the shell Claude Code runs the command in, survives a moved handler or node binary (so a changed
 * path replaces the old entry instead of adding a second one), and no user command ends with it by
 * accident. Navi always adds its own group per event and never edits a user's group.
 */

/**
 * Events Navi listens to (what each means: core/hook-fold.ts). The others are left alone on purpose:
 * PreCompact/PostCompact, SubagentStart, PostToolBatch, MessageDisplay, DirectoryAdded, Pre/PostModelSwitch,
 * Elicitation*, ConfigChange, InstructionsLoaded, Setup, TeammateIdle, CwdChanged and FileChanged say
 * nothing about whether an agent needs its user, and WorktreeCreate/WorktreeRemove hooks *replace* the
 * CLI's own worktree handling, so installing one would break `claude --worktree`.
 */
export const NAVI_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
  'Notification',
  'Stop',
  'StopFailure',
  'SubagentStop',
  'SessionEnd',
  'TaskCreated',
  'TaskCompleted',
] as const
export type NaviHookEvent = (typeof NAVI_HOOK_EVENTS)[number]

/** Events whose groups filter by tool name, so Navi's group carries `"matcher": "*"`. */
const TOOL_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
])

/**
 * Events Claude Code need not wait for: frequent and only observed, so their hooks run in the
 * background (`"async": true`) and add nothing to a tool call's latency. Events that decide a
 * status change, and SessionEnd (the CLI exits right after it), stay synchronous. Background hooks
 * can append out of order; the fold orders by the handler's start time (`received_at`).
 */
const BACKGROUND_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStop',
  'TaskCreated',
  'TaskCompleted',
])

/** Trailing shell comment that marks a hook command as Navi's. */
export const NAVI_HOOK_MARKER = '# navi-hook'

type Json = Record<string, unknown>

/** The settings file has a shape Navi will not edit (e.g. `hooks` is a string). */
export class HooksSettingsShapeError extends Error {
  override name = 'HooksSettingsShapeError'
}

/** Quotes a word for a POSIX shell: single quotes, with embedded `'` written as `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`
}

/**
 * The command Claude Code runs: the shell, the handler (resources/hooks/navi-hook.sh), the baked
 * NAVI_HOME, the marker. `/bin/sh` is on every system Claude Code runs hooks on (Git Bash on Windows).
 */
export function buildNaviHookCommand(opts: { handlerPath: string; naviHome: string }): string {
  const { handlerPath, naviHome } = opts
  return `/bin/sh ${shellQuote(handlerPath)} --navi-home ${shellQuote(naviHome)} ${NAVI_HOOK_MARKER}`
}

export function isNaviHookCommand(command: unknown): boolean {
  return typeof command === 'string' && command.trimEnd().endsWith(` ${NAVI_HOOK_MARKER}`)
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isNaviEntry(entry: unknown): boolean {
  return isObject(entry) && entry.type === 'command' && isNaviHookCommand(entry.command)
}

/** The longest the handler waits for an answer from Navi (it caps a longer wait it is given). */
export const MAX_ANSWER_WAIT_SECONDS = 600

/**
 * The command with `--answerable`: the handler may wait for the user's answer from Navi (only when
 * opted in and a Navi listens; see resources/hooks/navi-hook.sh). PermissionRequest only.
 */
function answerableCommand(command: string): string {
  const marker = ` ${NAVI_HOOK_MARKER}`
  return command.endsWith(marker)
    ? `${command.slice(0, -marker.length)} --answerable${marker}`
    : command
}

/** A Navi command without `--answerable`: one install gives one command, whatever the event. */
export function plainCommand(command: unknown): string {
  return String(command).replace(` --answerable ${NAVI_HOOK_MARKER}`, ` ${NAVI_HOOK_MARKER}`)
}

export function naviGroup(event: string, command: string, background = true): Json {
  const entry =
    event === 'PermissionRequest'
      ? // Claude Code's own limit a little past the handler's, so the handler always ends first.
        {
          type: 'command',
          command: answerableCommand(command),
          timeout: MAX_ANSWER_WAIT_SECONDS + 30,
        }
      : {
          type: 'command',
          command,
          ...(background && BACKGROUND_EVENTS.has(event) ? { async: true } : {}),
        }
  return TOOL_EVENTS.has(event) ? { matcher: '*', hooks: [entry] } : { hooks: [entry] }
}

/**
 * Codex's events Navi listens to (its hooks.json has Claude Code's format, a smaller set of events and
 * no Notification): the permission request Navi may hold, and what tells that it was answered or over.
 */
export const NAVI_CODEX_HOOK_EVENTS = ['PermissionRequest', 'PostToolUse', 'Stop'] as const

/**
 * `$CODEX_HOME/hooks.json` with Navi's groups added (every other hook kept); synchronous entries only,
 * as Codex runs them. Idempotent. The input is not modified.
 * @throws HooksSettingsShapeError when the file or its `hooks` has an unexpected type.
 */
export function addNaviCodexHooks(file: unknown, command: string): Json {
  const root = settingsObject(file)
  const hooks: Json = { ...(hooksObject(root) ?? {}) }
  for (const event of NAVI_CODEX_HOOK_EVENTS) {
    const groups = eventGroups(hooks, event) ?? []
    const group = naviGroup(event, command, false)
    const current = groups.filter((g) => JSON.stringify(g) === JSON.stringify(group))
    if (current.length === 1 && naviEntries(groups).length === 1) continue
    hooks[event] = [...withoutNaviEntries(groups), group]
  }
  return { ...root, hooks }
}

/** `true` when the group is exactly the one Navi would add for this event. */
export function isCurrentNaviGroup(group: unknown, event: string, command: string): boolean {
  return JSON.stringify(group) === JSON.stringify(naviGroup(event, command))
}

function settingsObject(settings: unknown): Json {
  if (settings === undefined || settings === null) return {}
  if (!isObject(settings)) throw new HooksSettingsShapeError('settings.json is not a JSON object')
  return settings
}

function hooksObject(settings: Json): Json | undefined {
  const hooks = settings.hooks
  if (hooks === undefined) return undefined
  if (!isObject(hooks))
    throw new HooksSettingsShapeError('"hooks" in settings.json is not an object')
  return hooks
}

function eventGroups(hooks: Json, event: string): unknown[] | undefined {
  const groups = hooks[event]
  if (groups === undefined) return undefined
  if (!Array.isArray(groups)) {
    throw new HooksSettingsShapeError(`"hooks.${event}" in settings.json is not an array`)
  }
  return groups
}

function naviEntries(groups: unknown[]): unknown[] {
  return groups.flatMap((group) =>
    isObject(group) && Array.isArray(group.hooks) ? group.hooks.filter(isNaviEntry) : [],
  )
}

/**
 * The groups without Navi's entries. A group left empty by that removal is dropped; a group that
 * was already empty, or a user entry, stays as it was (same object, so key order is kept).
 */
function withoutNaviEntries(groups: unknown[]): unknown[] {
  const kept: unknown[] = []
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks) || !group.hooks.some(isNaviEntry)) {
      kept.push(group)
      continue
    }
    const userEntries = group.hooks.filter((entry) => !isNaviEntry(entry))
    if (userEntries.length > 0) kept.push({ ...group, hooks: userEntries })
  }
  return kept
}

/**
 * Adds Navi's hook (one group per event in {@link NAVI_HOOK_EVENTS}) and returns new settings; the
 * input is not modified. Idempotent: when the exact group is already there the event is left as
 * is, and an older Navi entry (other path) is replaced. Every other key, user hook and key order is
 * kept; new event keys go at the end of `hooks`, a new `hooks` key at the end of the settings.
 * @throws HooksSettingsShapeError when settings, `hooks` or an event's value has an unexpected type.
 */
export function addNaviHooks(settings: unknown, command: string): Json {
  const root = settingsObject(settings)
  const hooks: Json = { ...(hooksObject(root) ?? {}) }
  for (const event of NAVI_HOOK_EVENTS) {
    const groups = eventGroups(hooks, event) ?? []
    const current = groups.filter((group) => isCurrentNaviGroup(group, event, command))
    if (current.length === 1 && naviEntries(groups).length === 1) continue
    hooks[event] = [...withoutNaviEntries(groups), naviGroup(event, command)]
  }
  return { ...root, hooks }
}

/**
 * Removes every Navi entry and returns new settings; the input is not modified. Groups, event
 * arrays and the `hooks` object that Navi's removal left empty are dropped; anything that was empty
 * before, and every user entry, stays.
 * @throws HooksSettingsShapeError when settings or `hooks` has an unexpected type.
 */
export function removeNaviHooks(settings: unknown): Json {
  const root = settingsObject(settings)
  const hooks = hooksObject(root)
  if (!hooks) return { ...root }
  const nextHooks: Json = {}
  let removedAny = false
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      nextHooks[event] = groups
      continue
    }
    const kept = withoutNaviEntries(groups)
    const changed = JSON.stringify(kept) !== JSON.stringify(groups)
    removedAny ||= changed
    if (changed && kept.length === 0) continue
    nextHooks[event] = changed ? kept : groups
  }
  const next: Json = { ...root, hooks: nextHooks }
  if (removedAny && Object.keys(nextHooks).length === 0) delete next.hooks
  return next
}

/** Navi hook entries under any event (also events a later Navi no longer installs). */
export function countNaviEntries(settings: unknown): number {
  const hooks = isObject(settings) && isObject(settings.hooks) ? settings.hooks : {}
  return Object.values(hooks).reduce<number>(
    (sum, groups) => sum + (Array.isArray(groups) ? naviEntries(groups).length : 0),
    0,
  )
}

/** Which of Navi's events have a Navi entry, and the distinct Navi commands found. */
export interface NaviHooksStatus {
  installedEvents: NaviHookEvent[]
  missingEvents: NaviHookEvent[]
  /** Distinct Navi commands in the settings (more than one means an old install is left over). */
  commands: string[]
  /** Installed events whose Navi group is not the one this Navi installs (an older Navi's shape). */
  staleEvents: NaviHookEvent[]
}

/** Reads Navi's entries out of settings; never throws (an odd shape counts as not installed). */
export function naviHooksStatus(settings: unknown): NaviHooksStatus {
  const hooks = isObject(settings) && isObject(settings.hooks) ? settings.hooks : {}
  const installedEvents: NaviHookEvent[] = []
  const missingEvents: NaviHookEvent[] = []
  const staleEvents: NaviHookEvent[] = []
  const commands = new Set<string>()
  for (const event of NAVI_HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? hooks[event] : []
    const entries = naviEntries(groups)
    for (const entry of entries) if (isObject(entry)) commands.add(plainCommand(entry.command))
    ;(entries.length > 0 ? installedEvents : missingEvents).push(event)
    const command = entries.length === 1 && isObject(entries[0]) ? entries[0].command : null
    const current = groups.some((group) => isCurrentNaviGroup(group, event, plainCommand(command)))
    if (entries.length > 0 && !current) staleEvents.push(event)
  }
  return { installedEvents, missingEvents, commands: [...commands], staleEvents }
}
