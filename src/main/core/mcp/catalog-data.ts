/**
 * The MCP catalog's entries (docs/mcp.md "Catalog"): well-known servers a person adds with one click in Settings → MCP.
 * Data only, kept in the repo so the catalog works offline; `catalog.ts` turns an entry and the person's answers into
 * a server config. What each entry says was read from its package's own README (npm packages: `npm view <package>`
 * and its README; the Python ones are PyPI packages that `uvx` fetches and runs, which needs uv installed).
 *
 * Rules the unit test holds every entry to (`catalog.test.ts`): ids unique and valid server names; a secret goes into
 * one environment variable from the secret store, never into `args` or `env`; every `{param}` in
 * `args` or `env` names a parameter of the entry, and every parameter is used.
 */

export interface CatalogParam {
  key: string;
  /** What the person is asked, as a field label. */
  label: string;
  /** Filled in for the person: `{workspace}` stands for the app's workspace folder. */
  default?: string;
  placeholder?: string;
  /** Optional: left empty, the `args` element or `env` value holding it is left out. */
  optional?: boolean;
}

export interface CatalogSecret {
  /** The environment variable the stored secret is given to the server in (the server's own credential slot). */
  env: string;
  label: string;
  /** Where to get it, in a few words. */
  help: string;
  optional?: boolean;
}

export interface CatalogEntry {
  /** Also the server's name unless the person gives another. */
  id: string;
  title: string;
  /** What it gives the agent, in a sentence or two. */
  description: string;
  /** `npx`: an npm package npm fetches on first start; `uvx`: a PyPI package uv fetches on first start. */
  runner: 'npx' | 'uvx';
  package: string;
  /** After the package; `{key}` is replaced by a parameter's value. */
  args: string[];
  env?: Record<string, string>;
  params?: CatalogParam[];
  secret?: CatalogSecret;
  homepage: string;
  /** Something the person should know before adding it (a browser it drives, a service it needs). */
  note?: string;
}

const MCP_SERVERS = 'https://github.com/modelcontextprotocol/servers';

export const CATALOG: readonly CatalogEntry[] = [
  {
    id: 'filesystem',
    title: 'Filesystem',
    description: 'Read, write, move and search files in the folders you allow, and nowhere else.',
    runner: 'npx',
    package: '@modelcontextprotocol/server-filesystem',
    args: ['{folder}'],
    params: [{ key: 'folder', label: 'Folder it may use', default: '{workspace}' }],
    homepage: `${MCP_SERVERS}/tree/main/src/filesystem`,
  },
  {
    id: 'memory',
    title: 'Memory',
    description: 'A knowledge graph the agent keeps across chats: people, things and how they relate.',
    runner: 'npx',
    package: '@modelcontextprotocol/server-memory',
    args: [],
    env: { MEMORY_FILE_PATH: '{file}' },
    params: [
      {
        key: 'file',
        label: 'File it keeps the graph in (empty: its own default)',
        placeholder: '/home/me/notes/memory.jsonl',
        optional: true,
      },
    ],
    homepage: `${MCP_SERVERS}/tree/main/src/memory`,
  },
  {
    id: 'everything',
    title: 'Everything (test server)',
    description: "The protocol's reference test server: every kind of tool, prompt and resource, to try a client out.",
    runner: 'npx',
    package: '@modelcontextprotocol/server-everything',
    args: ['stdio'],
    homepage: `${MCP_SERVERS}/tree/main/src/everything`,
  },
  {
    id: 'sequential-thinking',
    title: 'Sequential thinking',
    description: 'A tool for thinking a problem through in steps that can be revised and branched.',
    runner: 'npx',
    package: '@modelcontextprotocol/server-sequential-thinking',
    args: [],
    homepage: `${MCP_SERVERS}/tree/main/src/sequentialthinking`,
  },
  {
    id: 'git',
    title: 'Git',
    description: 'Read and change a git repository: status, diff, log, branches, commits.',
    runner: 'uvx',
    package: 'mcp-server-git',
    args: ['--repository', '{repository}'],
    params: [{ key: 'repository', label: 'Repository folder', default: '{workspace}' }],
    homepage: `${MCP_SERVERS}/tree/main/src/git`,
  },
  {
    id: 'fetch',
    title: 'Fetch',
    description: 'Fetch a web page and give it to the agent as Markdown.',
    runner: 'uvx',
    package: 'mcp-server-fetch',
    args: [],
    homepage: `${MCP_SERVERS}/tree/main/src/fetch`,
  },
  {
    id: 'time',
    title: 'Time',
    description: 'The current time in any time zone, and conversions between zones.',
    runner: 'uvx',
    package: 'mcp-server-time',
    args: ['--local-timezone={timezone}'],
    params: [
      {
        key: 'timezone',
        label: 'Your time zone (empty: the system’s)',
        placeholder: 'Europe/Berlin',
        optional: true,
      },
    ],
    homepage: `${MCP_SERVERS}/tree/main/src/time`,
  },
  {
    id: 'sqlite',
    title: 'SQLite',
    description: 'Query and change a SQLite database, and keep notes on what it finds.',
    runner: 'uvx',
    package: 'mcp-server-sqlite',
    args: ['--db-path', '{database}'],
    params: [{ key: 'database', label: 'Database file', placeholder: '/home/me/data.db' }],
    homepage: 'https://github.com/modelcontextprotocol/servers-archived/tree/main/src/sqlite',
    note: 'Its authors archived it; it still installs and runs.',
  },
  {
    id: 'playwright',
    title: 'Playwright (browser)',
    description: 'Drive a web browser: open pages, click, type, read the page, take screenshots.',
    runner: 'npx',
    package: '@playwright/mcp',
    args: ['--headless'],
    homepage: 'https://github.com/microsoft/playwright-mcp',
    note: 'It needs a browser Playwright can start (`npx playwright install chromium` fetches one).',
  },
  {
    id: 'chrome-devtools',
    title: 'Chrome DevTools',
    description: 'Control and inspect a Chrome browser: pages, network, console, performance traces.',
    runner: 'npx',
    package: 'chrome-devtools-mcp',
    args: ['--headless'],
    homepage: 'https://github.com/ChromeDevTools/chrome-devtools-mcp',
    note: 'It needs Google Chrome installed.',
  },
  {
    id: 'github',
    title: 'GitHub',
    description: 'Repositories, files, issues, pull requests and code search on GitHub, as you.',
    runner: 'npx',
    package: '@modelcontextprotocol/server-github',
    args: [],
    secret: {
      env: 'GITHUB_PERSONAL_ACCESS_TOKEN',
      label: 'GitHub personal access token',
      help: 'github.com → Settings → Developer settings → Personal access tokens',
    },
    homepage: 'https://github.com/modelcontextprotocol/servers-archived/tree/main/src/github',
    note: 'The reference server, no longer updated by its authors; GitHub’s own server (github/github-mcp-server) runs from Docker or a binary.',
  },
  {
    id: 'brave-search',
    title: 'Brave Search',
    description: 'Web, news, image and local search through the Brave Search API.',
    runner: 'npx',
    package: '@brave/brave-search-mcp-server',
    args: [],
    secret: {
      env: 'BRAVE_API_KEY',
      label: 'Brave Search API key',
      help: 'brave.com/search/api (a free plan exists)',
    },
    homepage: 'https://github.com/brave/brave-search-mcp-server',
  },
  {
    id: 'context7',
    title: 'Context7 (library docs)',
    description: 'Up-to-date documentation and code examples of libraries, looked up by name and version.',
    runner: 'npx',
    package: '@upstash/context7-mcp',
    args: [],
    secret: {
      env: 'CONTEXT7_API_KEY',
      label: 'Context7 API key (optional: higher limits)',
      help: 'context7.com/dashboard',
      optional: true,
    },
    homepage: 'https://github.com/upstash/context7',
  },
  {
    id: 'notion',
    title: 'Notion',
    description: 'Search, read and edit the Notion pages and databases shared with your integration.',
    runner: 'npx',
    package: '@notionhq/notion-mcp-server',
    args: [],
    secret: {
      env: 'NOTION_TOKEN',
      label: 'Notion integration token',
      help: 'notion.so/profile/integrations → New integration; then share pages with it',
    },
    homepage: 'https://github.com/makenotion/notion-mcp-server',
  },
];
