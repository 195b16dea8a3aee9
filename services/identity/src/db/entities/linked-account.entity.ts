import { defineEntity, p } from '@pp/db';

/** A social sign-on identity (provider + subject) linked to a user. */
const LinkedAccountSchema = defineEntity({
  name: 'LinkedAccount',
  tableName: 'linked_accounts',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    provider: p.string(),
    subject: p.string(),
    email: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export class LinkedAccount extends LinkedAccountSchema.class {}
LinkedAccountSchema.setClass(LinkedAccount);
