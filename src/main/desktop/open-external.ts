/**
 * The one guard every external link passes before `shell.openExternal` (E6). http(s) and mailto open;
 * local, script and Windows-handler schemes (`file:`, `javascript:`, `data:`, `smb:`, `ms-msdt:` …) never do;
 * any other well-formed scheme opens only after the person confirms. Malformed URLs open nothing.
 * Check ids (E6) are listed in docs/security-checks.md.
 */
export interface OpenExternalDeps {
  openExternal: (url: string) => Promise<void>;
  confirm: (message: string) => Promise<boolean>;
  log?: (message: string) => void;
}

const ALLOWED = new Set(['http:', 'https:', 'mailto:']);
const REFUSED = new Set([
  'file:',
  'javascript:',
  'data:',
  'vbscript:',
  'blob:',
  'smb:',
  'ms-msdt:',
  'search-ms:',
  'ms-officecmd:',
  'app:',
  'chrome:',
  'about:',
]);

export async function openExternalSafe(rawUrl: string, deps: OpenExternalDeps): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    deps.log?.('openExternal refused a malformed URL');
    return false;
  }
  const scheme = url.protocol.toLowerCase();
  if (REFUSED.has(scheme)) {
    deps.log?.(`openExternal refused scheme ${scheme}`);
    return false;
  }
  if (!ALLOWED.has(scheme) && !(await deps.confirm(`Open this link with another application?\n\n${url.href}`))) {
    return false;
  }
  await deps.openExternal(url.href);
  return true;
}
