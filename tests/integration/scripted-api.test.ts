import { afterEach, describe, expect, it } from 'vitest'
import {
  EXHAUSTED_TEXT,
  httpError,
  startScriptedApi,
  text,
  toolUses,
  type ScriptedApi,
} from '../support/scripted-api.ts'

interface SseEvent {
  event: string
  data: Record<string, unknown>
}

function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const [eventLine = '', dataLine = ''] = chunk.split('\n')
      return {
        event: eventLine.replace(/^event: /, ''),
        data: JSON.parse(dataLine.replace(/^data: /, '')) as Record<string, unknown>,
      }
    })
}

const toolsBody = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-opus-4-8',
  stream: true,
  tools: [{ name: 'Write', input_schema: { type: 'object' } }],
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
})

let api: ScriptedApi | undefined
afterEach(async () => {
  await api?.close()
  api = undefined
})

async function post(server: ScriptedApi, body: unknown) {
  const res = await fetch(`${server.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test' },
    body: JSON.stringify(body),
  })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

describe('scripted Anthropic API', () => {
  it('binds 127.0.0.1, answers the start-up probes and records every request', async () => {
    api = await startScriptedApi()
    expect(api.url).toBe(`http://127.0.0.1:${String(api.port)}`)
    expect((await fetch(`${api.url}/`, { method: 'HEAD' })).status).toBe(200)
    expect((await fetch(`${api.url}/api/hello`)).status).toBe(200)
    expect((await fetch(`${api.url}/v1/unknown`, { method: 'POST' })).status).toBe(404)
    expect(api.requests.map((r) => [r.method, r.path, r.route])).toEqual([
      ['HEAD', '/', 'probe'],
      ['GET', '/api/hello', 'probe'],
      ['POST', '/v1/unknown', 'other'],
    ])
  })

  it('streams a tool_use turn as message_start … message_stop with split input_json_delta', async () => {
    api = await startScriptedApi({ usage: { input_tokens: 321, output_tokens: 42 } })
    const input = { file_path: '/tmp/x/notes.md', content: '# Notes\nline1\n' }
    api.enqueue(
      toolUses(
        [
          { name: 'Write', input },
          { name: 'Bash', input: { command: 'ls' } },
        ],
        { text: 'writing' },
      ),
    )
    const res = await post(api, toolsBody())
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const events = parseSse(res.text)
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      ...[
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
      ],
      ...[
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_delta',
      ],
      'content_block_stop',
      'content_block_start',
      ...[
        'content_block_delta',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
      ],
      'message_delta',
      'message_stop',
    ])
    for (const e of events) expect(e.data.type).toBe(e.event)
    const partials = events
      .filter((e) => e.data.index === 1 && e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { partial_json: string }).partial_json)
    expect(JSON.parse(partials.join(''))).toEqual(input)
    const start = events[0]?.data.message as { id: string; usage: { input_tokens: number } }
    expect(start.id).toMatch(/^msg_/)
    expect(start.usage.input_tokens).toBe(321)
    expect(events.at(-2)?.data).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 42 },
    })
    expect(api.consumed).toBe(1)
  })

  it('plays errors with retry-after, delays, unique ids and then "(script exhausted)"', async () => {
    api = await startScriptedApi()
    api.enqueue(httpError(429, { retryAfterSec: 1 }), text('one', { delayMs: 300 }), text('two'))
    const err = await post(api, toolsBody())
    expect(err.status).toBe(429)
    expect(err.headers.get('retry-after')).toBe('1')
    expect(JSON.parse(err.text)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'fake 429 error' },
    })
    const before = Date.now()
    const one = parseSse((await post(api, toolsBody())).text)
    expect(Date.now() - before).toBeGreaterThanOrEqual(290)
    const two = parseSse((await post(api, toolsBody())).text)
    const idOf = (events: SseEvent[]) => (events[0]?.data.message as { id: string }).id
    expect(idOf(one)).not.toBe(idOf(two))
    expect(one.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'end_turn' } })

    const exhausted = parseSse((await post(api, toolsBody())).text)
    const deltas = exhausted.filter((e) => e.event === 'content_block_delta')
    expect(deltas.map((e) => (e.data.delta as { text: string }).text).join('')).toBe(EXHAUSTED_TEXT)
    expect(api.consumed).toBe(3)
    expect(api.exhaustedCount).toBe(1)
    expect(api.requests.at(-1)?.route).toBe('exhausted')
  })

  it('answers tool-less side requests without consuming the queue', async () => {
    api = await startScriptedApi({ title: 'My title' })
    api.enqueue(text('queued'))
    const titled = parseSse(
      (
        await post(
          api,
          toolsBody({ tools: [], output_config: { format: { type: 'json_schema' } } }),
        )
      ).text,
    )
    const titleText = titled
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { text: string }).text)
      .join('')
    expect(JSON.parse(titleText)).toEqual({ title: 'My title' })
    await post(api, { model: 'x', messages: [] })
    expect(api.requests.map((r) => r.route)).toEqual(['side', 'side'])
    expect(api.pending).toBe(1)
    expect(api.consumed).toBe(0)
  })

  it('waitForConsumed is bounded, and close() ends a request still waiting on a delayed turn', async () => {
    api = await startScriptedApi()
    const started = Date.now()
    await expect(api.waitForConsumed(1, 200)).rejects.toThrow(/Timed out after 200 ms/)
    // Bounds far from any timing a loaded machine could reach, and far below what they guard against.
    expect(Date.now() - started).toBeLessThan(10_000)

    api.enqueue(text('late', { delayMs: 60_000 }))
    const inFlight = post(api, toolsBody())
    await api.waitForRequest((r) => r.route === 'scripted', 2_000)
    const closing = Date.now()
    await api.close()
    api = undefined
    expect(Date.now() - closing).toBeLessThan(30_000)
    await expect(inFlight).rejects.toThrow()
  })
})
