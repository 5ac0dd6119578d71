/**
 * A delegated task's lifecycle as a pure reducer: what happened (a run started, a line of its stream, the
 * process ended, the user replied or cancelled) → the next task record, and what to do (relay a note to
 * the user, run the agent again, kill the process group). The service (tasks/index.ts) does the I/O.
 *
 * Notes are relayed as they come, except the run's latest `[NOTIFY]`, held until the stream moves on:
 * when the run then ends, that note is its summary (or its plan), relayed once as such.
 */
import { clipText } from '../../../shared/text.ts'
import type { Task } from '../../../shared/schemas/task.ts'
import type { AgentStreamEvent } from './claude-stream.ts'
import { APPROVED_PROMPT, readMarkers, readPlanReply } from './relay.ts'
import {
  freshRun,
  relay,
  taskLabel,
  type RunState,
  type Step,
  type TaskInput,
} from './task-step.ts'

/** The first run of a queued task: running (or implementing, for a plan approved before a restart). */
export function startTask(task: Task, now: string): Step {
  const planning = task.plan && !task.plan_approved
  return {
    task: {
      ...task,
      status: task.plan_approved ? 'implementing' : 'running',
      status_reason: planning ? 'planning' : null,
      started_at: task.started_at ?? now,
      updated_at: now,
    },
    run: freshRun(),
    // A session chosen up front is started by the first run; a task that ran before resumes it.
    effects: [
      {
        kind: 'run',
        prompt: task.text,
        resume: task.runs > 0 && task.session_id !== null,
        planning,
      },
    ],
  }
}

export function stepTask(task: Task, run: RunState, input: TaskInput, now: string): Step {
  const at = { updated_at: now }
  switch (input.type) {
    case 'spawned':
      return {
        task: { ...task, ...at, pid: input.pid, run_started_at: now, runs: task.runs + 1 },
        run,
        effects: [],
      }
    case 'stream':
      return onStream(task, run, input.event, now)
    case 'exited':
      return onExit({ ...task, ...at, pid: null }, run, input, now)
    case 'reply':
      return onReply(task, run, input.text, now)
    case 'cancel':
      if (task.status === 'running' || task.status === 'implementing') {
        return { task, run, effects: [{ kind: 'kill' }] }
      }
      if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') {
        return { task, run, effects: [], refused: `task ${task.id} has already ${task.status}` }
      }
      return {
        task: finish(task, 'cancelled', 'cancelled by the user', now),
        run,
        effects: [],
      }
  }
}

function onStream(task: Task, run: RunState, event: AgentStreamEvent, now: string): Step {
  if (event.kind === 'session') {
    return { task: { ...task, session_id: task.session_id ?? event.sessionId }, run, effects: [] }
  }
  if (event.kind === 'result') {
    const add = (before: number, now: number) => (event.cumulative ? now : before + now)
    return {
      task: {
        ...task,
        updated_at: now,
        session_id: task.session_id ?? event.sessionId,
        turns: task.turns + event.turns,
        cost_usd: task.cost_usd + event.costUsd,
        tokens: {
          input: add(task.tokens.input, event.tokens.input),
          output: add(task.tokens.output, event.tokens.output),
          cache_read: add(task.tokens.cache_read, event.tokens.cache_read),
          cache_creation: add(task.tokens.cache_creation, event.tokens.cache_creation),
          total: add(task.tokens.total, event.tokens.total),
        },
      },
      run: { ...run, result: { ok: event.ok, text: event.text || (run.lastText ?? '') } },
      effects: [],
    }
  }
  // Any other line means the stream moved on: a held note was not the last word; relay it now.
  let next: Step = flushNote(task, run, now)
  if (event.kind === 'text') {
    next = { ...next, run: { ...next.run, lastText: event.text } }
    for (const marker of readMarkers(event.text)) {
      if (marker.kind === 'clarify') next = { ...next, run: { ...next.run, question: marker.text } }
      else {
        const flushed = flushNote(next.task, next.run, now)
        next = {
          task: flushed.task,
          run: { ...flushed.run, pendingNote: marker.text },
          effects: [...next.effects, ...flushed.effects],
        }
      }
    }
  }
  return next
}

function onExit(
  task: Task,
  run: RunState,
  exit: Extract<TaskInput, { type: 'exited' }>,
  now: string,
): Step {
  const label = taskLabel(task)
  const failure = (reason: string): Step => {
    const flushed = flushNote(task, run, now)
    return relay(
      { ...flushed, task: finish(flushed.task, 'failed', reason, now) },
      `Task failed: ${label}`,
      reason,
      now,
    )
  }
  if (exit.cancelled) {
    const flushed = flushNote(task, run, now)
    return { ...flushed, task: finish(flushed.task, 'cancelled', 'cancelled by the user', now) }
  }
  if (exit.timedOut !== null) return failure(exit.timedOut)
  if (exit.spawnError !== null) return failure(exit.spawnError)
  if (!run.result) {
    const how = exit.signal ? `killed by ${exit.signal}` : `exited ${String(exit.exitCode)}`
    const tail = exit.stderrTail.trim()
    return failure(`the agent ${how} without a result${tail ? `: ${clipText(tail, 300)}` : ''}`)
  }
  if (!run.result.ok) return failure(clipText(run.result.text, 500))

  if (run.question !== null) {
    const flushed = flushNote(task, run, now)
    const waiting: Task = {
      ...flushed.task,
      status: 'awaiting_clarification',
      status_reason: null,
      question: run.question,
    }
    return relay({ ...flushed, task: waiting }, `${label} asks`, run.question, now)
  }
  const words = run.pendingNote ?? run.result.text
  if (task.plan && !task.plan_approved) {
    const waiting: Task = {
      ...task,
      status: 'awaiting_approval',
      status_reason: 'approve, reject, or ask about the plan',
      plan_text: words,
    }
    return relay({ task: waiting, run, effects: [] }, `Plan ready: ${label}`, words, now)
  }
  const done: Task = { ...finish(task, 'completed', null, now), result: run.result.text }
  return relay({ task: done, run, effects: [] }, `Task done: ${label}`, words, now)
}

function onReply(task: Task, run: RunState, text: string, now: string): Step {
  if (task.status === 'awaiting_clarification') {
    return {
      task: {
        ...task,
        updated_at: now,
        status: task.plan_approved ? 'implementing' : 'running',
        status_reason: null,
        question: null,
      },
      run: freshRun(),
      effects: [
        { kind: 'run', prompt: text, resume: true, planning: task.plan && !task.plan_approved },
      ],
    }
  }
  if (task.status !== 'awaiting_approval') {
    return {
      task,
      run,
      effects: [],
      refused: `task ${task.id} is ${task.status}: it waits for no reply`,
    }
  }
  const answer = readPlanReply(text)
  if (answer === 'reject') {
    return {
      task: finish(task, 'cancelled', 'the plan was rejected; nothing was implemented', now),
      run,
      effects: [],
    }
  }
  if (answer === 'approve') {
    return {
      task: {
        ...task,
        updated_at: now,
        status: 'implementing',
        status_reason: null,
        plan_approved: true,
      },
      run: freshRun(),
      effects: [{ kind: 'run', prompt: APPROVED_PROMPT, resume: true, planning: false }],
    }
  }
  // A longer reply is a question about the plan: the agent answers it, still planning.
  return {
    task: { ...task, updated_at: now, status: 'running', status_reason: 'planning' },
    run: freshRun(),
    effects: [{ kind: 'run', prompt: text, resume: true, planning: true }],
  }
}

function finish(task: Task, status: Task['status'], reason: string | null, now: string): Task {
  return {
    ...task,
    status,
    status_reason: reason,
    ended_at: now,
    updated_at: now,
    pid: null,
    question: null,
  }
}

function flushNote(task: Task, run: RunState, now: string): Step {
  if (run.pendingNote === null) return { task, run, effects: [] }
  return relay(
    { task, run: { ...run, pendingNote: null }, effects: [] },
    taskLabel(task),
    run.pendingNote,
    now,
  )
}
