/** JSON's scalar grammar over bytes (json-number.ts) agrees with JSON.parse, number by number. */
import { describe, expect, it } from 'vitest'
import { literalAt, numberEnd, numberValue } from '../../electron/engine/core/json-number.ts'

/** The number at the start of `text`, as the scanner reads it: its value, or null when it is not one. */
function read(text: string): number | null {
  const bytes = Buffer.from(`${text},`)
  const end = bytes.length - 1
  const stop = numberEnd(bytes, 0, end)
  return stop === end ? numberValue(bytes, 0, stop) : null
}

const parsed = (text: string): number | null => {
  try {
    return JSON.parse(text) as number
  } catch {
    return null
  }
}

describe('numberEnd and numberValue', () => {
  const numbers = [
    '0',
    '7',
    '42',
    '-0',
    '-12',
    '123456789012345',
    '1234567890123456',
    '99999999999999999999',
    '3.25',
    '-0.5',
    '1e3',
    '1E+3',
    '2e-2',
    '-1.5e10',
    '0.000001',
    '9007199254740993',
  ]
  it.each(numbers)('reads %s as JSON.parse does', (text) => {
    expect(read(text)).toBe(parsed(text))
  })

  const notNumbers = ['', '-', '.5', '1.', '1e', '1e+', '+1', '-.1', 'x1', '01', '-01']
  it.each(notNumbers)('refuses %j where JSON.parse does', (text) => {
    expect(parsed(text)).toBeNull()
    expect(read(text)).toBeNull()
  })

  it('stops at the end it is given, not at the end of the buffer', () => {
    const bytes = Buffer.from('12345')
    expect(numberEnd(bytes, 0, 3)).toBe(3)
    expect(numberValue(bytes, 0, 3)).toBe(123)
  })
})

describe('literalAt', () => {
  it('finds a literal only whole and before the end', () => {
    const bytes = Buffer.from('[true,nul]')
    expect(literalAt(bytes, 1, bytes.length, 'true')).toBe(true)
    expect(literalAt(bytes, 1, 4, 'true')).toBe(false)
    expect(literalAt(bytes, 6, bytes.length, 'null')).toBe(false)
  })
})
