/**
 * Which lines of `navi events` a running Navi writes for a command (shared/events-text.ts): only the
 * text of this format, in the command's own time zone.
 */
import { describe, expect, it } from 'vitest'
import {
  EVENTS_TEXT_FORMAT,
  eventsTextIn,
  writesEventsText,
} from '../../shared/events-text.ts'

describe('the lines a running Navi writes for a command', () => {
  it('are written for a command of this format in the same zone, unset or named', () => {
    expect(writesEventsText(eventsTextIn(null), null)).toBe(true)
    expect(writesEventsText(eventsTextIn('Europe/Paris'), 'Europe/Paris')).toBe(true)
  })

  it('are not written for another zone, another format, or what is not a request for them', () => {
    expect(writesEventsText(eventsTextIn('Europe/Paris'), null)).toBe(false)
    expect(writesEventsText(eventsTextIn(null), 'UTC')).toBe(false)
    expect(writesEventsText({ format: EVENTS_TEXT_FORMAT + 1, zone: null }, null)).toBe(false)
    for (const garbage of [undefined, null, 'text', 1, {}, { zone: null }])
      expect(writesEventsText(garbage, null)).toBe(false)
  })
})
