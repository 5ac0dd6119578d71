/**
 * The buffers the transcript indexes (jsonl-index-cache.ts) are read into and written from: one per
 * index file, kept for the life of the process. An index is a megabyte or two, read once and written
 * every 30 s by a running engine. Freeing a buffer that size raises glibc's thresholds for mapping and
 * trimming to its size, after which freed memory stays in malloc's arenas: `navi watch` over 500
 * sessions held 2-3 MB more after 6 min (97 against 100 MB; the same watch with the thresholds fixed
 * by MALLOC_MMAP_THRESHOLD_ held 88). Grown with room to spare. Two engines of one process on one home
 * could read or write the same index at once: the second gets a buffer of its own (`busy`).
 */
const kept = new Map<string, Buffer>()
const busy = new Set<string>()

/** Runs `use` with the kept buffer of `file` (growing it as asked), or one of its own when it is in use. */
export async function withBuffer<T>(
  file: string,
  use: (bufferOf: (bytes: number) => Buffer) => Promise<T>,
): Promise<T> {
  if (busy.has(file)) return use(growing(undefined, () => undefined))
  busy.add(file)
  try {
    return await use(growing(kept.get(file), (grown) => kept.set(file, grown)))
  } finally {
    busy.delete(file)
  }
}

/** A buffer of at least `bytes`, the same one while it is large enough; a larger one keeps its bytes. */
function growing(initial: Buffer | undefined, store: (grown: Buffer) => void) {
  let current = initial
  return (bytes: number): Buffer => {
    if (current && current.length >= bytes) return current
    const grown = Buffer.allocUnsafeSlow(Math.ceil((bytes * 1.25) / 65_536) * 65_536)
    current?.copy(grown)
    current = grown
    store(grown)
    return grown
  }
}
