/**
 * What `core.start()` loads ahead of the first turn (docs/shell-analysis.md "Cold start", docs/architecture.md "What
 * keeps the waited-on paths fast"): at once, the shell grammar's runtime and the gate's own code; after a delay, off
 * the start's path, the bash grammar, the AI SDK and the providers in use, and the shell runner. Whatever is not
 * loaded yet loads when first used. The core's `dispose` aborts `signal`: each step first checks that the core is
 * still open (its database above all).
 */
import type { ApprovalGate } from './approval/gate';
import { warmUpPlainShellGate, warmUpShellGate } from './approval/gate-warm-up';
import { ShellAnalyzer } from './approval/shell';
import { loadAiSdk, loadProvider } from './llm/ai-sdk';
import type { LlmServices } from './llm/services';
import type { Sandbox } from './sandbox/index';
import { loadExeca } from './tools/shell/execute-cmd';

/**
 * The background warm-up waits this long after `start()` (docs/architecture.md "What keeps the waited-on paths
 * fast"): on two cores, loading the grammar and warming the gate while the first window loaded its page and history
 * made that window about 300 ms later. A command that needs the grammar sooner loads it on demand.
 */
export const WARM_UP_DELAY_MS = 2_000;

export function startWarmUp(s: {
  gate: ApprovalGate;
  shell: ShellAnalyzer;
  sandbox: Sandbox;
  llm: LlmServices;
  workspaceDir: string;
  /** How long after `start()` the background part begins (WARM_UP_DELAY_MS unless a test or the e2e set it). */
  delayMs: number;
  signal: AbortSignal;
  log: (message: string, fields?: Record<string, unknown>) => void;
}): void {
  // The shell grammar's runtime, at once (its script and, compiled by now, its instance: about 10 ms): a command at
  // start then waits only for the grammar's load; the grammar is not loaded here (docs/shell-analysis.md
  // "Cold start").
  ShellAnalyzer.preloadRuntime();
  // And the gate's own code, compiled by deciding a plain line (about 5 ms; the grammar is not loaded): the first
  // command's decision then pays only for what is its own (docs/shell-analysis.md "Cold start").
  try {
    warmUpPlainShellGate(s.gate, s.workspaceDir);
  } catch (error) {
    s.log('shell gate warm-up failed (its code compiles on the first command)', { error: String(error) });
  }
  // Off the start's path, one after another once the first window has loaded (WARM_UP_DELAY_MS): what the first
  // turn needs (the bash grammar, the AI SDK and the providers in use, the shell runner). Whatever is not loaded
  // yet loads when first used.
  // `dispose` cancels it: each step first checks that the core is still open (its database above all).
  void (async () => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, s.delayMs);
      timer.unref();
      s.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    if (s.signal.aborted) return;
    // Whether the sandbox can start, beside the chain (its two short processes hold nothing up): the first
    // command's card says so.
    void s.sandbox.status();
    await s.shell.whenLoaded();
    await warmUpShellGate(s.gate, s.workspaceDir, s.signal);
    if (s.signal.aborted) return;
    await loadAiSdk();
    if (s.signal.aborted) return;
    for (const kind of new Set(s.llm.providers.orderedModels().map((m) => m.providerKind))) {
      await loadProvider(kind);
      if (s.signal.aborted) return;
    }
    await loadExeca();
  })().catch((error) => {
    if (!s.signal.aborted)
      s.log('background warm-up failed (each piece loads when first used)', { error: String(error) });
  });
}
