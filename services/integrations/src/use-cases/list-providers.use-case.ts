import { PROVIDERS, providerView } from '../domain/providers.ts';

/** Every provider: id, name, kind, how one signs in, and its fields. */
export const listProviders = () => PROVIDERS.map(providerView);
