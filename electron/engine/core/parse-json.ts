import type { z } from 'zod'

/** JSON text validated by a schema: the value, or null for text that is not JSON or not of that shape. */
export function parseJsonAs<S extends z.ZodType>(schema: S, text: string): z.infer<S> | null {
  const json = parseJson(text)
  if (json === undefined) return null
  const parsed = schema.safeParse(json)
  return parsed.success ? parsed.data : null
}

/** The value of a JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
