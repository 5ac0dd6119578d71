/**
 * Maps one `stream-json` line of a PM run to the phase shown on the UI's "updating…" line
 * (reference, section 3.3: one `assistant` line per content block). Pure.
 */
import type { PmRunStatus } from '../../../shared/schemas/briefing.ts'
import { asString, isObject } from '../../engine/core/json-narrow.ts'

export type PmPhase = PmRunStatus['phase']

export interface StreamPhase {
  phase: PmPhase
  /** The file a Read/Write/Edit touches, or the model for `starting`. */
  detail?: string
}

const MEMORY_READ_TOOLS = new Set(['Read'])
const MEMORY_WRITE_TOOLS = new Set(['Write', 'Edit'])

/**
 * `system/init` → starting, an assistant `tool_use` of Read → reading_memory, of Write/Edit →
 * writing_memory, assistant text/thinking (or any other tool, e.g. StructuredOutput) → thinking,
 * `result` → done or failed (by `is_error`). Other lines, and lines that are not JSON, → null.
 * The `result` line only reflects the CLI's view: the invoker still validates the briefing.
 */
export function streamPhase(line: string): StreamPhase | null {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return null
  }
  if (!isObject(value)) return null
  if (value.type === 'system' && value.subtype === 'init') {
    const model = asString(value.model)
    return model === null ? { phase: 'starting' } : { phase: 'starting', detail: model }
  }
  if (value.type === 'result') return { phase: value.is_error === true ? 'failed' : 'done' }
  if (value.type !== 'assistant' || !isObject(value.message)) return null
  const content = value.message.content
  if (!Array.isArray(content)) return null
  let phase: StreamPhase | null = null
  for (const block of content) {
    if (!isObject(block)) continue
    if (block.type === 'tool_use') {
      const name = asString(block.name) ?? ''
      const file = isObject(block.input) ? asString(block.input.file_path) : null
      const withFile = (p: PmPhase): StreamPhase =>
        file === null ? { phase: p } : { phase: p, detail: file }
      if (MEMORY_WRITE_TOOLS.has(name)) return withFile('writing_memory')
      if (MEMORY_READ_TOOLS.has(name)) phase = withFile('reading_memory')
      else phase ??= { phase: 'thinking' }
    } else if (block.type === 'text' || block.type === 'thinking') {
      phase ??= { phase: 'thinking' }
    }
  }
  return phase
}
