/**
 * Every tool a real core registers hands the model an object JSON Schema without `$schema`. A tool's schema is built
 * at first use (define-tool.ts), so this check, which once ran when each tool was defined, is made here for all of
 * them at once: a tool with a non-object input fails this test, not a person's first model round.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';

afterEach(() => cleanupTempDirs());

describe("a core's tool schemas", () => {
  it('are object schemas without $schema, for every registered tool', async () => {
    const dir = tempDir('skald-tool-schemas-');
    const core = await createCore({
      dataDir: join(dir, 'data'),
      workspaceDir: join(dir, 'ws'),
      shape: 'web',
      version: 'test',
    });
    try {
      const names = core.tools.listAll().map((t) => t.name);
      expect(names.length).toBeGreaterThanOrEqual(20);
      for (const name of names) {
        const schema = core.tools.get(name)!.parametersSchema();
        expect(schema.type, name).toBe('object');
        expect(schema, name).not.toHaveProperty('$schema');
      }
    } finally {
      await core.dispose();
    }
  });
});
