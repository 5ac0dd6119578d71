/**
 * One realistic Claude Code turn as JSONL text (agent-cli-formats.md §8, version 2.1.197): a typed
 * prompt, one to six tool calls (each API response split one line per content block, with the same
 * message.id and the same final usage), their results, the final answer and turn_duration.
 */

export interface SessionContext {
  random: () => number
  sessionId: string
  cwd: string
  branch: string
  model: string
  /** Timestamp of the last line written; moves forward with every line. */
  clockMs: number
  turn: number
  lastUuid: string | null
}

const WORDS = (
  'const let return await async function import export from interface type if else for while ' +
  'value result error config state session project branch commit status event cycle index ' +
  'cache reader writer parse fold snapshot engine window render update create delete list'
).split(' ')

/** A fixed pool of source-like text; payloads are slices of it (fast, and varied enough). */
const POOL = buildPool(1024 * 1024)

function buildPool(size: number): string {
  let seed = 7
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
  const lines: string[] = []
  let length = 0
  for (let n = 1; length < size; n++) {
    const words = Array.from({ length: 3 + Math.floor(next() * 9) }, () => {
      return WORDS[Math.floor(next() * WORDS.length)] ?? 'x'
    })
    const line = `${'  '.repeat(Math.floor(next() * 4))}${words.join(' ')}; // ${n}\n`
    lines.push(line)
    length += line.length
  }
  return lines.join('')
}

function text(random: () => number, bytes: number): string {
  const start = Math.floor(random() * (POOL.length - bytes - 1))
  return POOL.slice(Math.max(0, start), Math.max(0, start) + bytes)
}

/** Payload sizes: most results are small, some are large file reads or logs (50–200 KB). */
function payloadBytes(random: () => number): number {
  const r = random()
  if (r < 0.85) return 200 + Math.floor(random() * 4000)
  if (r < 0.97) return 4000 + Math.floor(random() * 36_000)
  return 50_000 + Math.floor(random() * 150_000)
}

function hex(random: () => number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += Math.floor(random() * 16).toString(16)
  return out
}

function lineUuid(random: () => number): string {
  const h = hex(random, 32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`
}

export function buildTurn(ctx: SessionContext): string {
  const { random } = ctx
  const lines: unknown[] = []
  const tick = (maxMs: number) => {
    ctx.clockMs += 200 + Math.floor(random() * maxMs)
    return new Date(ctx.clockMs).toISOString()
  }
  const common = (type: string) => {
    const uuid = lineUuid(random)
    const fields = {
      parentUuid: ctx.lastUuid,
      isSidechain: false,
      userType: 'external',
      entrypoint: 'cli',
      cwd: ctx.cwd,
      sessionId: ctx.sessionId,
      version: '2.1.197',
      gitBranch: ctx.branch,
      type,
      uuid,
      timestamp: tick(4000),
    }
    ctx.lastUuid = uuid
    return fields
  }
  ctx.turn++
  const turnStart = ctx.clockMs
  const prompt = `Step ${ctx.turn}: ${text(random, 40 + Math.floor(random() * 400))}`
  const promptLine = {
    ...common('user'),
    promptId: lineUuid(random),
    message: { role: 'user', content: prompt },
    permissionMode: 'default',
    origin: { kind: 'human' },
    promptSource: 'typed',
  }
  lines.push({
    type: 'file-history-snapshot',
    messageId: promptLine.uuid,
    snapshot: {
      messageId: promptLine.uuid,
      trackedFileBackups: {},
      timestamp: promptLine.timestamp,
    },
    isSnapshotUpdate: false,
  })
  lines.push(promptLine)

  const calls = 1 + Math.floor(random() * 6)
  for (let call = 0; call <= calls; call++) {
    const last = call === calls
    const messageId = `msg_${hex(random, 24)}`
    const cacheCreation = Math.floor(random() * 5000)
    const usage = {
      input_tokens: 1 + Math.floor(random() * 50),
      cache_creation_input_tokens: cacheCreation,
      cache_read_input_tokens: 10_000 + Math.floor(random() * 140_000),
      output_tokens: 20 + Math.floor(random() * 2000),
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: 'standard',
      // Claude Code splits cache writes by TTL; the parts add up to cache_creation_input_tokens.
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: cacheCreation },
    }
    const stopReason = last ? 'end_turn' : 'tool_use'
    const requestId = `req_${hex(random, 24)}`
    const assistant = (content: unknown[]) => ({
      ...common('assistant'),
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: ctx.model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      },
      requestId,
    })
    lines.push(assistant([{ type: 'text', text: text(random, 60 + Math.floor(random() * 600)) }]))
    if (last) break
    const toolUseId = `toolu_${hex(random, 24)}`
    const [name, input, result] = toolCall(random, ctx.cwd)
    const toolUse = assistant([{ type: 'tool_use', id: toolUseId, name, input }])
    lines.push(toolUse)
    lines.push({
      ...common('user'),
      message: {
        role: 'user',
        content: [{ tool_use_id: toolUseId, type: 'tool_result', content: result.text }],
      },
      toolUseResult: result.structured,
      sourceToolAssistantUUID: toolUse.uuid,
    })
  }
  lines.push({
    ...common('system'),
    subtype: 'turn_duration',
    durationMs: ctx.clockMs - turnStart,
    messageCount: lines.length,
    isMeta: false,
  })
  if (ctx.turn === 1) {
    lines.push({ type: 'ai-title', aiTitle: prompt.slice(0, 60), sessionId: ctx.sessionId })
  }
  if (random() < 0.1) {
    lines.push({
      type: 'last-prompt',
      lastPrompt: prompt,
      leafUuid: ctx.lastUuid,
      sessionId: ctx.sessionId,
    })
  }
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`
}

type ToolCall = [string, Record<string, unknown>, { text: string; structured: unknown }]

function toolCall(random: () => number, cwd: string): ToolCall {
  const body = text(random, payloadBytes(random))
  const filePath = `${cwd}/src/${WORDS[Math.floor(random() * WORDS.length)] ?? 'x'}.ts`
  const r = random()
  if (r < 0.45) {
    return [
      'Read',
      { file_path: filePath },
      { text: body, structured: { type: 'text', file: { filePath, content: body } } },
    ]
  }
  if (r < 0.75) {
    const command = random() < 0.5 ? 'npm test' : 'git status --short'
    return [
      'Bash',
      { command, description: 'Run a command' },
      { text: body, structured: { stdout: body, stderr: '', interrupted: false, isImage: false } },
    ]
  }
  if (r < 0.9) {
    const oldString = text(random, 80)
    const newString = text(random, 120)
    return [
      'Edit',
      { file_path: filePath, old_string: oldString, new_string: newString, replace_all: false },
      {
        text: `The file ${filePath} has been updated.`,
        structured: { filePath, oldString, newString, originalFile: body, userModified: false },
      },
    ]
  }
  return [
    'Grep',
    { pattern: 'session', path: cwd, output_mode: 'content' },
    { text: body, structured: { mode: 'content', numFiles: 12, content: body, numLines: 80 } },
  ]
}
