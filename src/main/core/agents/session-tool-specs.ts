/**
 * The JSON Schemas of the session's own tools (`SESSION_TOOLS`, tools/session/index.ts) as the model sees them, made
 * once each (their inputs are static). Here, beside the tool sets that offer them (tool-sets.ts), so deciding a
 * frame's tools does not import the session that runs them (session/synthetic-tools.ts re-exports these).
 */
import { z } from 'zod';
import type { ToolSpec } from '../llm/types';
import { SESSION_TOOLS } from '../tools/session/index';

const byName = new Map(SESSION_TOOLS.map((t) => [t.name, t]));

function specOf(t: { name: string; description: string | (() => string); input: z.ZodType }): ToolSpec {
  const { $schema: _drop, ...parameters } = z.toJSONSchema(t.input, { io: 'input' }) as Record<string, unknown>;
  return {
    name: t.name,
    description: typeof t.description === 'function' ? t.description() : t.description,
    parameters,
  };
}

const specCache = new Map<string, ToolSpec>();
/** The JSON Schema of one synthetic tool (generated once: the inputs are static). */
export function syntheticToolSpec(name: string): ToolSpec | null {
  const cached = specCache.get(name);
  if (cached) return cached;
  const tool = byName.get(name);
  if (!tool) return null;
  const spec = specOf(tool);
  specCache.set(name, spec);
  return spec;
}

export function syntheticToolSpecs(): ToolSpec[] {
  return SESSION_TOOLS.map((t) => syntheticToolSpec(t.name)!);
}
