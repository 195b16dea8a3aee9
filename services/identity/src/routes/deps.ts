import type { OAuthProviderClient } from '../clients/oauth-provider.client.ts';
import type { Config } from '../config.ts';
import type { OAuthProvider } from '../clients/oauth-providers.ts';
import type { IdentityContext } from '../use-cases/shared/context.ts';

export interface RouteDeps {
  config: Config;
  /** The use-case context of the current request. */
  context: () => IdentityContext;
  providers: OAuthProvider[];
  oauthClients: ReadonlyMap<string, OAuthProviderClient>;
}
