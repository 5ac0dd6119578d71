/** The buttons a notification offers (macOS shows them; elsewhere a click opens the project). Pure. */
import type { NotificationSpec } from './decide.ts'

/** The buttons of a notification, in order: Allow and Deny for a held request, then Go to session. */
export function notificationActions(
  spec: Pick<NotificationSpec, 'answer' | 'session'>,
): { id: 'allow' | 'deny' | 'session'; text: string }[] {
  return [
    ...(spec.answer
      ? [
          { id: 'allow' as const, text: 'Allow' },
          { id: 'deny' as const, text: 'Deny' },
        ]
      : []),
    ...(spec.session ? [{ id: 'session' as const, text: 'Go to session' }] : []),
  ]
}
