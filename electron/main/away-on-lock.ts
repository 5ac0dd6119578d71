/**
 * Away while the screen is locked: a locked screen means nobody is at the terminal, so Navi's hook may
 * hold permission requests for an answer from the tray or a phone. Only an Away the lock turned on is
 * turned off at unlock: one the user switched on stays. Pure; the tray feeds it Electron's lock events.
 */
export interface LockAwayState {
  /** The lock turned Away on (so the unlock turns it off). */
  turnedOn: boolean
}

export const initialLockAway: LockAwayState = { turnedOn: false }

/** What to do when the screen locks or unlocks: set Away on (true), off (false), or leave it (null). */
export function onLockChange(
  state: LockAwayState,
  locked: boolean,
  awayNow: boolean,
): { state: LockAwayState; setAway: boolean | null } {
  if (locked) {
    return awayNow
      ? { state: { turnedOn: false }, setAway: null }
      : { state: { turnedOn: true }, setAway: true }
  }
  return state.turnedOn ? { state: { turnedOn: false }, setAway: false } : { state, setAway: null }
}
