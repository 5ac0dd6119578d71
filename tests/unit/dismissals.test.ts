import { describe, expect, it } from 'vitest'
import { attentionItemKey } from '../../shared/attention.ts'
import { keptDismissals, visibleItems, withDismissal } from '../../electron/pm/core/dismissals.ts'

const NOW = Date.parse('2026-11-25T12:00:00.000Z')
const later = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString()
const pr = { project: 'apollo', title: 'Open a PR for PBI-8' }
const review = { project: 'navi', title: 'Review the PM tests' }

describe('attention item dismissals', () => {
  it('hides a dismissed item, and a snoozed one until its time', () => {
    const dismissed = withDismissal([], pr, null)
    expect(visibleItems([pr, review], dismissed, NOW)).toEqual([review])
    const snoozed = withDismissal([], review, later(60))
    expect(visibleItems([pr, review], snoozed, NOW)).toEqual([pr])
    expect(visibleItems([pr, review], snoozed, NOW + 60 * 60_000)).toEqual([pr, review])
  })

  it('knows an item by project and title: the same title in another project is another item', () => {
    const other = { project: 'mnemos', title: pr.title }
    expect(visibleItems([pr, other], withDismissal([], pr, null), NOW)).toEqual([other])
    expect(attentionItemKey(pr)).not.toBe(attentionItemKey(other))
  })

  it('dismissing again replaces the earlier dismissal', () => {
    const twice = withDismissal(withDismissal([], pr, later(60)), pr, null)
    expect(twice).toEqual([{ key: attentionItemKey(pr), until: null }])
  })

  it('keeps only dismissals of items the briefing still lists, and snoozes not over', () => {
    const all = withDismissal(withDismissal([], pr, null), review, later(-1))
    expect(keptDismissals(all, [pr, review], NOW)).toEqual([
      { key: attentionItemKey(pr), until: null },
    ])
    expect(keptDismissals(all, [review], NOW)).toEqual([])
  })
})
