import { describe, expect, it } from 'vitest'
import { decideKey, type KeyContext } from '../../renderer/src/store/keymap.ts'

const base: KeyContext = {
  key: '',
  modified: false,
  view: 'overview',
  zone: 'projects',
  target: 'other',
}
const press = (key: string, over: Partial<KeyContext> = {}) => decideKey({ ...base, key, ...over })

describe('popover keyboard', () => {
  it.each([
    ['Tab', { kind: 'toggle-zone' }],
    ['j', { kind: 'move', delta: 1 }],
    ['ArrowDown', { kind: 'move', delta: 1 }],
    ['k', { kind: 'move', delta: -1 }],
    ['ArrowUp', { kind: 'move', delta: -1 }],
    ['Enter', { kind: 'open' }],
    [' ', { kind: 'expand' }],
    ['r', { kind: 'refresh' }],
    ['Escape', { kind: 'hide' }],
    ['Backspace', null],
    ['x', null],
  ])('overview: %j', (key, command) => {
    expect(press(key)).toEqual(command)
  })

  it('Space expands only in the projects zone; Enter opens from either zone', () => {
    expect(press(' ', { zone: 'events' })).toBeNull()
    expect(press('Enter', { zone: 'events' })).toEqual({ kind: 'open' })
  })

  it.each(['project', 'settings'] as const)(
    '%s view: Esc and Backspace go back, r refreshes, the rest waits',
    (view) => {
      expect(press('Escape', { view })).toEqual({ kind: 'back' })
      expect(press('Backspace', { view })).toEqual({ kind: 'back' })
      expect(press('r', { view })).toEqual({ kind: 'refresh' })
      for (const key of ['Tab', 'j', 'Enter', ' ']) expect(press(key, { view })).toBeNull()
    },
  )

  it('typing in a field is left alone except Esc', () => {
    for (const key of ['r', 'j', 'Backspace', 'Enter', ' ', 'Tab'])
      expect(press(key, { view: 'settings', target: 'text' })).toBeNull()
    expect(press('Escape', { view: 'settings', target: 'text' })).toEqual({ kind: 'back' })
  })

  it('a focused button keeps Enter and Space; modified keys belong to the OS', () => {
    expect(press('Enter', { target: 'control' })).toBeNull()
    expect(press(' ', { target: 'control' })).toBeNull()
    expect(press('j', { target: 'control' })).toEqual({ kind: 'move', delta: 1 })
    expect(press('r', { modified: true })).toBeNull()
  })
})
