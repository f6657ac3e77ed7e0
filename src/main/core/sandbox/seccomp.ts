/**
 * The seccomp filter bubblewrap loads before it starts a sandboxed command (`--seccomp FD`; docs/sandbox.md "Unix
 * sockets"): creating a Unix socket fails with EPERM. Without it, a command that cannot write outside its folder and
 * has no network could still connect to a socket it can see in the file system (`/run/docker.sock`, the session bus
 * that starts programs for the person, an ssh agent) and have something outside the sandbox act for it. `socketpair`
 * (pipes between a command's own processes) stays allowed. `io_uring_setup` fails too: io_uring can open sockets
 * without the `socket` system call the filter sees. A system call of another architecture (a 32-bit program, or
 * `int 0x80` from a 64-bit one, which reaches `socketcall`) fails whatever it is, so the filter cannot be stepped
 * around.
 * bubblewrap reads the filter from a descriptor: each command gets its own read descriptor of one file written once
 * per process (mode 0600, in a 0700 folder of the temp folder, removed when the process exits), which costs a microsecond where handing the bytes
 * through a pipe cost execa some 4 ms a command.
 * Limits: x86-64 and arm64 only (`unixSocketFilter` answers null elsewhere, and the sandbox runs without it);
 * 32-bit programs do not run in the sandbox; a Unix socket the command inherits open (none: it gets pipes only) is
 * not filtered.
 */

/** Classic BPF opcodes (linux/filter.h). */
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
/** seccomp return values (linux/seccomp.h) and the answer a refused call gets. */
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO_EPERM = 0x00050000 | 1;
/** Offsets in `struct seccomp_data`: the call's number, its architecture, the low word of its first argument. */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;
const AF_UNIX = 1;
/** x32 system calls are the x86-64 numbers with this bit set, under the same architecture value. */
const X32 = 0x40000000;

interface Arch {
  audit: number;
  socket: readonly number[];
  ioUringSetup: readonly number[];
}

const ARCHES: Record<string, Arch> = {
  x64: { audit: 0xc000003e, socket: [41, X32 | 41], ioUringSetup: [425, X32 | 425] },
  arm64: { audit: 0xc00000b7, socket: [198], ioUringSetup: [425] },
};

type Target = 'next' | 'check-family' | 'allow' | 'deny';
interface Step {
  code: number;
  k: number;
  label?: Target;
  jt?: Target;
  jf?: Target;
}

import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const built = new Map<string, Uint8Array | null>();
/**
 * The filter's file, open for as long as the process lives and already removed from its folder: a process that ends
 * any way (a crash, SIGKILL) leaves no file behind, where removing it at exit left one per killed process.
 */
let kept: number | null = null;

/**
 * A new read descriptor of this machine's filter, for one process's fd 3 (its own offset: bubblewrap reads it to the
 * end), or null where there is no filter. The caller closes it once the process is spawned. The file is written once
 * and removed at once; each descriptor is a new opening of it through `/proc/self/fd` (the sandbox runs on Linux only).
 */
export function openUnixSocketFilter(): number | null {
  const bytes = unixSocketFilter();
  if (!bytes) return null;
  if (kept === null) {
    const dir = mkdtempSync(join(tmpdir(), 'skald-seccomp-'));
    try {
      const file = join(dir, 'unix-sockets.bpf');
      writeFileSync(file, bytes, { mode: 0o600 });
      kept = openSync(file, 'r');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return openSync(`/proc/self/fd/${kept}`, 'r');
}

/** The filter for `arch` (Node's `process.arch`) as bubblewrap reads it: `struct sock_filter` records, or null. */
export function unixSocketFilter(arch: string = process.arch): Uint8Array | null {
  if (!built.has(arch)) built.set(arch, buildFilter(arch));
  return built.get(arch)!;
}

function buildFilter(arch: string): Uint8Array | null {
  const a = ARCHES[arch];
  if (!a) return null;
  const steps: Step[] = [
    { code: LD_W_ABS, k: ARCH },
    { code: JEQ_K, k: a.audit, jt: 'next', jf: 'deny' },
    { code: LD_W_ABS, k: NR },
    ...a.socket.map((nr): Step => ({ code: JEQ_K, k: nr, jt: 'check-family', jf: 'next' })),
    ...a.ioUringSetup.map((nr): Step => ({ code: JEQ_K, k: nr, jt: 'deny', jf: 'next' })),
    { code: RET_K, k: RET_ALLOW },
    { code: LD_W_ABS, k: ARG0_LOW, label: 'check-family' },
    { code: JEQ_K, k: AF_UNIX, jt: 'deny', jf: 'allow' },
    { code: RET_K, k: RET_ALLOW, label: 'allow' },
    { code: RET_K, k: RET_ERRNO_EPERM, label: 'deny' },
  ];
  const at = (label: Target, from: number): number => {
    if (label === 'next') return 0;
    const index = steps.findIndex((s) => s.label === label);
    return index - from - 1;
  };
  // `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`, little-endian on both architectures.
  const out = Buffer.alloc(steps.length * 8);
  steps.forEach((step, i) => {
    out.writeUInt16LE(step.code, i * 8);
    out.writeUInt8(step.jt ? at(step.jt, i) : 0, i * 8 + 2);
    out.writeUInt8(step.jf ? at(step.jf, i) : 0, i * 8 + 3);
    out.writeUInt32LE(step.k >>> 0, i * 8 + 4);
  });
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
