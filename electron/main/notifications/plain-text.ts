// C0/C1 controls and the bidi overrides/isolates that can make a commit subject display as something else.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/**
 * Untrusted text (commit subjects, session reasons, PM output) as one plain line: controls removed,
 * whitespace runs collapsed, trimmed, and cut to `max` characters (code points, never half a surrogate
 * pair) with an ellipsis.
 */
export function plainText(value: string, max: number): string {
  const line = value.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim()
  const chars = Array.from(line)
  if (chars.length <= max) return line
  return `${chars
    .slice(0, Math.max(0, max - 1))
    .join('')
    .trimEnd()}…`
}

/**
 * The body as the platform's notification service reads it. Freedesktop servers that announce `body-markup`
 * parse a subset of HTML in the body and Electron passes it through unescaped, so on Linux `&`, `<`, `>` become
 * entities (a commit subject `<a href=…>` must not turn into a link). Elsewhere the body is plain text already.
 */
export function notificationBody(text: string, platform: string): string {
  if (platform !== 'linux') return text
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
