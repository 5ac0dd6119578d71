/**
 * Where a part tells what went wrong without stopping (the engine, the PM, the settings store…). The runtime
 * hands each part one scoped to it (electron/runtime/logger.ts); a test may hand an array. Never put
 * untrusted text at info level (transcripts, prompts, commit messages): errors name files and reasons.
 */
export interface Log {
  error(message: string): void
  warn(message: string): void
  info(message: string): void
}

/** For parts created without a runtime (a pure test): nothing is kept. */
export const silentLog: Log = { error: () => {}, warn: () => {}, info: () => {} }

/** A thrown value as one line of text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
