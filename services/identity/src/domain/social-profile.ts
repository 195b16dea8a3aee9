import { z } from 'zod';
import { normalizeEmail } from './email.ts';

/** What sign-on needs to know about the person, whichever provider vouched for them. */
export interface SocialProfile {
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

const oidcUserinfo = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  name: z.string().optional(),
});

const githubUser = z.object({
  id: z.union([z.number(), z.string()]),
  login: z.string().optional(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
});

const githubEmails = z.array(
  z.object({ email: z.string(), primary: z.boolean().optional(), verified: z.boolean().optional() }),
);

export function profileFromOidc(userinfo: unknown): SocialProfile {
  const u = oidcUserinfo.parse(userinfo);
  return {
    subject: u.sub,
    email: u.email ? normalizeEmail(u.email) : undefined,
    emailVerified: u.email_verified === true || u.email_verified === 'true',
    name: u.name || undefined,
  };
}

/** GitHub: the profile's email is unverified; the verified primary address comes from /user/emails. */
export function profileFromGithub(user: unknown, emails: unknown): SocialProfile {
  const u = githubUser.parse(user);
  const list = githubEmails.safeParse(emails);
  const verified = list.success
    ? (list.data.find((e) => e.primary && e.verified) ?? list.data.find((e) => e.verified))
    : undefined;
  const email = verified?.email ?? u.email ?? undefined;
  return {
    subject: String(u.id),
    email: email ? normalizeEmail(email) : undefined,
    emailVerified: verified !== undefined,
    name: u.name || u.login || undefined,
  };
}
