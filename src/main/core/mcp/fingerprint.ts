/**
 * Drift check and trust warnings for MCP tools (docs/mcp.md "Drift"). A tool's fingerprint is the SHA-256 of its
 * name, description and input schema in canonical JSON (object keys sorted at every depth), so the order a server
 * writes its schema keys in never counts as a change while any change of wording or shape does. `hiddenInstructionMarkers`
 * lists what the trust view must flag in a description: instruction tags, "do not tell the user" phrasing,
 * invisible characters, and references to credentials on disk.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../approval/decisions';

// The one canonical JSON, the argument hash's: on parsed JSON (all a server sends) it is what this module used to
// write itself, so fingerprints stored before are still equal.
export { canonicalJson };

export function toolFingerprint(tool: { name: string; description?: string; inputSchema?: unknown }): string {
  return createHash('sha256')
    .update(
      canonicalJson({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema ?? {} }),
    )
    .digest('hex');
}

const MARKERS: readonly { test: RegExp; label: string }[] = [
  {
    test: /<\s*\/?\s*(important|system|instructions?|secret|hidden|admin|critical|note)\b[^>]*>/i,
    label: 'an instruction tag (like <IMPORTANT>)',
  },
  {
    test: /\b(do not|don't|never)\s+(tell|inform|mention|show|reveal|notify)\b[^.]{0,40}\b(user|human|person)/i,
    label: '"do not tell the user" phrasing',
  },
  { test: /[\u200B-\u200F\u2060-\u2064\uFEFF]/, label: 'zero-width characters' },
  { test: /[\u202A-\u202E\u2066-\u2069]/, label: 'bidirectional control characters' },
  { test: /~\/\.ssh|\.ssh\/|id_rsa|id_ed25519/i, label: 'a reference to SSH keys' },
  { test: /(^|[\s/'"`(])\.env\b/i, label: 'a reference to .env files' },
  { test: /ignore (all |any )?(previous|prior|above) instructions/i, label: '"ignore previous instructions" phrasing' },
];

/** Human-readable flags for text a tool shows the model (its description and the schema's descriptions). */
export function hiddenInstructionMarkers(...texts: string[]): string[] {
  const text = texts.join('\n');
  return MARKERS.filter((m) => m.test.test(text)).map((m) => m.label);
}
