/**
 * A tool call's arguments as the model sent them (a JSON text) read into the object every later step uses
 * (docs/approval.md "The normalized call", "Arguments nested too deep"). One reader for the session's calls, the
 * history's cards, the replay to the provider and the sealing of secrets, so that each of them accepts exactly the
 * same texts.
 *
 * The depth bound is why this is not a bare `JSON.parse`: V8 parses any depth without recursion, but stringifying,
 * hashing, validating and copying the value all recurse, and a few thousand levels of `[` overflow the stack. A
 * call nested that deep used to fail the whole model request; past the bound it is now a bad call the model is told
 * about, like any other.
 */

/** Deepest nesting of objects and arrays a call's arguments may have (the arguments object itself is level 1). */
export const MAX_ARGUMENT_DEPTH = 64;

/** Whether `value` nests objects or arrays more than `max` levels deep; a walk without recursion, so any depth. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

export type ParsedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** The call's arguments as an object, or the reason they are not one (written for the model to act on). */
export function parseToolArguments(raw: string): ParsedArguments {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (error) {
    return {
      ok: false,
      error: `The arguments are not valid JSON (${(error as Error).message}). Send them again as one JSON object.`,
    };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: 'The arguments must be a JSON object.' };
  // Each level opens and closes a bracket: a text shorter than twice the bound cannot nest past it.
  if (raw.length > 2 * MAX_ARGUMENT_DEPTH && nestedDeeperThan(value, MAX_ARGUMENT_DEPTH)) {
    return {
      ok: false,
      error: `The arguments nest objects or arrays more than ${MAX_ARGUMENT_DEPTH} levels deep. Send them again as one JSON object, less deeply nested.`,
    };
  }
  return { ok: true, args: value as Record<string, unknown> };
}
