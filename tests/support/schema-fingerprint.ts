/**
 * A short fingerprint of what a schema accepts (its JSON Schema, as input), for tests that pin a version
 * number to the schema it was last bumped for: a change to the schema fails the pin until both move.
 */
import { createHash } from 'node:crypto'
import * as z from 'zod'

export function schemaFingerprint(schema: z.ZodType): string {
  const json = JSON.stringify(z.toJSONSchema(schema, { io: 'input' }))
  return createHash('sha256').update(json).digest('hex').slice(0, 16)
}
