/**
 * Pure reading of Navi's hook in Codex's `$CODEX_HOME/hooks.json`, and of the trust Codex recorded for
 * it in `config.toml` (`navi doctor`, `navi hooks status codex`).
 *
 * Codex runs a hook only once the user trusted it: at start-up ("Hooks need review" → "Trust all and
 * continue") or in `/hooks`. It records the trust in `config.toml` as
 * `[hooks.state."<hooks.json path>:<event in snake_case>:<group index>:<entry index>"]` with a
 * `trusted_hash` of the entry (observed on codex 0.169). Navi cannot recompute that hash, so "trusted"
 * here means "Codex recorded a trust for the entry at Navi's place"; when the entry changed since,
 * Codex asks for a review again at its next start.
 */
import { NAVI_CODEX_HOOK_EVENTS, isNaviEntry, naviGroup, plainCommand } from './hooks-settings.ts'

export type NaviCodexHookEvent = (typeof NAVI_CODEX_HOOK_EVENTS)[number]

export interface CodexHooksStatus {
  installedEvents: NaviCodexHookEvent[]
  missingEvents: NaviCodexHookEvent[]
  /** Installed events whose Navi group is not the one this Navi installs (another path or shape). */
  staleEvents: NaviCodexHookEvent[]
  /** Distinct Navi commands found (more than one: an old install left over). */
  commands: string[]
  /** Per installed event, the key under which Codex records its trust of Navi's entry. */
  trustKeys: Partial<Record<NaviCodexHookEvent, string>>
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** `PermissionRequest` → `permission_request`, as Codex names events in its trust keys. */
export function codexEventKey(event: string): string {
  return event.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase()
}

/** Navi's entries in a parsed hooks.json; never throws (an odd shape counts as not installed). */
export function naviCodexHooksStatus(file: unknown, hooksPath: string): CodexHooksStatus {
  const hooks = isObject(file) && isObject(file.hooks) ? file.hooks : {}
  const status: CodexHooksStatus = {
    installedEvents: [],
    missingEvents: [],
    staleEvents: [],
    commands: [],
    trustKeys: {},
  }
  const commands = new Set<string>()
  for (const event of NAVI_CODEX_HOOK_EVENTS) {
    const groups: unknown[] = Array.isArray(hooks[event]) ? hooks[event] : []
    let place: { groupIndex: number; entryIndex: number; group: Json; command: unknown } | null =
      null
    let entries = 0
    for (const [groupIndex, group] of groups.entries()) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue
      for (const [entryIndex, entry] of (group.hooks as unknown[]).entries()) {
        if (!isNaviEntry(entry)) continue
        entries += 1
        const command = (entry as Json).command
        commands.add(plainCommand(command))
        place ??= { groupIndex, entryIndex, group, command }
      }
    }
    if (!place) {
      status.missingEvents.push(event)
      continue
    }
    const { groupIndex, entryIndex, group, command } = place
    status.installedEvents.push(event)
    status.trustKeys[event] =
      `${hooksPath}:${codexEventKey(event)}:${String(groupIndex)}:${String(entryIndex)}`
    const current = naviGroup(event, plainCommand(command), false)
    if (entries > 1 || JSON.stringify(group) !== JSON.stringify(current)) {
      status.staleEvents.push(event)
    }
  }
  status.commands = [...commands]
  return status
}

/** Which installed events Codex recorded a trust for, from a parsed `config.toml`. */
export function codexTrustedEvents(
  config: unknown,
  trustKeys: CodexHooksStatus['trustKeys'],
): { trusted: NaviCodexHookEvent[]; untrusted: NaviCodexHookEvent[] } {
  const hooks = isObject(config) && isObject(config.hooks) ? config.hooks : {}
  const state = isObject(hooks.state) ? hooks.state : {}
  const trusted: NaviCodexHookEvent[] = []
  const untrusted: NaviCodexHookEvent[] = []
  for (const [event, key] of Object.entries(trustKeys) as [NaviCodexHookEvent, string][]) {
    const entry = state[key]
    const hash = isObject(entry) ? entry.trusted_hash : undefined
    ;(typeof hash === 'string' && hash !== '' ? trusted : untrusted).push(event)
  }
  return { trusted, untrusted }
}
