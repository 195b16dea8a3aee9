import { defineEntity, p } from '@pp/db';

const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    email: p.string().unique(),
    name: p.string(),
    passwordHash: p.text().nullable(),
    emailVerified: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);
