/** Every row of the bad-input table (see tests/integration/bad-input-table.test.ts). */
import { CONTENT_ROWS } from './rows-content.ts'
import { FILE_ROWS } from './rows-files.ts'
import type { BadInput } from './types.ts'

export const BAD_INPUTS: BadInput[] = [...FILE_ROWS, ...CONTENT_ROWS]
export type { BadInput }
