/**
 * A zod schema made at its first use instead of when its module loads.
 *
 * Every `navi` command loads the engine, and with it the whole contract: some 150 schemas across the
 * shared and engine modules. zod makes each one eagerly (an object per check, bound methods, defaults
 * parsed), about 10 ms of a 110 ms `navi status`, yet a command whose sources did not change parses only
 * the snapshots and a header or two. Wrapped, a schema costs nothing until something reads a property of
 * it (parsing, extending, embedding it in a schema that is itself used), and then is the very schema the
 * builder returns, once: `instanceof`, bound methods and zod's internals all see the real object.
 *
 * zod's JSON Schema output keys some schemas by identity, which the wrapper does not share: a wrapped
 * schema may not be a `.default()`, `.optional()`, `.nullable()` or other wrapper at its top (wrap what is
 * inside it, or leave a small one eager), and may not carry metadata (`.describe`, `.meta`). The first is
 * checked when the schema is built.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let made: T | undefined
  const schema = (): T => (made ??= checked(build()))
  // The target only satisfies the Proxy's invariants; every trap answers for the real schema.
  return new Proxy(Object.create(null) as T, {
    get: (_target, key) => Reflect.get(schema(), key, schema()),
    set: (_target, key, value) => Reflect.set(schema(), key, value, schema()),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key)
      // A property the (empty) target lacks may not be reported as non-configurable.
      return descriptor && { ...descriptor, configurable: true }
    },
    defineProperty: (_target, key, descriptor) =>
      Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  })
}

/** Schema types whose JSON Schema output zod looks up by the schema's identity (json-schema-processors). */
const KEYED_BY_IDENTITY = new Set([
  'optional',
  'nullable',
  'nonoptional',
  'default',
  'prefault',
  'catch',
  'readonly',
  'promise',
  'lazy',
])

function checked<T extends object>(schema: T): T {
  const type = (schema as { _zod?: { def?: { type?: unknown } } })._zod?.def?.type
  if (typeof type === 'string' && KEYED_BY_IDENTITY.has(type))
    throw new Error(`lazySchema: a ${type} schema cannot be built lazily; wrap the schema inside it`)
  return schema
}
