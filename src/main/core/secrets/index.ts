/** The secrets domain: the encrypted store and the ciphers it can run on (SPEC.md §3.13). */
export * from './secret-cipher';
export * from './secret-store';
