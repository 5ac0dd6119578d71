import { useEffect, useState } from 'react'
import type { Task, TaskPreview } from '../../../shared/schemas/task.ts'
import { invoke } from '../lib/api.ts'
import { inertBlock } from '../../../shared/text.ts'
import { relativeTime, sessionStatusLabel, singleLine } from '../store/selectors.ts'
import { useProjectsStore } from '../store/projects-store.ts'
import { useTasksStore, waitsForUser } from '../store/tasks-store.ts'
import { useUiStore } from '../store/ui-store.ts'
import { BackButton } from './BackButton.tsx'

/** How long typing pauses before the "runs in" preview is asked for. */
const PREVIEW_DELAY_MS = 300

const MODES: { value: string; label: string }[] = [
  { value: '', label: 'your own settings' },
  { value: 'acceptEdits', label: 'accept edits without asking' },
  { value: 'dontAsk', label: 'never ask (refuse what is not allowed)' },
  { value: 'auto', label: 'auto mode' },
  { value: 'bypassPermissions', label: 'SKIP EVERY PERMISSION CHECK' },
]

/**
 * Delegated tasks: "New task" (the text, where it runs — the resolver's pick, or the user's — plan first,
 * model, permission mode said plainly) and the tasks, newest first, with what each relayed, its question
 * or plan to answer, and Cancel. Every text from a task is shown inert.
 */
export function TasksView() {
  const back = useUiStore((s) => s.back)
  const { tasks, loaded, error, load } = useTasksStore()
  useEffect(() => {
    void load()
  }, [load])
  return (
    <section className="detail tasks" data-testid="tasks-view">
      <header className="detail-head">
        <BackButton testId="tasks-back" onBack={back} />
        <h2 className="detail-title">Tasks</h2>
      </header>
      <div className="detail-body">
        <NewTask />
        {error && (
          <p className="detail-error" data-testid="tasks-error">
            {singleLine(error)}
          </p>
        )}
        {loaded && tasks.length === 0 && <p className="empty">No tasks yet.</p>}
        <ul className="task-list" data-testid="task-list">
          {tasks.map((task) => (
            <TaskItem key={task.id} task={task} />
          ))}
        </ul>
      </div>
    </section>
  )
}

function NewTask() {
  const projects = useProjectsStore((s) => s.state?.projects ?? [])
  const start = useTasksStore((s) => s.start)
  const [text, setText] = useState('')
  const [project, setProject] = useState('')
  const [plan, setPlan] = useState<'auto' | 'yes' | 'no'>('auto')
  const [model, setModel] = useState('')
  const [mode, setMode] = useState('')
  const [preview, setPreview] = useState<TaskPreview | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (text.trim() === '') return setPreview(null)
    const timer = window.setTimeout(() => {
      void invoke('task:preview', { text }).then((r) => setPreview(r.ok ? r.data : null))
    }, PREVIEW_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [text])

  const where =
    project !== ''
      ? project
      : preview?.dir
        ? `${preview.project ?? preview.dir} (${preview.why ?? ''})`
        : preview && preview.candidates.length > 0
          ? `which project? ${preview.candidates.map((c) => c.project ?? c.dir).join(' or ')}`
          : 'which project? choose one'
  const plans = plan === 'yes' || (plan === 'auto' && preview?.plan_keyword != null)
  const submit = async () => {
    setBusy(true)
    const result = await start({
      text,
      ...(project !== '' && { project }),
      ...(plan !== 'auto' && { plan: plan === 'yes' }),
      ...(model.trim() !== '' && { model: model.trim() }),
      ...(mode !== '' && {
        permission_mode: mode as 'acceptEdits' | 'dontAsk' | 'auto' | 'bypassPermissions',
      }),
    })
    setBusy(false)
    if (result?.done) {
      // A permissive mode or a plan choice is for that one task: the next one starts from the defaults.
      setText('')
      setProject('')
      setPlan('auto')
      setModel('')
      setMode('')
      setPreview(null)
    }
  }
  return (
    <form
      className="new-task"
      data-testid="new-task"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <textarea
        data-testid="new-task-text"
        value={text}
        maxLength={20_000}
        rows={2}
        placeholder="New task: what should an agent do?"
        aria-label="New task"
        onChange={(event) => setText(event.target.value)}
      />
      <div className="new-task-where" data-testid="new-task-where">
        Runs in{' '}
        <select
          data-testid="new-task-project"
          value={project}
          onChange={(e) => setProject(e.target.value)}
        >
          <option value="">{singleLine(where)}</option>
          {projects.map((p) => (
            <option key={p.project_dir} value={p.name}>
              {singleLine(p.name)}
            </option>
          ))}
        </select>
      </div>
      <div className="new-task-options">
        <label>
          Plan first{' '}
          <select
            data-testid="new-task-plan"
            value={plan}
            onChange={(e) => setPlan(e.target.value as 'auto' | 'yes' | 'no')}
          >
            <option value="auto">
              {preview?.plan_keyword
                ? `yes ("${singleLine(preview.plan_keyword)}")`
                : 'when it says so'}
            </option>
            <option value="yes">yes</option>
            <option value="no">no</option>
          </select>
        </label>
        <label>
          Model{' '}
          <input
            data-testid="new-task-model"
            value={model}
            maxLength={200}
            placeholder="default"
            onChange={(e) => setModel(e.target.value)}
          />
        </label>
        <label>
          Permissions{' '}
          <select
            data-testid="new-task-mode"
            value={mode}
            onChange={(e) => setMode(e.target.value)}
          >
            {MODES.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {mode === 'bypassPermissions' && (
        <p className="task-warning" data-testid="new-task-warning">
          The agent will run every tool, including shell commands, without asking anyone.
        </p>
      )}
      <button
        type="submit"
        className="small-button"
        data-testid="new-task-start"
        disabled={busy || text.trim() === ''}
      >
        {plans ? 'Plan it' : 'Start'}
      </button>
    </form>
  )
}

const STATUS_LABEL: Record<Task['status'], string> = {
  queued: 'queued',
  running: 'running',
  awaiting_clarification: 'asks you',
  awaiting_approval: 'plan to approve',
  implementing: 'implementing',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
}

function TaskItem({ task }: { task: Task }) {
  const now = useUiStore((s) => s.now)
  // The task's agent session, as the engine sees it (waiting on a permission, stalled, …).
  const session = useProjectsStore((s) =>
    s.state?.projects.flatMap((p) => p.sessions).find((x) => x.id === task.session_id),
  )
  const { reply, cancel } = useTasksStore()
  const [answer, setAnswer] = useState('')
  const working = ['queued', 'running', 'implementing'].includes(task.status)
  const send = async (text: string) => {
    if (text.trim() === '') return
    const result = await reply(task.id, text)
    if (result?.done) setAnswer('')
  }
  return (
    <li className={`task task--${task.status}`} data-testid="task" data-status={task.status}>
      <div className="task-head">
        <span className="task-status" data-testid="task-status">
          {STATUS_LABEL[task.status]}
        </span>
        <span className="task-text">{singleLine(task.text)}</span>
        <span className="task-meta muted">
          {singleLine(task.project ?? task.cwd)} · {relativeTime(now, task.created_at)}
        </span>
      </div>
      {task.status_reason && (
        <div className="task-reason muted">{singleLine(task.status_reason)}</div>
      )}
      {task.notes
        .slice(-3)
        // The plan and the question are shown below, once.
        .filter(
          (note) =>
            !waitsForUser(task) || (note.text !== task.plan_text && note.text !== task.question),
        )
        .map((note) => (
          <div key={note.at + note.text} className="task-note" data-testid="task-note">
            {singleLine(note.text)}
          </div>
        ))}
      {task.status === 'awaiting_clarification' && task.question && (
        <div className="task-question" data-testid="task-question">
          {singleLine(task.question)}
        </div>
      )}
      {task.status === 'awaiting_approval' && task.plan_text && (
        <pre className="task-plan" data-testid="task-plan">
          {inertBlock(task.plan_text)}
        </pre>
      )}
      <div className="task-actions">
        {task.status === 'awaiting_approval' && (
          <>
            <button
              type="button"
              className="small-button"
              data-testid="task-approve"
              onClick={() => void send('approve')}
            >
              Approve
            </button>
            <button
              type="button"
              className="small-button"
              data-testid="task-reject"
              onClick={() => void send('reject')}
            >
              Reject
            </button>
          </>
        )}
        {working && (
          <button
            type="button"
            className="small-button"
            data-testid="task-cancel"
            onClick={() => void cancel(task.id)}
          >
            Cancel
          </button>
        )}
        <span className="muted task-spent">
          {task.turns} turns · ${task.cost_usd.toFixed(3)}
        </span>
      </div>
      {waitsForUser(task) && (
        <form
          className="request-reason"
          onSubmit={(event) => {
            event.preventDefault()
            void send(answer)
          }}
        >
          <input
            data-testid="task-reply-text"
            value={answer}
            maxLength={20_000}
            placeholder={
              task.status === 'awaiting_approval' ? 'A question about the plan…' : 'Your answer…'
            }
            onChange={(event) => setAnswer(event.target.value)}
          />
          <button
            type="submit"
            className="small-button"
            data-testid="task-reply"
            disabled={answer.trim() === ''}
          >
            Reply
          </button>
        </form>
      )}
    </li>
  )
}
