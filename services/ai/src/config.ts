import { loadConfig, serviceEnv, z } from '@pp/config';

export const configSchema = z.object({ ...serviceEnv, PORT: serviceEnv.PORT.default(8084) });
export type Config = z.infer<typeof configSchema>;
export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
