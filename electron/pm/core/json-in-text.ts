/**
 * JSON objects embedded in model text: the last resort when the PM answered in prose or markdown
 * instead of calling StructuredOutput. Pure.
 */

const FENCE = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)```/g
const MAX_CANDIDATES = 10
/** Bounds the brace scan on long prose full of unmatched braces. */
const MAX_OPENING_BRACES = 200

/**
 * Parsed JSON values found in `text`, best first: the contents of ```json (or bare ```) fences,
 * then each top-level balanced `{...}` that parses. Braces inside JSON strings are skipped.
 */
export function extractJsonCandidates(text: string): unknown[] {
  const found: unknown[] = []
  for (const match of text.matchAll(FENCE)) {
    const value = tryParse((match[1] ?? '').trim())
    if (value !== undefined) found.push(value)
    if (found.length >= MAX_CANDIDATES) return found
  }
  let from = text.indexOf('{')
  for (let tries = 0; from !== -1 && found.length < MAX_CANDIDATES; tries++) {
    if (tries >= MAX_OPENING_BRACES) break
    const end = balancedEnd(text, from)
    const value = end === -1 ? undefined : tryParse(text.slice(from, end + 1))
    if (value !== undefined) {
      found.push(value)
      from = text.indexOf('{', end + 1)
    } else {
      from = text.indexOf('{', from + 1)
    }
  }
  return found
}

/** Index of the `}` closing the `{` at `start`, or -1 when it is never closed. */
function balancedEnd(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{') depth++
    else if (ch === '}' && --depth === 0) return i
  }
  return -1
}

function tryParse(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    // Prose that only looks like JSON: not a candidate, the scan goes on.
    return undefined
  }
}
