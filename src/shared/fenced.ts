/**
 * Text as a Markdown code block whose fence no backtick run inside can close (one backtick longer than the longest
 * run, at least three): an exported chat's results and a text file put in a message (the renderer's lib/chat-export.ts,
 * lib/picked-files.ts), an MCP prompt's embedded text (main/core/mcp/prompts.ts). The longest run is found in one pass, never by spreading every run into Math.max (a file
 * of many backticks would overflow the call stack).
 */
export function fenced(text: string, lang = ''): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 96 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}
