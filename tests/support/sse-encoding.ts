/**
 * Pure helpers shared by the scripted turn encoders (`scripted-turns.ts` for Anthropic Messages,
 * `scripted-responses-turns.ts` for OpenAI Responses): one server-sent event, and the splitting of a
 * payload into several deltas so the CLI under test has to concatenate them.
 */

/** One SSE frame `event: <name>` whose JSON data repeats the name as `type`. */
export function sseEvent(name: string, data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`
}

/** Splits `s` into up to `parts` non-empty pieces (the CLI must concatenate partial deltas). */
export function splitInChunks(s: string, parts: number): string[] {
  if (s.length === 0) return ['']
  const size = Math.max(1, Math.ceil(s.length / parts))
  const chunks: string[] = []
  for (let i = 0; i < s.length; i += size) chunks.push(s.slice(i, i + size))
  return chunks
}
