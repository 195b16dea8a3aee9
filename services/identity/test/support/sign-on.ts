import { startFakeOAuthProvider } from './fake-oauth-provider.ts';
import { startIdentity } from './identity-harness.ts';

/** The identity unit with sign-on through a fake provider (its settings first, then `env`). */
export async function startWithSignOn(env: Record<string, string> = {}) {
  const provider = await startFakeOAuthProvider({ clientId: 'pp-client', clientSecret: 'pp-secret' });
  const identity = await startIdentity({ ...provider.env(), ...env });
  const stop = async () => {
    await identity.stop();
    await provider.close();
  };
  return { provider, identity, stop };
}
