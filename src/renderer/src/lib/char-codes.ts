/** Character codes the line scanners compare against (markdown-hazards.ts, viewer/markdown-parts.ts). */
export const TAB = 9;
export const NEWLINE = 10;
export const RETURN = 13;
export const SPACE = 32;
export const STAR = 42;
export const GT = 62;
export const UNDERSCORE = 95;
export const TILDE = 126;
