/**
 * Slash commands are handled in the core and never reach the model (docs/architecture.md "Slash commands"). An unknown
 * command answers with the help. Each returns the reply text; side effects go through the session manager's hooks.
 */
export interface SlashHooks {
  newSession(): number;
  clearContext(): void;
  stop(): boolean;
  listModels(): string;
  selectModel(arg: string): string;
  contextReport(): string;
  costReport(): string;
  resetTools(): string;
  compact(): string;
}

export const SLASH_HELP = [
  'Commands:',
  '/new — start a new session',
  "/clear — start the model's context afresh in this session (the history stays visible)",
  '/models — list the configured models',
  '/model <N|name|auto> — choose the model for this session',
  '/context — what the model sees now',
  '/cost — tokens and cost of this session',
  '/compact — summarize older history so the model sees the summary and the last messages',
  '/resettools — drop the tool groups activated in this session',
  '/stop — stop the running turn',
  '/help — this list',
].join('\n');

export function isSlashCommand(content: string): boolean {
  return /^\/[a-z]+(\s|$)/i.test(content.trim());
}

export function runSlashCommand(content: string, hooks: SlashHooks): { command: string; reply: string } {
  const [word = '', ...rest] = content.trim().split(/\s+/);
  const command = word.toLowerCase();
  const arg = rest.join(' ');
  switch (command) {
    case '/help':
      return { command, reply: SLASH_HELP };
    case '/new':
      return { command, reply: `Started session ${hooks.newSession()}.` };
    case '/clear':
      hooks.clearContext();
      return { command, reply: 'Context cleared: the model will not see the messages above this point.' };
    case '/stop':
      return { command, reply: hooks.stop() ? 'Stopping the turn.' : 'No turn is running.' };
    case '/models':
      return { command, reply: hooks.listModels() };
    case '/model':
      return { command, reply: arg ? hooks.selectModel(arg) : 'Usage: /model <N|name|auto>\n\n' + hooks.listModels() };
    case '/context':
      return { command, reply: hooks.contextReport() };
    case '/cost':
      return { command, reply: hooks.costReport() };
    case '/compact':
      return { command, reply: hooks.compact() };
    case '/resettools':
      return { command, reply: hooks.resetTools() };
    default:
      return { command, reply: `Unknown command ${command}.\n\n${SLASH_HELP}` };
  }
}
