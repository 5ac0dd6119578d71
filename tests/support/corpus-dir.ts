/**
 * Where the real Claude Code files of ../shared/corpus are (NAVI_CORPUS overrides): tests copy them to a
 * temp dir where the folder is, and write their own sessions everywhere.
 */
import { resolve } from 'node:path'

export const CORPUS_CLAUDE = resolve(
  process.env.NAVI_CORPUS ?? resolve(import.meta.dirname, '../../../shared/corpus'),
  'claude',
)
