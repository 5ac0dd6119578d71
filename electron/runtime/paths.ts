/**
 * Where Navi's files are, for a face that needs no more of the runtime than that (a command answered by a
 * running Navi loads neither the engine nor zod).
 */
export { naviFiles, resolvePaths, type EnginePaths } from '../engine/core/paths.ts'
