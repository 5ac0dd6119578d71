import { describe, expect, it } from 'vitest'
import {
  INITIAL_PRESENCE,
  nextPresence,
  type Presence,
  type PresenceSignal,
} from '../../renderer/src/store/presence.ts'

const MIN = 60_000

/** Plays `steps` ([signal, minute]) from the first showing and returns the end state. */
function play(steps: [PresenceSignal, number][]): Presence {
  return steps.reduce(
    (p, [signal, minute]) => nextPresence(p, signal, minute * MIN),
    INITIAL_PRESENCE,
  )
}

describe('nextPresence', () => {
  it.each<[string, [PresenceSignal, number][], Presence]>([
    ['first showing', [], { leftAt: null, showBreadcrumbs: true }],
    ['hidden', [['hidden', 1]], { leftAt: MIN, showBreadcrumbs: false }],
    [
      'hidden 5 min',
      [
        ['hidden', 0],
        ['visible', 5],
      ],
      { leftAt: null, showBreadcrumbs: false },
    ],
    [
      'hidden 10 min',
      [
        ['hidden', 0],
        ['visible', 10],
      ],
      { leftAt: null, showBreadcrumbs: true },
    ],
    [
      'unfocused keeps them on screen',
      [['blurred', 2]],
      { leftAt: 2 * MIN, showBreadcrumbs: true },
    ],
    [
      'unfocused 3 min',
      [
        ['blurred', 0],
        ['focused', 3],
      ],
      { leftAt: null, showBreadcrumbs: false },
    ],
    [
      'unfocused 12 min',
      [
        ['blurred', 0],
        ['focused', 12],
      ],
      { leftAt: null, showBreadcrumbs: true },
    ],
    [
      'blur then hide is one absence, from the blur',
      [
        ['blurred', 0],
        ['hidden', 4],
        ['visible', 11],
        ['focused', 11],
      ],
      { leftAt: null, showBreadcrumbs: true },
    ],
    [
      'a short absence after a long one ends them',
      [
        ['hidden', 0],
        ['visible', 30],
        ['blurred', 31],
        ['focused', 32],
      ],
      { leftAt: null, showBreadcrumbs: false },
    ],
    [
      'focus without a blur first changes nothing',
      [['focused', 60]],
      { leftAt: null, showBreadcrumbs: true },
    ],
  ])('%s', (_name, steps, expected) => {
    expect(play(steps)).toEqual(expected)
  })
})
