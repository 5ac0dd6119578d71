import { useEffect, useState } from 'react'
import type { TaskPreview } from '../../../shared/schemas/task.ts'
import { invoke } from '../lib/api.ts'
import { singleLine } from '../store/selectors.ts'
import { useProjectsStore } from '../store/projects-store.ts'
import { useTasksStore } from '../store/tasks-store.ts'

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
 * "New task": the text, where it runs (the resolver's pick as the text is typed, or the user's), plan
 * first, model, and the permission mode in plain words; a permissive choice is for that one task.
 */
export function NewTask() {
  const projects = useProjectsStore((s) => s.state?.projects ?? [])
  const start = useTasksStore((s) => s.start)
  const [text, setText] = useState('')
  const [project, setProject] = useState('')
  const [plan, setPlan] = useState<'auto' | 'yes' | 'no'>('auto')
  const [model, setModel] = useState('')
  const [agent, setAgent] = useState<'claude' | 'codex'>('claude')
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
      agent,
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
          Agent{' '}
          <select
            data-testid="new-task-agent"
            value={agent}
            onChange={(e) => setAgent(e.target.value as 'claude' | 'codex')}
          >
            <option value="claude">Claude Code</option>
            <option value="codex">Codex</option>
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
