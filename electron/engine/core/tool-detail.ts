/**
 * A few words about what a tool call wants to do (its command, file or URL). The transcript fold and the
 * hook records (core/hook-record.ts) both word a call with it, so that a permission reason reads the same
 * whether the hooks or the transcript told Navi about the call. Pure.
 */
import { isObject } from './json-narrow.ts'

/** tool_input keys that describe a call, most telling first. */
export const TOOL_DETAIL_KEYS = [
  'command',
  'file_path',
  'notebook_path',
  'path',
  'url',
  'pattern',
  'query',
  'description',
]
export const MAX_TOOL_DETAIL = 200
/** The agent's own words about a call (Bash's `description`), as much as a permission view shows. */
export const MAX_TOOL_PURPOSE = 300

export function toolDetail(input: unknown): string | null {
  if (!isObject(input)) return null
  for (const key of TOOL_DETAIL_KEYS) {
    const value = input[key]
    if (typeof value !== 'string' || value.trim() === '') continue
    const lines = value.trim().split('\n')
    const first = lines.length > 1 ? `${lines[0] ?? ''} …` : (lines[0] ?? '')
    return first.length > MAX_TOOL_DETAIL ? `${first.slice(0, MAX_TOOL_DETAIL - 1)}…` : first
  }
  return null
}

/**
 * The agent's own description of a call (Bash's `description: "Create a marker file"`), when the detail
 * is something else (its command); null when it has none or the description is the detail already.
 */
export function toolPurpose(input: unknown): string | null {
  if (!isObject(input) || typeof input.description !== 'string') return null
  const text = input.description.replace(/\s+/g, ' ').trim()
  if (text === '' || toolDetail(input) === text) return null
  return text.length > MAX_TOOL_PURPOSE ? `${text.slice(0, MAX_TOOL_PURPOSE - 1)}…` : text
}
