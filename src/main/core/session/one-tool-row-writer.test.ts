/**
 * One writer per table: the tool rows (`chat_llm_tools`) are written only by the session store, in session/tool-rows.ts
 * (held by session-store.ts); everything else (the approval manager's flip to `pending` included) goes through it.
 * Migrations shape the table and test fixtures (`test-kit.ts`) seed it; both are exempt.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('chat_llm_tools has one writer', () => {
  it("no module but session/tool-rows.ts (the session store's) inserts, updates or deletes tool rows", () => {
    const writers = sources(root)
      .filter((file) => !file.includes(join('db', 'migrations')) && !file.endsWith('test-kit.ts'))
      .filter((file) =>
        /\b(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+chat_llm_tools\b/i.test(
          readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => relative(root, file).split('\\').join('/'));
    expect(writers).toEqual(['core/session/tool-rows.ts']);
  });
});
