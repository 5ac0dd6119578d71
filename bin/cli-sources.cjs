'use strict'
// Whether the built `navi` is newer than every TypeScript source it was built from (bin/navi.cjs runs
// the sources through tsx otherwise, so a checkout being edited never runs stale code), and the list of
// those sources the build writes beside the bundle so that the check is cheap.
//
// Walking electron/ and shared/ on every command (20 directories, 270 files) cost ~4.4 ms; with the
// build's list, each listed file is stat'ed (~1.5 ms) and a directory is listed again only when its own
// time says an entry came or went since the build (an editor's swap file does that and changes nothing).
// CommonJS and dependency-free: bin/navi.cjs loads it before anything else, and the build (a TypeScript
// script) writes the list with it, so both sides read one format.
const { readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs')
const { join, relative, sep } = require('node:path')

const SOURCE_DIRS = ['electron', 'shared']
const FORMAT = 'navi-cli-sources/1'

/** `dir`'s TypeScript files and subdirectories, by name, sorted. */
function listingOf(dir) {
  const files = []
  const dirs = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) dirs.push(entry.name)
    else if (entry.name.endsWith('.ts')) files.push(entry.name)
  }
  return { files: files.sort(), dirs: dirs.sort() }
}

/** Every source directory under `root`, by its path relative to `root` ('/'-separated), with its listing. */
function sourceListings(root) {
  const listings = {}
  const visit = (dir) => {
    const listing = listingOf(dir)
    listings[relative(root, dir).split(sep).join('/')] = listing
    for (const name of listing.dirs) visit(join(dir, name))
  }
  for (const dir of SOURCE_DIRS) visit(join(root, dir))
  return listings
}

/** Writes the list of the sources under `root` to `file` (the build does, beside the bundle it wrote). */
function writeSourceList(root, file) {
  writeFileSync(file, `${JSON.stringify({ format: FORMAT, dirs: sourceListings(root) })}\n`)
}

const sameNames = (a, b) => a.length === b.length && a.every((name, i) => name === b[i])

/** The newest modification time of the sources under `dir`, walking it (no list to go by). */
function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** The list `file` holds, or null when there is none or it is not one this code wrote. */
function readSourceList(file) {
  try {
    const list = JSON.parse(readFileSync(file, 'utf8'))
    return list && list.format === FORMAT && typeof list.dirs === 'object' ? list : null
  } catch {
    return null
  }
}

/**
 * True when `bundle` is newer than every source under `root`: by the list in `listFile` when there is
 * one (a listed directory whose entries changed, or a listed file gone, is not fresh), else by a walk.
 * False when anything cannot be looked at.
 */
function bundleIsFresh(root, bundle, listFile) {
  try {
    const built = statSync(bundle).mtimeMs
    const list = readSourceList(listFile)
    if (list === null) return SOURCE_DIRS.every((dir) => newestSource(join(root, dir)) <= built)
    for (const [dir, listed] of Object.entries(list.dirs)) {
      const path = join(root, dir)
      if (statSync(path).mtimeMs > built) {
        const now = listingOf(path)
        if (!sameNames(now.files, listed.files) || !sameNames(now.dirs, listed.dirs)) return false
      }
      for (const name of listed.files) if (statSync(join(path, name)).mtimeMs > built) return false
    }
    return true
  } catch {
    return false
  }
}

module.exports = { bundleIsFresh, writeSourceList, SOURCE_LIST_FILE: 'sources.json' }
