import { describe, expect, it } from 'vitest'
import { appendMoves, mergeMoves, movesBetween } from '../../electron/engine/core/task-moves.ts'
import { MAX_TASK_MOVES, type TaskMove } from '../../shared/schemas/session.ts'

const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, s)).toISOString()
const move = (task_id: string, status: TaskMove['status'], s: number): TaskMove => ({
  task_id,
  title: `t${task_id}`,
  status,
  at: at(s),
})

describe('task moves', () => {
  it('a completion told by the TaskUpdate line and by the TaskCompleted hook counts once', () => {
    const transcript = [move('1', 'in_progress', 1), move('1', 'completed', 5)]
    const hooks = [move('1', 'completed', 6), move('2', 'completed', 7)]
    expect(mergeMoves(transcript, hooks)).toEqual([
      move('1', 'in_progress', 1),
      move('1', 'completed', 5),
      move('2', 'completed', 7),
    ])
    // A reopened task finished again is a new move, not a repeat.
    const reopened = [...transcript, move('1', 'in_progress', 8)]
    expect(mergeMoves(reopened, [move('1', 'completed', 9)]).map((m) => m.status)).toEqual([
      'in_progress',
      'completed',
      'in_progress',
      'completed',
    ])
  })

  it('keeps only the newest moves', () => {
    const many = Array.from({ length: MAX_TASK_MOVES + 5 }, (_, i) =>
      move(String(i), 'completed', i),
    )
    const kept = appendMoves([], many)
    expect(kept).toHaveLength(MAX_TASK_MOVES)
    expect(kept[0]?.task_id).toBe('5')
  })

  it('a to-do list rewrite moves what changed status, matched by title; pending moves nothing', () => {
    const before = [
      { id: '1', title: 'Draft', status: 'in_progress' as const },
      { id: '2', title: 'Edit', status: 'pending' as const },
    ]
    const after = [
      { id: '1', title: 'Plan', status: 'completed' as const },
      { id: '2', title: 'Draft', status: 'completed' as const },
      { id: '3', title: 'Edit', status: 'pending' as const },
    ]
    expect(movesBetween(before, after, at(3))).toEqual([
      { task_id: '1', title: 'Plan', status: 'completed', at: at(3) },
      { task_id: '2', title: 'Draft', status: 'completed', at: at(3) },
    ])
    expect(movesBetween(after, after, at(4))).toEqual([])
  })
})
