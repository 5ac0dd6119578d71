/** `navi serve --port`, read apart from the server so that the other commands need not load it. */

/** `--port` as a port number, or null when it is not one (0 = any free port). */
export function parsePort(value: string | undefined): number | null {
  if (value === undefined) return 0
  if (!/^\d{1,5}$/.test(value)) return null
  const port = Number(value)
  return port <= 65_535 ? port : null
}
