import { create } from 'zustand'
import type { Task, TaskActResult, TaskStartInput } from '../../../shared/schemas/task.ts'
import { invoke } from '../lib/api.ts'

interface TasksStore {
  tasks: Task[]
  loaded: boolean
  error: string | null
  load(): Promise<void>
  /** A `task:changed` push: the task replaces its older copy (or is added, newest first). */
  apply(task: Task): void
  start(input: TaskStartInput): Promise<TaskActResult | null>
  reply(id: string, text: string): Promise<TaskActResult | null>
  cancel(id: string): Promise<TaskActResult | null>
}

/** Delegated tasks as the popover shows them: loaded once, then kept current by `task:changed`. */
export const useTasksStore = create<TasksStore>()((set, get) => {
  const act = async (
    run: () => ReturnType<typeof invoke<'task:start'>>,
  ): Promise<TaskActResult | null> => {
    const result = await run()
    if (!result.ok) {
      set({ error: result.error.message })
      return null
    }
    set({ error: result.data.done ? null : result.data.message })
    if (result.data.task) get().apply(result.data.task)
    return result.data
  }
  return {
    tasks: [],
    loaded: false,
    error: null,
    load: async () => {
      const result = await invoke('tasks:list', undefined)
      // A server that does not know the channel (an older Navi) answers nothing: no tasks, not a crash.
      if (result.ok)
        set({ tasks: Array.isArray(result.data) ? result.data : [], loaded: true, error: null })
      else set({ loaded: true, error: result.error.message })
    },
    apply: (task) => {
      const rest = get().tasks.filter((t) => t.id !== task.id)
      set({ tasks: [task, ...rest].sort((a, b) => b.created_at.localeCompare(a.created_at)) })
    },
    start: (input) => act(() => invoke('task:start', input)),
    reply: (id, text) => act(() => invoke('task:reply', { id, text })),
    cancel: (id) => act(() => invoke('task:cancel', { id })),
  }
})

/** Tasks that wait for the user: a question or a plan. */
export const waitsForUser = (task: Task): boolean =>
  task.status === 'awaiting_clarification' || task.status === 'awaiting_approval'
