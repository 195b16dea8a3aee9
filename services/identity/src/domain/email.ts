/** Emails compare case-insensitively: one account per address however it is typed. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A display name for an account that came without one. */
export const nameFromEmail = (email: string): string => email.split('@')[0] || email;
