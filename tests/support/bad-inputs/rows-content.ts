/** The content rows: values no agent CLI or Navi writes, in every file Navi reads. */
import { CLAUDE_ROWS } from './rows-claude.ts'
import { NAVI_ROWS } from './rows-navi.ts'
import type { BadInput } from './types.ts'

export const CONTENT_ROWS: BadInput[] = [...CLAUDE_ROWS, ...NAVI_ROWS]
