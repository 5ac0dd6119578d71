import { describe, expect, it } from 'vitest'
import { initialLockAway, onLockChange } from '../../electron/main/away-on-lock.ts'

describe('onLockChange', () => {
  it('a lock turns Away on and its unlock turns it off again', () => {
    const locked = onLockChange(initialLockAway, true, false)
    expect(locked).toEqual({ state: { turnedOn: true }, setAway: true })
    expect(onLockChange(locked.state, false, true)).toEqual({
      state: { turnedOn: false },
      setAway: false,
    })
  })

  it('an Away the user switched on stays through a lock and its unlock', () => {
    const locked = onLockChange(initialLockAway, true, true)
    expect(locked.setAway).toBeNull()
    expect(onLockChange(locked.state, false, true).setAway).toBeNull()
  })

  it('an unlock with no lock before it changes nothing', () => {
    expect(onLockChange(initialLockAway, false, false)).toEqual({
      state: initialLockAway,
      setAway: null,
    })
  })
})
