/**
 * After each test of MCP through a core harness (test/helpers/core-harness.ts): the harness closed, no server process
 * of the test's marker left (src/main/core/mcp/test-kit.ts), the temp folders gone.
 */
import { expectNoProcesses } from '../../src/main/core/mcp/test-kit';
import { cleanupTempDirs } from './temp';

export async function endHarnessTest(harness: { close(): Promise<void> } | null, marker: string): Promise<void> {
  await harness?.close();
  if (marker) await expectNoProcesses(marker);
  cleanupTempDirs();
}
