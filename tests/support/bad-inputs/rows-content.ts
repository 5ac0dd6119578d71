/** The content rows: values no agent CLI or Navi writes, in every file Navi reads. */
import { NAVI_ROWS } from './rows-navi.ts'
import { PROJECT_ROWS } from './rows-projects.ts'
import { SESSION_ROWS } from './rows-sessions.ts'
import { TRANSCRIPT_ROWS_ALL } from './rows-transcripts.ts'
import type { BadInput } from './types.ts'

export const CONTENT_ROWS: BadInput[] = [
  ...SESSION_ROWS,
  ...TRANSCRIPT_ROWS_ALL,
  ...NAVI_ROWS,
  ...PROJECT_ROWS,
]
