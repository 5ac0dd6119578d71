/**
 * Throughput of reading + JSON.parse + foldTranscriptLine over a generated Claude transcript.
 * `node bin/run-ts.mjs bench/transcript-throughput.ts [megabytes]` (default 200).
 */
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as z from 'zod'
import { createJsonlTail } from '../electron/engine/adapters/jsonl-tail.ts'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../electron/engine/core/transcript-fold.ts'

const targetMb = Number(process.argv[2] ?? 200)
const base = {
  parentUuid: 'p',
  isSidechain: false,
  userType: 'external',
  entrypoint: 'cli',
  cwd: '/home/user/proj',
  sessionId: 's',
  version: '2.1.197',
  gitBranch: 'main',
}
const usage = {
  input_tokens: 100,
  output_tokens: 20,
  cache_read_input_tokens: 5000,
  cache_creation_input_tokens: 30,
}
const fileBody = 'const x = 1 // some source code line\n'.repeat(120)

/** One turn: prompt, split assistant response with a tool call, tool result, final answer. */
function turnLines(i: number): string[] {
  const at = new Date(1795301044684 + i * 1000).toISOString()
  return [
    {
      ...base,
      type: 'user',
      message: { role: 'user', content: `please do step ${i}` },
      timestamp: at,
    },
    {
      ...base,
      type: 'assistant',
      timestamp: at,
      message: {
        id: `msg_${i}_a`,
        role: 'assistant',
        content: [{ type: 'text', text: 'Reading.' }],
        stop_reason: 'tool_use',
        usage,
      },
    },
    {
      ...base,
      type: 'assistant',
      timestamp: at,
      message: {
        id: `msg_${i}_a`,
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: `toolu_${i}`,
            name: 'Read',
            input: { file_path: '/home/user/proj/a.ts' },
          },
        ],
        stop_reason: 'tool_use',
        usage,
      },
    },
    {
      ...base,
      type: 'user',
      timestamp: at,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: fileBody }],
      },
      toolUseResult: {
        type: 'text',
        file: { filePath: '/home/user/proj/a.ts', content: fileBody },
      },
    },
    {
      ...base,
      type: 'assistant',
      timestamp: at,
      message: {
        id: `msg_${i}_b`,
        role: 'assistant',
        content: [{ type: 'text', text: 'Done.' }],
        stop_reason: 'end_turn',
        usage,
      },
    },
    { ...base, type: 'system', subtype: 'turn_duration', durationMs: 800, timestamp: at },
  ].map((line) => JSON.stringify(line))
}

async function generate(path: string): Promise<number> {
  const out = createWriteStream(path)
  let bytes = 0
  for (let i = 0; bytes < targetMb * 1024 * 1024; i++) {
    const chunk = `${turnLines(i).join('\n')}\n`
    bytes += Buffer.byteLength(chunk)
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve) => out.end(() => resolve()))
  return bytes
}

const lineSchema = z.looseObject({
  type: z.string(),
  timestamp: z.string().optional(),
  isSidechain: z.boolean().optional(),
  message: z.looseObject({ id: z.string().optional(), content: z.unknown() }).optional(),
})

async function measure(label: string, path: string, onLine: (line: unknown) => void) {
  const size = (await stat(path)).size
  const started = performance.now()
  await createJsonlTail(path).readNew({ onLine })
  const seconds = (performance.now() - started) / 1000
  console.log(`${label.padEnd(44)} ${(size / 1024 / 1024 / seconds).toFixed(0).padStart(5)} MB/s`)
}

const dir = await mkdtemp(join(tmpdir(), 'navi-bench-'))
try {
  const path = join(dir, 'big.jsonl')
  const bytes = await generate(path)
  console.log(`generated ${(bytes / 1024 / 1024).toFixed(0)} MB`)
  await measure('read + JSON.parse only', path, () => {})
  const summary = emptyTranscriptSummary('s', path)
  await measure('read + JSON.parse + foldTranscriptLine', path, (line) =>
    foldTranscriptLine(summary, line),
  )
  console.log(
    `  turns=${summary.turns} messages=${summary.usage.messages} tail=${summary.tail.kind}`,
  )
  await measure('read + JSON.parse + zod safeParse (for scale)', path, (line) =>
    lineSchema.safeParse(line),
  )
} finally {
  await rm(dir, { recursive: true, force: true })
}
