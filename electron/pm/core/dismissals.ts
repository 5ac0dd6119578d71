/**
 * Attention items the user dismissed or snoozed (the popover's ✕ and "1h"): an item is known by its
 * project and title, as the PM words it. A dismissed item stays hidden while the PM keeps listing it,
 * across restarts; once a briefing no longer lists it, the dismissal is dropped, so an item that comes
 * back later is news again. A snooze ends at its time. Pure.
 */

import { attentionItemKey } from '../../../shared/attention.ts'

export interface Dismissal {
  key: string
  /** ISO time a snooze ends; null: dismissed for as long as the PM lists the item. */
  until: string | null
}

export interface ItemIdentity {
  project: string
  title: string
}

const active = (d: Dismissal, now: number): boolean =>
  d.until === null || !(Date.parse(d.until) <= now)

/** The items still to show at `now`. */
export function visibleItems<T extends ItemIdentity>(
  items: readonly T[],
  dismissals: readonly Dismissal[],
  now: number,
): T[] {
  const hidden = new Set(dismissals.filter((d) => active(d, now)).map((d) => d.key))
  return items.filter((item) => !hidden.has(attentionItemKey(item)))
}

/** `dismissals` with `item` dismissed (until `until`, or for good), replacing an earlier one. */
export function withDismissal(
  dismissals: readonly Dismissal[],
  item: ItemIdentity,
  until: string | null,
): Dismissal[] {
  const key = attentionItemKey(item)
  return [...dismissals.filter((d) => d.key !== key), { key, until }]
}

/** What is worth keeping after a new briefing: dismissals of items it still lists, not ended. */
export function keptDismissals(
  dismissals: readonly Dismissal[],
  items: readonly ItemIdentity[],
  now: number,
): Dismissal[] {
  const listed = new Set(items.map(attentionItemKey))
  return dismissals.filter((d) => listed.has(d.key) && active(d, now))
}
