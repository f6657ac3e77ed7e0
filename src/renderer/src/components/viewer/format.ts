/** Small display helpers of the viewer. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/**
 * A classic hex dump: offset, `perLine` bytes in hex (16, or 8 where the viewer is narrow), and their printable ASCII.
 * A line is 11 + 4 × perLine characters.
 */
export function hexDump(bytes: Uint8Array, max = 512, perLine: 8 | 16 = 16): string {
  const lines: string[] = [];
  for (let at = 0; at < Math.min(bytes.length, max); at += perLine) {
    const row = bytes.subarray(at, Math.min(at + perLine, bytes.length, max));
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${hex.padEnd(perLine * 3 - 1)}  ${ascii}`);
  }
  return lines.join('\n');
}
