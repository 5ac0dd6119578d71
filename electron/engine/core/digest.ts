/**
 * SHA digests, with `node:crypto` loaded at the first one. Loading it is ~2.5 ms of a start (it brings
 * ciphers, keys and streams along), and a warm start that trusts its files by their stamps
 * (core/file-stamp.ts) hashes nothing: a module importing `createHash` at its top paid it anyway.
 */
import type { Hash } from 'node:crypto'

let crypto: typeof import('node:crypto') | undefined

const nodeCrypto = (): typeof import('node:crypto') =>
  (crypto ??= process.getBuiltinModule('node:crypto'))

export type { Hash }

/** A running SHA-256, for content that arrives in parts. */
export const sha256 = (): Hash => nodeCrypto().createHash('sha256')

/**
 * One-shot digests go through `crypto.hash` (Node 20.12+): a third of the time of a Hash object for
 * short input, which counts where every shell command of a transcript is digested (command-streak.ts).
 */
export const sha256Hex = (data: string | Uint8Array): string =>
  nodeCrypto().hash('sha256', data, 'hex')

/** A running SHA-1: for fingerprints only (stable, short), never to trust content. */
export const sha1 = (): Hash => nodeCrypto().createHash('sha1')

/** SHA-1: for ids and names only (stable, short), never to trust content. */
export const sha1Hex = (data: string | Uint8Array): string => nodeCrypto().hash('sha1', data, 'hex')
