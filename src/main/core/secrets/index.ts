/** The secrets domain: the encrypted store and the ciphers it can run on (docs/plugins.md "Secrets"). */
export * from './secret-cipher';
export * from './secret-store';
