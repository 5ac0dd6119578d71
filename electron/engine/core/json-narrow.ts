/** Narrowing of parsed JSON for the hot folds, where a zod parse per line would cost too much. */
export type JsonObject = Record<string, unknown>

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const asString = (value: unknown): string | null =>
  typeof value === 'string' ? value : null

/** A finite number, or 0. */
export const asCount = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0
