import { describe, expect, it } from 'vitest'
import { buildMenuModel, type MenuModelItem } from '../../electron/main/tray/menu-model.ts'

const actions = (items: MenuModelItem[]) =>
  items.flatMap((item) =>
    item.kind === 'action' ? [[item.id, item.label, item.enabled]] : [['—']],
  )

describe('buildMenuModel', () => {
  it.each([
    {
      input: { paused: false },
      expected: [
        ['open', 'Open Navi', true],
        ['refresh', 'Refresh briefing', true],
        ['—'],
        ['pause', 'Pause notifications for 1 hour', true],
        ['settings', 'Settings…', true],
        ['—'],
        ['quit', 'Quit Navi', true],
      ],
    },
    {
      input: { paused: true, refreshing: true },
      expected: [
        ['open', 'Open Navi', true],
        ['refresh', 'Refreshing briefing…', false],
        ['—'],
        ['resume', 'Resume notifications', true],
        ['settings', 'Settings…', true],
        ['—'],
        ['quit', 'Quit Navi', true],
      ],
    },
  ])('paused=$input.paused refreshing=$input.refreshing', ({ input, expected }) => {
    expect(actions(buildMenuModel(input))).toEqual(expected)
  })

  it('offers exactly one of pause and resume', () => {
    for (const paused of [false, true]) {
      const ids = buildMenuModel({ paused }).flatMap((i) => (i.kind === 'action' ? [i.id] : []))
      expect(ids.filter((id) => id === 'pause' || id === 'resume')).toEqual([
        paused ? 'resume' : 'pause',
      ])
    }
  })
})
