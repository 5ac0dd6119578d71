import { clipText } from '../../../shared/text.ts'

/**
 * Untrusted text (commit subjects, session reasons, PM output) as one plain line, cut to `max` with an
 * ellipsis: the shared inert-text rule (shared/text.ts).
 */
export const plainText = clipText

/**
 * The body as the platform's notification service reads it. Freedesktop servers that announce `body-markup`
 * parse a subset of HTML in the body and Electron passes it through unescaped, so on Linux `&`, `<`, `>` become
 * entities (a commit subject `<a href=…>` must not turn into a link). Elsewhere the body is plain text already.
 */
export function notificationBody(text: string, platform: string): string {
  if (platform !== 'linux') return text
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** `value` when it is a string with something in it. */
export const nonBlank = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined
