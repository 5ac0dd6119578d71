/** A registered project's markdown checklist (`tasks:` in config.yaml), read as task lists. */
import type { TaskList } from '../../../shared/schemas/session.ts'
import { parseChecklist } from '../core/checklist.ts'
import { openRegularFile } from './safe-read.ts'
import { errorText } from '../../../shared/log.ts'

/** A markdown backlog is a few KB; a file this large is not one. @default 4 MiB */
const CHECKLIST_MAX_BYTES = 4 * 1024 * 1024

/** The file's lists, dated by its mtime; a file that cannot be read adds its reason to `errors`. */
export async function readChecklist(
  file: string,
  projectName: string,
  errors: string[],
): Promise<TaskList[]> {
  try {
    const handle = await openRegularFile(file, CHECKLIST_MAX_BYTES)
    let text: string
    let updatedAt: string
    try {
      updatedAt = (await handle.stat()).mtime.toISOString()
      text = await handle.readFile('utf8')
    } finally {
      await handle.close()
    }
    return parseChecklist(text, { projectName, file }).map((list) => ({
      ...list,
      updated_at: updatedAt,
    }))
  } catch (error) {
    errors.push(`tasks file ${file}: ${errorText(error)}`)
    return []
  }
}
