/** Bump when the tokenizer (domain/text.ts) changes: rows kept by the older one are read differently. */
export const TERMS_VERSION = 1;
