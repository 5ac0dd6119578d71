/**
 * The benchmarks time their processes without NODE_EXTRA_CA_CERTS (bench/lib/measured-env.ts): Node
 * parses that bundle at every start, which is no work of the tool measured. Every process of a
 * comparison gets the same environment, and a run can keep the inherited one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  droppedFromMeasuredEnv,
  measuredEnv,
  measuredEnvNote,
} from '../../bench/lib/measured-env.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('measured environment of a benchmark', () => {
  it('leaves NODE_EXTRA_CA_CERTS out, keeps the rest and adds what the caller gives', () => {
    vi.stubEnv('NODE_EXTRA_CA_CERTS', '/etc/ssl/certs/ca-certificates.crt')
    vi.stubEnv('NAVI_BENCH_KEEP_ENV', '')
    vi.stubEnv('NAVI_TEST_PROBE', 'kept')
    const env = measuredEnv({ NAVI_HOME: '/tmp/navi-home' })
    expect(env.NODE_EXTRA_CA_CERTS).toBeUndefined()
    expect(env.NAVI_TEST_PROBE).toBe('kept')
    expect(env.NAVI_HOME).toBe('/tmp/navi-home')
    expect(droppedFromMeasuredEnv()).toEqual(['NODE_EXTRA_CA_CERTS'])
    expect(measuredEnvNote()).toContain('NODE_EXTRA_CA_CERTS')
    // The caller's process keeps it (npm downloads need it).
    expect(process.env.NODE_EXTRA_CA_CERTS).toBe('/etc/ssl/certs/ca-certificates.crt')
  })

  it('keeps the inherited environment when asked to', () => {
    vi.stubEnv('NODE_EXTRA_CA_CERTS', '/etc/ssl/certs/ca-certificates.crt')
    vi.stubEnv('NAVI_BENCH_KEEP_ENV', '1')
    expect(measuredEnv().NODE_EXTRA_CA_CERTS).toBe('/etc/ssl/certs/ca-certificates.crt')
    expect(droppedFromMeasuredEnv()).toEqual([])
    expect(measuredEnvNote()).toBeNull()
  })

  it('says nothing when the variable is not set', () => {
    vi.stubEnv('NODE_EXTRA_CA_CERTS', undefined)
    vi.stubEnv('NAVI_BENCH_KEEP_ENV', '')
    expect(droppedFromMeasuredEnv()).toEqual([])
    expect(measuredEnvNote()).toBeNull()
  })
})
