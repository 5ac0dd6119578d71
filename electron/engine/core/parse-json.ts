import type { z } from 'zod'

/** JSON text validated by a schema: the value, or null for text that is not JSON or not of that shape. */
export function parseJsonAs<S extends z.ZodType>(schema: S, text: string): z.infer<S> | null {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return null
  }
  const parsed = schema.safeParse(json)
  return parsed.success ? parsed.data : null
}
