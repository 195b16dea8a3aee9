import { eventEntities } from '@pp/events';
import { LinkedAccount } from './linked-account.entity.ts';
import { OAuthState } from './oauth-state.entity.ts';
import { Token } from './token.entity.ts';
import { User } from './user.entity.ts';

export { LinkedAccount, OAuthState, Token, User };
export const entities = [User, Token, LinkedAccount, OAuthState, ...eventEntities];
