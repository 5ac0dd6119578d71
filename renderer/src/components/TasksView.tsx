import { useEffect } from 'react'
import { singleLine } from '../store/selectors.ts'
import { useTasksStore } from '../store/tasks-store.ts'
import { useUiStore } from '../store/ui-store.ts'
import { BackButton } from './BackButton.tsx'
import { NewTask } from './NewTask.tsx'
import { TaskItem } from './TaskItem.tsx'

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
