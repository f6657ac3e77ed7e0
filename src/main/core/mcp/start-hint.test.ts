/**
 * The sentence in front of a failed start (docs/mcp.md "Catalog"): npx offline (npm's text, copied from `npx -y
 * <package>` against an unreachable registry), uvx offline (an error chain of the shape uv prints), a runner that is
 * not installed, and failures it must leave alone (another command, a server's own error).
 */
import { describe, expect, it } from 'vitest';
import { startFailureHint } from './start-hint';

const NPX_OFFLINE = `npm error code ECONNREFUSED
npm error syscall connect
npm error errno ECONNREFUSED
npm error FetchError: request to http://127.0.0.1:9/@modelcontextprotocol%2fserver-sequential-thinking failed, reason: connect ECONNREFUSED 127.0.0.1:9
npm error }
npm error If you are behind a proxy, please make sure that the 'proxy' config is set properly.`;
const UVX_OFFLINE = `error: Failed to fetch: \`https://pypi.org/simple/mcp-server-time/\`
  Caused by: Request failed after 3 retries
  Caused by: error sending request for url (https://pypi.org/simple/mcp-server-time/)
  Caused by: dns error: failed to lookup address information: Temporary failure in name resolution`;

describe('startFailureHint', () => {
  it('says an npx or uvx package could not be downloaded, naming it and what to do', () => {
    expect(startFailureHint('npx', ['-y', '@modelcontextprotocol/server-sequential-thinking'], NPX_OFFLINE)).toBe(
      'npx could not download @modelcontextprotocol/server-sequential-thinking: the npm registry could not be ' +
        'reached (is this machine offline, or behind a proxy?). Once it can be reached, press Restart; the download ' +
        'happens once.',
    );
    expect(startFailureHint('/usr/local/bin/uvx', ['mcp-server-time'], UVX_OFFLINE)).toMatch(
      /^uvx could not download mcp-server-time: the Python package index could not be reached/,
    );
  });

  it('says a runner that is not installed is missing, and where it comes from', () => {
    expect(startFailureHint('uvx', ['mcp-server-git'], 'could not start: spawn uvx ENOENT')).toBe(
      "uvx was not found on this machine's PATH: uvx comes with uv (docs.astral.sh/uv). Install it, then press Restart.",
    );
  });

  it('leaves other commands and other failures alone', () => {
    expect(startFailureHint('node', ['server.js'], NPX_OFFLINE)).toBeNull();
    expect(startFailureHint('npx', ['-y', 'x'], 'Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set')).toBeNull();
  });
});
