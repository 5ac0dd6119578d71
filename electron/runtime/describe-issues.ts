/**
 * A zod error as one line, for a refused call or setting. Its own module: the settings store needs it in
 * every runtime, and `dispatch.ts` (which checks calls against the whole contract) only a live one.
 */
import type { z } from 'zod'

/** `path: message` for the first few issues, on one line. */
export function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.')
    return path ? `${path}: ${issue.message}` : issue.message
  })
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : ''
  return shown.join('; ') + more
}
