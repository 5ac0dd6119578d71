/**
 * A delegated task's conventions and lifecycle (electron/tasks/core/): markers read from the agent's words,
 * the plan heuristics, the stream-json lines, and the reducer's transitions with what it asks the shell to do.
 */
import { describe, expect, it } from 'vitest'
import type { Task } from '../../shared/schemas/task.ts'
import { TASK_T0, taskRecord } from '../support/task-records.ts'
import { claudeTaskArgs } from '../../electron/tasks/core/agent-args.ts'
import { readClaudeStreamLine } from '../../electron/tasks/core/claude-stream.ts'
import { startTask, stepTask } from '../../electron/tasks/core/lifecycle.ts'
import { freshRun, type RunState, type TaskInput } from '../../electron/tasks/core/task-step.ts'
import { heartbeat, heartbeatDue } from '../../electron/tasks/core/heartbeat.ts'
import {
  APPROVED_PROMPT,
  DEFAULT_PLAN_KEYWORDS,
  planKeywordIn,
  readMarkers,
  readPlanReply,
} from '../../electron/tasks/core/relay.ts'

const T0 = TASK_T0
const task = taskRecord
const exit = (over: Partial<Extract<TaskInput, { type: 'exited' }>> = {}): TaskInput => ({
  type: 'exited',
  exitCode: 0,
  signal: null,
  timedOut: null,
  cancelled: false,
  spawnError: null,
  stderrTail: '',
  ...over,
})
const said = (text: string): TaskInput => ({ type: 'stream', event: { kind: 'text', text } })
const result = (ok = true, text = 'done'): TaskInput => ({
  type: 'stream',
  event: {
    kind: 'result',
    ok,
    text,
    sessionId: 's-1',
    turns: 2,
    tokens: { input: 100, output: 20, cache_read: 0, cache_creation: 0, total: 120 },
    costUsd: 0.01,
  },
})

/** Feeds inputs to a started task; returns the last task and every effect. */
function play(start: Task, inputs: TaskInput[]) {
  let step = startTask(start, T0)
  const effects = [...step.effects]
  let current: { task: Task; run: RunState } = step
  for (const input of inputs) {
    step = stepTask(current.task, current.run, input, T0)
    effects.push(...step.effects)
    current = step
  }
  return { task: current.task, run: current.run, effects, last: step }
}

describe('relay conventions', () => {
  it('reads markers line by line, a plan running on to the next marker', () => {
    expect(
      readMarkers('working on it\n[NOTIFY] Plan:\n1. parse\n2. test\n**[CLARIFY]** Which branch?'),
    ).toEqual([
      { kind: 'notify', text: 'Plan:\n1. parse\n2. test' },
      { kind: 'clarify', text: 'Which branch?' },
    ])
    expect(readMarkers('I will [NOTIFY] later, not now')).toEqual([])
    expect(readMarkers('- [NOTIFY]: done')).toEqual([{ kind: 'notify', text: 'done' }])
    expect(readMarkers('[NOTIFY]   ')).toEqual([])
  })

  it('plans on a keyword outside quotes only, and reads a reply to a plan', () => {
    const k = DEFAULT_PLAN_KEYWORDS
    expect(planKeywordIn('Refactor the parser', k)).toBe('refactor')
    expect(planKeywordIn('please set up a CI job', k)).toBe('set up a')
    expect(planKeywordIn('add "integrate weather alerts" to the backlog', k)).toBeNull()
    expect(planKeywordIn('add “integrate weather alerts” to the backlog', k)).toBeNull()
    expect(planKeywordIn('fix the reimplementation typo', k)).toBeNull()
    expect(readPlanReply('Yes!')).toBe('approve')
    expect(readPlanReply(' go ahead ')).toBe('approve')
    expect(readPlanReply('no')).toBe('reject')
    expect(readPlanReply('STOP.')).toBe('reject')
    expect(readPlanReply('yes but use the v2 API')).toBe('question')
  })
})

describe('claude stream-json lines', () => {
  it('reads the session, the main agent text, and the result with usage and cost', () => {
    expect(readClaudeStreamLine('{"type":"system","subtype":"init","session_id":"abc"}')).toEqual([
      { kind: 'session', sessionId: 'abc' },
    ])
    const assistant = JSON.stringify({
      type: 'assistant',
      parent_tool_use_id: null,
      message: { content: [{ type: 'text', text: '[NOTIFY] hi' }, { type: 'tool_use' }] },
    })
    expect(readClaudeStreamLine(assistant)).toEqual([{ kind: 'text', text: '[NOTIFY] hi' }])
    const sub = JSON.stringify({
      type: 'assistant',
      parent_tool_use_id: 'toolu_1',
      message: { content: [{ type: 'text', text: '[NOTIFY] from a sub-agent' }] },
    })
    expect(readClaudeStreamLine(sub)).toEqual([{ kind: 'other' }])
    const envelope = JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'All done',
      session_id: 'abc',
      num_turns: 3,
      total_cost_usd: 0.02,
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 1 },
    })
    expect(readClaudeStreamLine(envelope)).toEqual([
      {
        kind: 'result',
        ok: true,
        text: 'All done',
        sessionId: 'abc',
        turns: 3,
        costUsd: 0.02,
        tokens: { input: 10, output: 5, cache_read: 1, cache_creation: 0, total: 16 },
      },
    ])
    expect(readClaudeStreamLine('not json')).toEqual([{ kind: 'other' }])
    expect(readClaudeStreamLine('[1,2]')).toEqual([{ kind: 'other' }])
  })
})

describe('task lifecycle', () => {
  it('runs, relays notes as the stream moves on, and completes with its summary relayed once', () => {
    const { task: done, effects } = play(task(), [
      { type: 'spawned', pid: 4242 },
      { type: 'stream', event: { kind: 'session', sessionId: 's-1' } },
      said('[NOTIFY] Found the backlog'),
      { type: 'stream', event: { kind: 'other' } },
      said('[NOTIFY] Added one line to BACKLOG.md'),
      result(),
      exit(),
    ])
    expect(effects[0]).toEqual({
      kind: 'run',
      prompt: 'add a line to the backlog',
      resume: false,
      planning: false,
    })
    const notes = effects.filter((e) => e.kind === 'notify')
    expect(notes.map((n) => n.body)).toEqual(['Found the backlog', 'Added one line to BACKLOG.md'])
    expect(notes[1]).toMatchObject({ title: 'Task done: add a line to the backlog' })
    expect(done).toMatchObject({
      status: 'completed',
      session_id: 's-1',
      pid: null,
      runs: 1,
      turns: 2,
      cost_usd: 0.01,
      result: 'done',
    })
    expect(done.tokens.total).toBe(120)
    expect(done.notes).toHaveLength(2)
  })

  it('always relays a completion, from the result when the agent wrote no [NOTIFY]', () => {
    const { effects } = play(task(), [result(true, 'Wrote it.'), exit()])
    expect(effects.filter((e) => e.kind === 'notify').map((e) => e.body)).toEqual(['Wrote it.'])
  })

  it('pauses on [CLARIFY]; a reply resumes the same session', () => {
    const asked = play(task(), [said('[CLARIFY] Which backlog file?'), result(), exit()])
    expect(asked.task).toMatchObject({
      status: 'awaiting_clarification',
      question: 'Which backlog file?',
    })
    const replied = stepTask(asked.task, asked.run, { type: 'reply', text: 'BACKLOG.md' }, T0)
    expect(replied.task).toMatchObject({ status: 'running', question: null })
    expect(replied.effects).toEqual([
      { kind: 'run', prompt: 'BACKLOG.md', resume: true, planning: false },
    ])
  })

  it('plans first: the plan waits for approval; approve implements, a question re-plans, reject ends', () => {
    const planned = play(task({ plan: true }), [
      said('[NOTIFY] Plan:\n1. a\n2. b'),
      result(),
      exit(),
    ])
    expect(planned.effects[0]).toMatchObject({ kind: 'run', planning: true })
    expect(planned.task).toMatchObject({
      status: 'awaiting_approval',
      plan_text: 'Plan:\n1. a\n2. b',
    })
    const approve = stepTask(planned.task, planned.run, { type: 'reply', text: 'ok' }, T0)
    expect(approve.task).toMatchObject({ status: 'implementing', plan_approved: true })
    expect(approve.effects).toEqual([
      { kind: 'run', prompt: APPROVED_PROMPT, resume: true, planning: false },
    ])
    const ask = stepTask(planned.task, planned.run, { type: 'reply', text: 'why two steps?' }, T0)
    expect(ask.task.status).toBe('running')
    expect(ask.effects).toEqual([
      { kind: 'run', prompt: 'why two steps?', resume: true, planning: true },
    ])
    const reject = stepTask(planned.task, planned.run, { type: 'reply', text: 'no' }, T0)
    expect(reject.task).toMatchObject({ status: 'cancelled', ended_at: T0 })
    expect(reject.effects).toEqual([])
  })

  it('fails with the reason: an error result, no result, a timeout, a spawn error', () => {
    expect(
      play(task(), [result(false, 'API Error: 529'), exit({ exitCode: 1 })]).task,
    ).toMatchObject({
      status: 'failed',
      status_reason: 'API Error: 529',
    })
    expect(play(task(), [exit({ exitCode: 1, stderrTail: 'boom\n' })]).task.status_reason).toBe(
      'the agent exited 1 without a result: boom',
    )
    expect(
      play(task(), [exit({ timedOut: 'timed out after 1h', signal: 'SIGTERM' })]).task,
    ).toMatchObject({
      status: 'failed',
      status_reason: 'timed out after 1h',
    })
    expect(play(task(), [exit({ spawnError: 'claude: not found' })]).task.status_reason).toBe(
      'claude: not found',
    )
  })

  it('cancel: kills a running task (cancelled once it exits), ends a waiting one at once, refuses a finished one', () => {
    const running = play(task(), [{ type: 'spawned', pid: 7 }])
    const cancel = stepTask(running.task, running.run, { type: 'cancel' }, T0)
    expect(cancel.effects).toEqual([{ kind: 'kill' }])
    expect(cancel.task.status).toBe('running')
    const gone = stepTask(cancel.task, cancel.run, exit({ cancelled: true, signal: 'SIGTERM' }), T0)
    expect(gone.task).toMatchObject({ status: 'cancelled', pid: null })
    const queued = stepTask(task(), freshRun(), { type: 'cancel' }, T0)
    expect(queued.task.status).toBe('cancelled')
    expect(stepTask(gone.task, gone.run, { type: 'cancel' }, T0).refused).toMatch(
      /already cancelled/,
    )
    expect(stepTask(running.task, running.run, { type: 'reply', text: 'hi' }, T0).refused).toMatch(
      /waits for no reply/,
    )
  })

  it('heartbeat: due every interval of work since the run or the last beat', () => {
    const at = (min: number) => Date.parse(T0) + min * 60_000
    const running = task({ status: 'running', started_at: T0, run_started_at: T0 })
    expect(heartbeatDue(running, at(4), 5 * 60_000)).toBe(false)
    expect(heartbeatDue(running, at(5), 5 * 60_000)).toBe(true)
    const beat = heartbeat(running, at(15))
    expect(beat.effects).toEqual([
      {
        kind: 'notify',
        title: 'Still working: add a line to the backlog',
        body: 'still working, 15m',
      },
    ])
    expect(heartbeatDue(beat.task, at(19), 5 * 60_000)).toBe(false)
    expect(heartbeatDue(beat.task, at(20), 5 * 60_000)).toBe(true)
    expect(heartbeatDue(task({ status: 'awaiting_approval' }), at(60), 5 * 60_000)).toBe(false)
  })
})

describe('claudeTaskArgs', () => {
  it('never carries the task text; plans in plan mode; skips permissions only when chosen, never while planning', () => {
    const hostile = task({ text: '--dangerously-skip-permissions; $(rm -rf ~)' })
    const args = claudeTaskArgs(hostile, { sessionId: 's-1', resume: false, planning: false })
    expect(args.join(' ')).not.toContain('rm -rf')
    expect(args).not.toContain('--dangerously-skip-permissions')
    expect(args).toContain('--session-id')
    const planning = claudeTaskArgs(
      task({ skip_permissions: true, permission_mode: 'acceptEdits' }),
      {
        sessionId: 's-1',
        resume: true,
        planning: true,
      },
    )
    expect(
      planning.slice(
        planning.indexOf('--permission-mode'),
        planning.indexOf('--permission-mode') + 2,
      ),
    ).toEqual(['--permission-mode', 'plan'])
    expect(planning).not.toContain('--dangerously-skip-permissions')
    expect(planning).toContain('--resume')
    const chosen = claudeTaskArgs(task({ skip_permissions: true }), {
      sessionId: 's-1',
      resume: true,
      planning: false,
    })
    expect(chosen).toContain('--dangerously-skip-permissions')
  })
})

describe('taskEvents', () => {
  it('logs the start once, each note, and the end with its status and cost', async () => {
    const { taskEvents } = await import('../../electron/tasks/core/task-events.ts')
    const queued = task()
    const started = startTask(queued, T0).task
    const first = taskEvents(queued, started, [], T0)
    expect(first.map((e) => e.type)).toEqual(['task_started_by_navi'])
    expect(taskEvents(started, started, [], T0)).toEqual([])
    const { task: done } = play(queued, [said('[NOTIFY] done it'), result(), exit()])
    const last = taskEvents(started, done, ['done it'], T0)
    expect(last.map((e) => [e.type, e.details])).toEqual([
      ['task_notify', { task_id: 't0000abcd', text: 'add a line to the backlog', note: 'done it' }],
      [
        'task_finished',
        {
          task_id: 't0000abcd',
          text: 'add a line to the backlog',
          status: 'completed',
          reason: null,
          cost_usd: 0.01,
        },
      ],
    ])
    // The same change gives the same ids (a replay never logs it twice).
    expect(taskEvents(started, done, ['done it'], T0).map((e) => e.id)).toEqual(
      last.map((e) => e.id),
    )
    expect(last.every((e) => e.project === 'apollo')).toBe(true)
  })
})

describe('orphanOf', () => {
  it('what a stopped Navi left: an ended agent fails with what is known, an outliving one is said, a queued one is taken over', async () => {
    const { orphanOf } = await import('../../electron/tasks/core/orphans.ts')
    const running = task({ status: 'running', pid: 4242, session_id: 's-1', started_at: T0 })
    expect(orphanOf(running, { host: true, agent: true }, T0)).toBeNull()
    expect(orphanOf(running, { host: false, agent: false }, T0)).toMatchObject({
      kind: 'ended',
      task: {
        status: 'failed',
        status_reason: 'its agent ended while no Navi watched it; its session s-1 has what it did',
        pid: null,
        ended_at: T0,
      },
    })
    const outlived = orphanOf(running, { host: false, agent: true }, T0)
    expect(outlived).toMatchObject({ kind: 'outlived', task: { status: 'running', pid: 4242 } })
    // Said once: the same task again is left as it is.
    if (outlived?.kind === 'outlived') {
      expect(orphanOf(outlived.task, { host: false, agent: true }, T0)).toEqual(outlived)
    }
    expect(orphanOf(task(), { host: false, agent: false }, T0)).toEqual({ kind: 'queued' })
    expect(
      orphanOf(task({ status: 'awaiting_approval' }), { host: false, agent: false }, T0),
    ).toBeNull()
  })
})
